"""Issue 23: one word for one rule. The glossary in ``docs/i18n.md`` lists, per language,
each game term with our word and the variants it rules out; no catalogue, card text file
or rules reference may use a ruled-out variant."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "gloomtable"
DOC = ROOT / "docs" / "i18n.md"
HEADINGS = {"es": "### Español (es)", "ru": "### Русский (ru)"}


def glossary(lang: str) -> list[tuple[str, str, list[str]]]:
    """(term, our word, ruled-out variants) rows of one language's glossary table."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(HEADINGS[lang])
    rows = []
    for line in text[start:].split("\n")[1:]:
        if line.startswith("#"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("Term", "---"):
            continue
        rows.append((cells[0], cells[1], [v.strip() for v in cells[2].split(";") if v.strip()]))
    return rows


def variant_regex(variant: str) -> re.Pattern[str]:
    """A ruled-out variant as a regex: whole words, any case, ``*`` is any word ending,
    and any run of white space (a line break too) between its words."""
    body = re.escape(variant).replace(r"\*", r"\w*").replace(r"\ ", r"\s+")
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def texts(lang: str) -> Iterator[tuple[str, str]]:
    """(where, text) for every translated text of ``lang``: catalogue msgstrs, and card
    files and the rules reference whole (so a variant split over two lines is found)."""
    po = PKG / "locale" / lang / "LC_MESSAGES" / "gloomtable.po"
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    for msg in catalog:
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        for s in strings:
            yield f"{po.relative_to(ROOT)}:{msg.lineno} (msgid {msg.id!r})", s
    files = [*sorted(PKG.glob(f"games/**/*.{lang}.toml")),
             *sorted((PKG / "locale" / lang / "rules").glob("*.md"))]
    assert len(files) >= 5, files
    for path in files:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def test_glossary_tables_are_read() -> None:
    """The tables exist and cover the terms the issue names, each with its source."""
    for lang in HEADINGS:
        rows = glossary(lang)
        terms = " ".join(r[0] for r in rows)
        for term in ("Self-Worth", "Modifier", "Event", "Untimely Death", "Family Value", "free play",
                     "draw pile", "discard pile", "draw limit", "round", "goblet", "lucre", "beast",
                     "duck", "romance", "blank", "murder", "investigation", "immediate effect",
                     "continuous effect", "persistent effect", "response", "Story", "Guest",
                     "Machine", "Reserve"):
            assert term in terms, f"{lang}: the glossary has no row for {term}"
        assert all(r[1] for r in rows), f"{lang}: a glossary row without our word"
    assert variant_regex("jugada* extra").search("como jugadas extra")
    assert not variant_regex("copa*").search("escopeta")
    assert variant_regex("остал* {n} действ*").search("осталось {n} действия")
    assert variant_regex("mazo de robo").search("en el mazo de\nrobo y")


@pytest.mark.parametrize("lang", list(HEADINGS))
def test_no_text_uses_a_ruled_out_variant(lang: str) -> None:
    rules = [(term, word, v, variant_regex(v)) for term, word, vs in glossary(lang) for v in vs]
    problems = []
    for where, text in texts(lang):
        for term, word, _variant, rx in rules:
            m = rx.search(text)
            if m:
                at = f":{text.count(chr(10), 0, m.start()) + 1}" if "\n" in text else ""
                problems.append(f"{where}{at}: {m.group(0)!r} for {term}: the glossary says {word!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", list(HEADINGS))
def test_our_words_are_used(lang: str) -> None:
    """The chosen word of the terms the interface shows most is really in the catalogue."""
    all_text = "\n".join(t for _, t in texts(lang)).lower()
    wanted = {"es": ["jugada gratis", "pila de robo", "pila de descarte", "límite de robo", "cáliz",
                     "ronda", "autoestima", "muerte prematura", "valor familiar"],
              "ru": ["свободный розыгрыш", "колода", "сброс", "лимит карт", "кубок", "раунд",
                     "собственное достоинство", "преждевременная смерть", "семейные ценности"]}[lang]
    missing = [w for w in wanted if w not in all_text]
    assert not missing, f"{lang}: the glossary's words are never used: {missing}"


def test_the_names_table_is_what_the_card_files_say() -> None:
    """The glossary's families and Characters are the classic set's own names, genders
    and translations (so the record and the files cannot drift apart)."""
    import tomllib

    text = DOC.read_text(encoding="utf-8")
    table = text[text.index("### Families and Characters"):].split("\n## ")[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.split("\n")
            if line.startswith("|") and not line.startswith(("| English", "| ---"))]
    sets = PKG / "games" / "gloom" / "sets"
    deck = tomllib.loads((sets / "classic.toml").read_text(encoding="utf-8"))
    es = tomllib.loads((sets / "classic.es.toml").read_text(encoding="utf-8"))
    ru = tomllib.loads((sets / "classic.ru.toml").read_text(encoding="utf-8"))
    by_name = {f["name"]: ("families", f["id"], "") for f in deck["families"]}
    by_name.update({c["name"]: ("cards", c["id"], c.get("gender", "")) for c in deck["characters"]})
    assert len(rows) == len(by_name), "every classic family and Character has a row"
    for english, spanish, russian, gender, source in rows:
        table_name, key, deck_gender = by_name[english]
        assert es[table_name][key]["name"] == spanish, english
        assert ru[table_name][key]["name"] == russian, english
        assert gender == deck_gender, english
        assert source, english
