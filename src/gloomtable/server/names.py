"""Seat names that cannot pass for someone else (issue 29, row 9).

A person may name their seat anything printable, except a name that reads as
another seat's (the same letters, another case, or look-alikes from another
script: Cyrillic "Веа" for "Bea") or as what the page writes for a bot ("Bot 3
(hard)", "Bea's stand-in bot"). Look-alikes are found with Unicode's confusables
table (the ``confusable_homoglyphs`` package): each name is reduced to a
*skeleton* (compatibility-decomposed, accents dropped, every confusable letter
replaced by its Latin twin, case folded, spaces and punctuation gone), and two
names with one skeleton are one name.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs import confusables

from gloomtable.server.errors import ServerError

_LATIN_TWINS = str.maketrans({"1": "l", "i": "l", "|": "l", "0": "o", "5": "s"})
"""Latin and digit look-alikes the confusables table leaves alone (it maps other scripts)."""
BOT_WORDS = re.compile(r"\b(bots?|robots?|stand.?ins?|standins?)\b")
"""Words that make a name read as the server's bot label, looked for in the name's
folded letters with the same twins (a person is never shown as a bot)."""


@functools.lru_cache(maxsize=4096)
def _letter(ch: str) -> str:
    """One character's Latin twin (itself when it has none)."""
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin", "common"])
    if found and found[0]["homoglyphs"]:
        return str(found[0]["homoglyphs"][0]["c"])
    return ch


def _folded(name: str) -> str:
    text = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    return "".join(_letter(ch) for ch in text).casefold().translate(_LATIN_TWINS)


def skeleton(name: str) -> str:
    """What a name looks like: two names with one skeleton are taken for one."""
    return "".join(ch for ch in _folded(name) if ch.isalnum())


def check_seat_name(name: str, others: Iterable[str], where: str = "the name") -> None:
    """Refuse (``bad_name``) a person's seat name that reads as one of ``others`` (the
    table's other seats' names) or as a bot's label."""
    folded = _folded(name)
    if BOT_WORDS.search(folded) or BOT_WORDS.search(re.sub(r"[^a-z0-9]+", " ", folded)):
        raise ServerError("bad_name", f"{where} {name!r} reads as a bot's label; a person's name "
                          "may not say bot or stand-in")
    mine = skeleton(name)
    for other in others:
        if mine and mine == skeleton(other):
            same = "is" if name == other else "looks like"
            raise ServerError("bad_name", f"{where} {name!r} {same} the name of another seat "
                              f"({other!r}); choose one that nobody else at the table has")
