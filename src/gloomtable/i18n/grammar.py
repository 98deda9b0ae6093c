"""Grammatical forms of the names a line puts in: cases of a Character's name, the
forms a seat takes after a preposition.

A template asks for a form with a format spec: ``{char:gen}`` is the Character in the
genitive (Russian ``gen``, ``dat``, ``acc``, ``ins``, ``pre``), ``{victim:a}`` the seat
after Spanish "a" ("al jugador 3"). A value that can take forms is a :class:`Forms`,
a ``str`` whose ``__format__`` picks the form; a value with no such form is said in
its plain form, so a template never breaks on a name the deck gives no forms for.

Where the forms come from: a Character's or Guest's ``cases`` table in the deck's
translation file (``[cards.<id>.cases]``), else for Russian a proposal by ``pymorphy3``
(the ``morph`` extra) when it is installed, else the plain name; a seat's from
``locale/<lang>/grammar.toml``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from gloomtable.engine.textdata import load_toml

RU_CASES = ("gen", "dat", "acc", "ins", "pre")
"""Russian cases a template may ask for (nominative is the plain name)."""
ES_FORMS = ("a", "de", "low", "cap", "art")
"""Spanish forms of a seat: after "a" (al jugador 3), after "de" (del jugador 3), inside
a sentence (el jugador 3) and at its start (El jugador 3); a person's ``a`` is the name
as an object ("a Melissa Slogar"), a card's title takes none."""
SPECS = frozenset(RU_CASES + ES_FORMS)


class Forms(str):
    """A name with its grammatical forms; ``format(name, "gen")`` gives one."""

    forms: dict[str, str]
    person: bool
    """A person's name, whose apposition ("Крауч, лакей") a sentence closes with a comma."""

    def __new__(cls, plain: str, forms: dict[str, str] | None = None, person: bool = False) -> Forms:
        made = super().__new__(cls, plain)
        made.forms = dict(forms or {})
        made.person = person
        return made

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        if spec in self.forms:
            return self.forms[spec]
        if spec in SPECS:
            return str(self)
        return format(str(self), spec)

    @classmethod
    def of(cls, value: str) -> Forms:
        """``value`` as it is if it has forms, else with none."""
        return value if isinstance(value, Forms) else cls(value)

    def with_tail(self, tail: str) -> Forms:
        """The same name followed by ``tail`` (a choice's "(+3, player 2)") in every form."""
        return Forms(str(self) + tail, {k: v + tail for k, v in self.forms.items()}, self.person)


@cache
def locale_data(lang: str) -> dict[str, Any]:
    """``locale/<lang>/grammar.toml`` (``{}`` when the language has none)."""
    where = resources.files("gloomtable").joinpath("locale", lang, "grammar.toml")
    if not where.is_file():
        return {}
    return load_toml(where.read_text(encoding="utf-8"))


def seat(lang: str, plain: str, n: int | None) -> Forms:
    """A seat as the subject ``plain`` ("Игрок 3"; ``n`` is 1-based, ``None`` for
    someone unknown) with its forms from the language's grammar data."""
    data = locale_data(lang)
    table = data.get("seat" if n is not None else "someone", {})
    return Forms(plain, {k: str(v).format(n=n) for k, v in table.items() if isinstance(v, str)})


def close_appositions(text: str, values: Any) -> str:
    """``text`` with the comma that closes a name's apposition where the sentence goes on
    ("Крауч, лакей, умирает", "Hettie, la fregona, vuelve"): a name such as "Крауч, лакей"
    reads whole at the end of a line or before a bracket, but mid-sentence it needs it."""
    for value in values:
        if not isinstance(value, Forms) or not value.person or ", " not in value:
            continue
        said = {str(value), *value.forms.values()}
        for form in sorted(said, key=len, reverse=True):
            if ", " in form:
                text = re.sub(re.escape(form) + r"(?= [\w«])", lambda m: m.group(0) + ",", text)
    return text


