"""Recognising the English texts that are still stored or offered as text: the choices'
texts (``action_to_string``) and bots' narration lines kept in records.

Events never come here: they are messages with typed arguments, rendered by
``gloomtable.i18n.events``. An action text or a stored bot line is matched against its
template (the template is also the gettext msgid of its translation) and its
placeholders are re-rendered in the reader's language. A text no template matches is
shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from gloomtable.i18n.catalog import Translator
from gloomtable.i18n.markers import GENDER_CONTEXTS


@dataclass(frozen=True)
class Template:
    """One engine text shape. ``plural`` names the count placeholder of a plural pair.

    ``subject`` names the placeholder of the Character the line is about: card names in
    the line agree with that Character's gender, and a ``gendered`` line picks its
    catalogue entry by context (``pgettext``) from that gender."""

    msgid: str
    plural: str | None = None
    count: str | None = None
    subject: str | None = None
    gendered: bool = False

    @property
    def english(self) -> str:
        """The form the engine prints (plural shapes always print the plural)."""
        return self.plural or self.msgid


def T(msg: str | tuple[str, str], count: str | None = None, subject: str | None = None,
      gendered: bool = False) -> Template:
    if isinstance(msg, tuple):
        return Template(msg[0], msg[1], count, subject, gendered)
    return Template(msg, subject=subject, gendered=gendered)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Formatter:
    """Recognises English texts by template and re-renders them through ``tr``.

    ``kinds`` maps a placeholder name to (regex, converter): the regex recognises
    the English value, the converter gives it in the reader's language. ``agree`` maps
    a kind to a converter that also takes the subject's gender (card names that inflect);
    ``gender_of`` tells the gender of a subject from its English value."""

    def __init__(self, tr: Translator, templates: Iterable[Template],
                 kinds: Mapping[str, tuple[str, Callable[[str], str]]],
                 agree: Mapping[str, Callable[[str, str | None], str]] | None = None,
                 gender_of: Callable[[str], str | None] | None = None) -> None:
        self.tr = tr
        self.kinds = kinds
        self.agree = agree or {}
        self.gender_of = gender_of
        self.compiled: list[tuple[re.Pattern[str], Template, list[str]]] = []
        for t in templates:
            names: list[str] = []
            parts: list[str] = []
            pos = 0
            for m in _PLACEHOLDER.finditer(t.english):
                parts.append(re.escape(t.english[pos:m.start()]))
                name = m.group(1)
                pos = m.end()
                if name in names:  # the same value again ("{char} ... {char}")
                    parts.append(f"(?P={name})")
                    continue
                names.append(name)
                regex = kinds[name.rstrip("0123456789")][0]
                parts.append(f"(?P<{name}>{regex})")
            parts.append(re.escape(t.english[pos:]))
            self.compiled.append((re.compile("".join(parts) + r"\Z"), t, names))

    def match(self, text: str) -> tuple[Template, dict[str, str]] | None:
        for rx, t, names in self.compiled:
            m = rx.match(text)
            if m:
                return t, {n: m.group(n) for n in names}
        return None

    def format(self, text: str) -> str:
        """``text`` in the reader's language; unchanged if no template knows it."""
        found = self.match(text)
        if found is None:
            return text
        t, values = found
        gender = None
        if t.subject is not None and self.gender_of is not None:
            gender = self.gender_of(values[t.subject])
        out = {}
        for n, v in values.items():
            kind = n.rstrip("0123456789")
            out[n] = self.agree[kind](v, gender) if kind in self.agree else self.kinds[kind][1](v)
        context = gender if t.gendered and gender in GENDER_CONTEXTS else None
        if t.plural is not None and t.count is not None:
            pattern = self.tr.ngendered(context, t.msgid, t.plural, int(values[t.count]))
        else:
            pattern = self.tr.gendered(context, t.msgid)
        return pattern.format(**out)


def alternation(names: Iterable[str]) -> str:
    """A regex matching exactly one of ``names`` (longest first, so none shadows another)."""
    uniq = sorted(set(names), key=len, reverse=True)
    return "|".join(re.escape(n) for n in uniq) if uniq else r"(?!)"


def player_list(tr: Translator) -> Callable[[str], str]:
    """"player 1 and player 3" / "player 1, player 2" in the reader's language."""
    and_ = tr.gettext(" and ")

    def convert(text: str) -> str:
        out = re.sub(r"player (\d+)", lambda m: tr.player(int(m.group(1)) - 1), text)
        return out.replace(" and ", and_)
    return convert


INT = r"[+-]?\d+"
