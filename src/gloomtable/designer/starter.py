"""``gloom deck new NAME``: a small deck that is valid and playable at once.

Two families of three, so two players can try it alone, and card ids prefixed
with the deck's own id, so it mixes with the shipped sets without clashes.
Each card shows one feature of the format the guide (docs/decks.md) explains.
"""

from __future__ import annotations

import re
from pathlib import Path

from gloomtable.engine import GloomtableError


class StarterError(GloomtableError, ValueError):
    """The starter deck cannot be written (bad name, or the file exists)."""


def slug(name: str) -> str:
    """A deck id from a free-form name: lower case, letters, digits and dashes."""
    s = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    if not s or not s[0].isalnum():
        raise StarterError(f"cannot make a deck id from {name!r}: use some letters or digits")
    return s[:40]


_TEMPLATE = '''\
# {title}: a starter Gloom deck written by `gloom deck new`.
#
# Check it:      gloom deck check {file}
# See it:        gloom deck gallery {file}
# Balance it:    gloom balance {file} --players 2 --games 200 --out report.html
# Mix it in:     gloom balance classic {file} --players 4 --games 200 --out mixed.html
# The format is explained in docs/decks.md.

[set]
id = "{id}"
name = "{title}"
description = "A starter deck: two families of three and a handful of misfortunes."
icons = ["umbrella"]            # icons this deck adds to the built-in ones
components = {{ characters = 6, modifiers = 12, events = 3, untimely_deaths = 6, families = 2 }}

[[families]]
id = "{id}-puddleby"
name = "The Puddlebys"
flavour = "They moved to the coast for the air, and the air has not forgiven them."

[[families]]
id = "{id}-grimsditch"
name = "The Grimsditch Twelve"
flavour = "Once there were twelve. The family portrait has been repainted four times."

# Characters print nothing but a portrait: a new Character has Self-Worth 0.
[[characters]]
id = "{id}-aunt-drizzle"
name = "Aunt Drizzle"
family = "{id}-puddleby"

[[characters]]
id = "{id}-cornelius-puddleby"
name = "Cornelius Puddleby"
family = "{id}-puddleby"

[[characters]]
id = "{id}-little-mildew"
name = "Little Mildew"
family = "{id}-puddleby"

[[characters]]
id = "{id}-widow-grimsditch"
name = "Widow Grimsditch"
family = "{id}-grimsditch"

[[characters]]
id = "{id}-bartleby-grimsditch"
name = "Bartleby Grimsditch"
family = "{id}-grimsditch"

[[characters]]
id = "{id}-the-lodger"
name = "The Lodger"
family = "{id}-grimsditch"

# Modifiers: points on the left edge, icons on the right; omitted slots are
# see-through, so the card below shows there.
[[modifiers]]
id = "{id}-was-rained-on"
name = "Was Rained On"
points = {{ top = -10 }}
icons = {{ top = "umbrella" }}

[[modifiers]]
id = "{id}-lost-an-umbrella"
name = "Lost an Umbrella"
points = {{ middle = -10 }}
icons = {{ middle = "umbrella", bottom = "blank" }}   # "blank" hides the icon below
text = "Draw a card."
effects = [ {{ when = "immediate", do = [ {{ draw = 1 }} ] }} ]

[[modifiers]]
id = "{id}-fell-in-the-harbour"
name = "Fell in the Harbour"
points = {{ top = -15, bottom = -5 }}
icons = {{ bottom = "beast" }}

[[modifiers]]
id = "{id}-owed-the-fishmonger"
name = "Owed the Fishmonger"
points = {{ middle = -15 }}
icons = {{ top = "lucre" }}

[[modifiers]]
id = "{id}-haunted-by-a-gull"
name = "Haunted by a Gull"
points = {{ bottom = -10 }}
icons = {{ middle = "death" }}
text = "While this text shows, your draw limit is one lower."
effects = [ {{ when = "continuous", do = [ {{ draw_limit = -1 }} ] }} ]

[[modifiers]]
id = "{id}-ate-the-chowder"
name = "Ate the Chowder"
points = {{ top = -5, middle = -5 }}
icons = {{ top = "goblet" }}
text = "Draw a card. If this Character showed a goblet, draw two more."
effects = [ {{ when = "immediate", do = [
  {{ draw = 1 }},
  {{ if_icon = "goblet", do = [ {{ draw = 2 }} ] }},
] }} ]

[[modifiers]]
id = "{id}-mocked-by-sailors"
name = "Mocked by Sailors"
points = {{ top = -10, middle = -5, bottom = -5 }}
icons = {{ middle = "duck" }}

[[modifiers]]
id = "{id}-wept-at-the-pier"
name = "Wept at the Pier"
points = {{ bottom = -15 }}
icons = {{ bottom = "romance" }}
text = "You may play an Untimely Death as a free play this turn."
effects = [ {{ when = "immediate", do = [ {{ free_play = "untimely_death" }} ] }} ]

[[modifiers]]
id = "{id}-dried-out-nicely"
name = "Dried Out Nicely"
points = {{ top = 10 }}
icons = {{ top = "blank" }}

[[modifiers]]
id = "{id}-lost-the-regatta"
name = "Lost the Regatta"
points = {{ middle = -5 }}
icons = {{ middle = "lucre" }}

[[modifiers]]
id = "{id}-lost-the-sunny-spot"
name = "Lost the Sunny Spot"
points = {{ bottom = -5 }}
text = "Take the top Modifier of a living Character into your hand."
effects = [ {{ when = "immediate", do = [ {{ return_modifier = "you" }} ] }} ]

[[modifiers]]
id = "{id}-married-a-lighthouse-keeper"
name = "Married a Lighthouse Keeper"
points = {{ top = 5, middle = 5 }}
icons = {{ top = "romance" }}
persistent_icon = true          # holds while its persistent icon shows
text = "While the lamp is lit, your draw limit is one higher."
effects = [ {{ when = "persistent", do = [ {{ draw_limit = 1 }} ] }} ]

# Events are played, resolved by their player and discarded.
[[events]]
id = "{id}-low-tide"
name = "Low Tide"
text = "Draw two cards, then discard one."
effects = [ {{ when = "immediate", do = [ {{ draw = 2 }}, {{ discard = 1 }} ] }} ]

[[events]]
id = "{id}-the-storm-breaks"
name = "The Storm Breaks"
text = "Every other player draws a card."
effects = [ {{ when = "immediate", do = [ {{ each_other_player_draws = 1 }} ] }} ]

[[events]]
id = "{id}-not-today"
name = "Not Today"
text = "Play on another player's turn: cancel an Untimely Death as it is played."
effects = [ {{ when = "response", do = [ {{ cancel = "untimely_death" }} ] }} ]

# Untimely Deaths: played first in a turn on a Character below zero.
[[untimely_deaths]]
id = "{id}-washed-out-to-sea"
name = "Was Washed Out to Sea"

[[untimely_deaths]]
id = "{id}-struck-by-a-mast"
name = "Was Struck by a Mast"

[[untimely_deaths]]
id = "{id}-drowned-in-a-puddle"
name = "Drowned in a Puddle"
points = {{ top = -5 }}          # a sorrier death: its visible points count too

[[untimely_deaths]]
id = "{id}-fell-off-the-pier"
name = "Fell off the Pier"

[[untimely_deaths]]
id = "{id}-caught-a-chill"
name = "Caught a Dreadful Chill"

[[untimely_deaths]]
id = "{id}-died-content"
name = "Died Content by the Fire"
points = {{ bottom = 5 }}          # a happy death: good for the family, bad for the score
'''


def starter_toml(name: str) -> str:
    """The text of a starter deck called ``name``."""
    sid = slug(name)
    title = " ".join(name.split()) or sid
    if '"' in title or "\\" in title:
        raise StarterError(f"the deck name {name!r} may not contain quotes or backslashes")
    return _TEMPLATE.format(id=sid, title=title, file=f"{sid}.toml")


def write_starter(name: str, directory: Path | None = None, force: bool = False) -> Path:
    """Write ``<id>.toml`` into ``directory`` (default: here) and return its path.
    An existing file is kept unless ``force``, so a designer's work is never lost."""
    text = starter_toml(name)
    path = (directory or Path(".")) / f"{slug(name)}.toml"
    if path.exists() and not force:
        raise StarterError(f"{path} already exists; choose another name or pass --force")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise StarterError(f"cannot write {path}: {exc.strerror}") from None
    return path