def spanish_person(name: str) -> dict[str, str]:
    """A Spanish person's forms: ``art`` inside a sentence, ``cap`` at its start, ``a``
    and ``de`` after those prepositions; a name that starts with a title of
    ``grammar.toml`` takes its article ("al reverendo Amos Threnody"), any other none."""
    first, _, rest = name.partition(" ")
    article = locale_data("es").get("titles", {}).get(first.lower()) if rest else None
    if not isinstance(article, str):
        return {"a": f"a {name}", "de": f"de {name}", "art": name, "cap": name}
    inside = f"{first.lower()} {rest}"
    return {"art": f"{article} {inside}", "cap": f"{article.capitalize()} {inside}",
            "a": f"al {inside}" if article == "el" else f"a {article} {inside}",
            "de": f"del {inside}" if article == "el" else f"de {article} {inside}"}


def seats_list(tr: Any, seats: Any) -> Forms:
    """Seats (0-based) as a list a reader says: "player 1, player 2 and player 4", with
    every form of the language's seat forms ("{names:gen}" -> "игрока 1 и игрока 3")."""
    table = locale_data(tr.lang).get("seat", {})
    and_ = tr.gettext(" and ")

    def join(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + and_ + items[-1]

    seats = list(seats) or [None]
    plain = join([tr.player(s) if s is not None else "—" for s in seats])
    forms = {spec: join([str(form).format(n=s + 1) for s in seats if s is not None])
             for spec, form in table.items() if isinstance(form, str) and None not in seats}
    return Forms(plain, forms)


def and_list(tr: Any, names: list[Forms]) -> Forms:
    """Names joined as a reader lists them ("A, B and C"), in every form all of them
    have ("{who:de}" -> "del jugador 1 y de Ana")."""
    and_ = tr.gettext(" and ")

    def join(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + and_ + items[-1]

    specs = set.intersection(*(set(n.forms) for n in names)) if names else set()
    return Forms(join([str(n) for n in names]), {s: join([n.forms[s] for n in names]) for s in specs})


_PYMORPHY_CASE = {"gen": "gent", "dat": "datv", "acc": "accs", "ins": "ablt", "pre": "loct"}


@lru_cache(maxsize=1)
def _morph() -> Any:
    try:
        import pymorphy3
    except ImportError:
        return None
    return pymorphy3.MorphAnalyzer()


def _inflect_word(morph: Any, word: str, gender: str, case: str) -> str:
    core = word.rstrip(",.")
    tail = word[len(core):]
    if not core[:1].isalpha():
        return word
    want = {"feminine": "femn", "masculine": "masc"}.get(gender)
    for parse in morph.parse(core):
        tag = parse.tag
        if tag.POS not in ("NOUN", "ADJF", "PRTF") or tag.case != "nomn":
            continue
        if gender == "plural" or tag.gender != want:
            continue
        if case == "acc" and gender == "masculine" and not core.endswith(("а", "я")):
            case = "gen"  # a man is animate: his accusative is his genitive (not "дядюшка")
        made = parse.inflect({_PYMORPHY_CASE[case]})
        if made is None:
            break
        out = str(made.word)
        if "ё" not in core.lower():
            out = out.replace("ё", "е")
        if core[:1].isupper():
            out = out[:1].upper() + out[1:]
        return out + tail
    return word


def propose_ru(name: str, gender: str) -> dict[str, str]:
    """Russian cases of a person's ``name`` proposed by pymorphy3 (``{}`` without it):
    each word that reads as a noun or adjective of the person's gender is declined
    ("Лорд Слогар" -> "Лорда Слогара"), the rest kept ("Мелисса Слогар" -> "Мелиссы
    Слогар"); a man's accusative is his genitive (animate) except for words in -а/-я.
    A deck's own ``cases`` win over these; they are a proposal, checked by a reader."""
    morph = _morph()
    if morph is None or gender == "plural":
        return {}
    out: dict[str, str] = {}
    for case in RU_CASES:
        words = []
        for word in name.split(" "):
            words.append("-".join(_inflect_word(morph, part, gender, case) for part in word.split("-")))
        out[case] = " ".join(words)
    return out
