"""Maintainers' tool: extract every message and bring the ``.po`` catalogs up to date.

    python -m gloomtable.i18n.extract          # update locale/*/LC_MESSAGES/gloomtable.po
    python -m gloomtable.i18n.extract --check  # exit 1 if a catalog lacks a message

Python sources are read with Babel's python extractor, the web page's ES modules with
its javascript extractor (``babel.cfg`` holds the same mapping for ``pybabel``).
English msgstrs are copies of the msgids, so the English catalog is complete too."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from gloomtable.engine.messages import REGISTRY, Msg
from gloomtable.i18n.catalog import DOMAIN, LANGUAGES
from gloomtable.i18n.markers import GENDER_CONTEXTS, GENDERED

PKG = Path(__file__).resolve().parents[1]
KEYWORDS = {**DEFAULT_KEYWORDS, "Nn_": (1, 2), "NG_": None}
METHOD_MAP = [("**/web/**.js", "javascript"), ("**.py", "python")]
JS_OPTIONS = {"**/web/**.js": {"parse_template_string": "true"}}
"""Calls inside template literals (`${_("Needs")}: ...`) are extracted too."""
SKIP = ("rl/", "tests/")


def extract() -> Catalog:
    """Every message the package shows, as a template catalog."""
    template = Catalog(domain=DOMAIN, project="gloomtable", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(PKG), METHOD_MAP, JS_OPTIONS, keywords=KEYWORDS, strip_comment_tags=True):
        if filename.startswith(SKIP) or filename.endswith("i18n/extract.py"):
            continue
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for filename, lineno, message in calls_in_fstrings():
        if template.get(message) is None:
            template.add(message, None, [(filename, lineno)])
    for msg in event_messages():
        key = (msg.msgid, msg.plural) if msg.plural else msg.msgid
        if template.get(msg.msgid) is None:
            template.add(key, None, [(f"games/{msg.game}/messages.py", 0)],
                         auto_comments=["An event's line; its placeholders are the engine's "
                                        f"arguments (games/{msg.game}/messages.py)."])
    from gloomtable.i18n.narration_text import messages as narration_messages

    for message in narration_messages():
        if template.get(message) is None:
            template.add(message, None, [("i18n/narration_text.py", 0)],
                         auto_comments=["A bot's narration of a play (games/<game>/hooks/narration.py)."])
    from gloomtable.learn.script import load_lesson, shipped_lessons

    for path in shipped_lessons().values():
        for message in load_lesson(path).texts():
            if template.get(message) is None:
                template.add(message, None, [(f"lessons/{path.name}", 0)],
                             auto_comments=["A step of a guided first game (gloom learn)."])
    for message, where in gendered_messages():
        for ctx in GENDER_CONTEXTS:
            template.add(message, None, [(where, 0)], context=ctx,
                         auto_comments=[f"The line about a Character of {ctx} gender."])
    return template


def python_sources() -> Iterator[tuple[str, ast.Module]]:
    """Each Python module of the package that extraction reads, parsed, by its path."""
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        if not rel.startswith(SKIP) and not rel.endswith(("i18n/extract.py", "i18n/markers.py")):
            yield rel, ast.parse(path.read_text(encoding="utf-8"))


def literal_calls(tree: ast.AST, names: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    """The line and message of each call of one of ``names`` on a string literal in ``tree``."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names
                and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value


def calls_in_fstrings() -> list[tuple[str, int, str]]:
    """``_("...")`` calls inside Python f-strings (``f"## {_('Family Values')}"``), which
    Babel's Python extractor does not look into: read with :mod:`ast`, which does."""
    out: list[tuple[str, int, str]] = []
    for rel, tree in python_sources():
        for fstring in [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)]:
            out.extend((rel, line, message) for line, message in literal_calls(fstring, ("_", "gettext")))
    return out


def event_messages() -> list[Msg]:
    """Every event message the registered games declare: each game package's
    ``messages`` module, found through the registry (importing one fills REGISTRY), so a
    new game's events are extracted with no line here naming it."""
    from gloomtable.games import registry

    for package in dict.fromkeys(e.package for e in registry.entries()):
        module = f"gloomtable.games.{package}.messages"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    return list(REGISTRY)


def gendered_messages() -> list[tuple[str | tuple[str, str], str]]:
    """Messages whose form follows a Character's gender: gendered event messages and
    every :func:`NG_` message, wherever it is written (read from the sources, so a
    module that moves or that nothing here imports still has its lines extracted)."""
    import gloomtable.i18n.chronicle_text  # noqa: F401  (fills GENDERED)

    out: list[tuple[str | tuple[str, str], str]] = []
    for m in event_messages():
        if m.gendered:
            out.append(((m.msgid, m.plural) if m.plural else m.msgid, f"games/{m.game}/messages.py"))
    written = ng_calls()
    out.extend((m, where) for m, where in written.items())
    out.extend((m, "gendered") for m in sorted(GENDERED - written.keys()))
    return out


def ng_calls() -> dict[str, str]:
    """Every ``NG_("...")`` of the package's Python, by message, with the first file
    that writes it. Extraction once imported only the modules it named, and a module
    moved to a game's package took its gendered lines out of the catalogs with it."""
    out: dict[str, str] = {}
    for rel, tree in python_sources():
        for _line, message in literal_calls(tree, ("NG_",)):
            out.setdefault(message, rel)
    return out


def po_file(lang: str) -> Path:
    return PKG / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(lang: str) -> Catalog:
    path = po_file(lang)
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, project="gloomtable", fuzzy=False)
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def update() -> None:
    for lang in LANGUAGES:
        template = extract()  # fresh each time: Catalog.update may share Message objects
        cat = load(lang)
        cat.update(template, no_fuzzy_matching=True)
        cat.obsolete.clear()
        if lang == "en":
            for msg in cat:
                strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
                if msg.id and (msg.fuzzy or not all(strings)
                               or (msg.pluralizable and not isinstance(msg.string, tuple))):
                    msg.string = msg.id
                    msg.flags.discard("fuzzy")
        path = po_file(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        # a file name without its line: an edit elsewhere in the file leaves the catalogs alone
        write_po(buf, cat, width=100, omit_header=False, sort_output=False, include_previous=False,
                 include_lineno=False)
        old = path.read_bytes() if path.exists() else b""
        if _without_dates(old) != _without_dates(buf.getvalue()):  # no churn from the date alone
            path.write_bytes(buf.getvalue())


def _without_dates(po: bytes) -> bytes:
    return b"\n".join(line for line in po.split(b"\n") if not line.startswith(b'"POT-Creation-Date'))


def missing() -> list[str]:
    """``lang: msgid`` for every extracted message some catalog does not translate."""
    template = extract()
    out = []
    for lang in LANGUAGES:
        cat = load(lang)
        nplurals = cat.num_plurals
        for msg in template:
            if not msg.id:
                continue
            have = cat.get(msg.id, context=msg.context)
            strings = () if have is None or have.fuzzy else (
                have.string if isinstance(have.string, tuple) else (have.string,))
            want = nplurals if msg.pluralizable else 1
            if len([s for s in strings if s]) < want:
                out.append(f"{lang}: {msg.id if isinstance(msg.id, str) else msg.id[0]!r}")
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        gaps = missing()
        for g in gaps:
            print(g)
        return 1 if gaps else 0
    update()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
