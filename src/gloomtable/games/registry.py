"""The registry of games: one :class:`GameEntry` per game name, the one place that
tells games apart by name (issue 20). Everything else asks an entry.

An entry gives the game's factory, the plain facts the clients need (title, seats,
options, how it takes card sets) and, for the layers above ``games``, *entry
points*: ``"module:attr"`` strings in the style of Gymnasium's ``register(id,
entry_point=...)``, imported with :mod:`importlib` on first use and cached. So the
games layer names a game's bots, encoder, presenter and texts without importing
them (``tests/test_layers.py`` forbids that, function-body imports included), and
building a game never loads the bots, RL or server code.

To add a game: write its package under ``games/``, a factory ``make(name, config,
decks)``, and one entry in :data:`_ENTRIES` (docs/architecture.md 'Registry')."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from functools import cache
from types import MappingProxyType
from typing import Any, cast

from gloomtable.engine import ConfigError, Game, State

Decks = Mapping[str, Mapping[str, str]]
"""The copies of its decks a record carries (:attr:`GameRecord.decks`)."""
Factory = Callable[[str, dict[str, Any], Decks | None], Game]
"""(name, config, decks) -> the game, with a :class:`ConfigError` on a bad config."""
View = Mapping[str, Any]
Sampler = Callable[[int], State]


def N_(message: str) -> str:
    """Marks a title for message extraction; the clients translate it when shown."""
    return message


@cache
def resolve(target: str) -> Any:
    """The object an entry point ``"package.module:attr.attr"`` names, imported once."""
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True, slots=True)
class GameEntry:
    """What one game gives every layer. Fields ending in entry points are
    ``"module:attr"`` strings, resolved on use (see the module doc)."""

    name: str
    """The name records, the lobby, ``--game`` and views use."""
    title: str
    """The full English title (lobby, OpenSpiel's long name)."""
    short_title: str
    """The name a player reads, a message id (terminal heading, chronicle title)."""
    package: str
    """The ``games/<package>`` holding its rules: its rules reference, lessons and
    search benchmarks are per package (Gloomier plays Gloom's rules)."""
    factory: str
    """Entry point of a :data:`Factory`."""
    players: tuple[int, int]
    """Fewest and most seats."""
    default_players: int
    """Seats when none are asked for (terminal, RL, benchmarks)."""
    options: frozenset[str]
    """Table options besides ``players``, ``sets`` and ``turn_cap`` that it takes."""
    mixes_sets: bool
    """True: ``sets`` lists shipped sets played together (R-H10); False: it names
    exactly one set, shipped or a registered variant."""
    set_ids: str
    """Entry point of ``() -> tuple[str, ...]``: the sets a remote table may name."""
    deck_schema: str
    """Entry point of ``() -> dict``: the JSON Schema of its deck files."""
    bots: str
    """Entry point of ``(level, seed) -> Bot | None`` (``bots/levels.py``)."""
    determinizer: str
    """Entry point of a :class:`Determinizer`-shaped object (``bots/determinize.py``)."""
    narrator: str
    """Entry point of ``(view, action, rng) -> str | None`` (``bots/narration.py``)."""
    encoder: str
    """Entry point of ``(game) -> encoder`` (``rl/encode_*.py``)."""
    aec_env: str
    """Entry point of ``(**options) -> PettingZoo AEC env`` (``rl/*_v0.py``)."""
    presenter: str
    """Entry point of ``(state, action) -> dict``: what the page draws of a choice
    (``server/present.py``)."""
    texts: str
    """Entry point of ``(game, translator) -> localizer`` (``i18n/*_text.py``)."""
    voice: str
    """Entry point of ``(game | None, translator) -> voice``: how the game's event
    messages say their arguments (``i18n/*_text.py``, read by ``i18n/events.py``)."""
    lesson_matcher: str
    """Entry point of ``(state, expect) -> (action -> bool)``: what a lesson step asks
    for at this game's table (``learn/guide.py``)."""
    hidden_piles: tuple[str, ...] = ()
    """State fields holding cards no player sees, besides other hands (a search
    deals them anew: ``rl/resample.py``)."""
    sorted_zones: frozenset[str] = frozenset()
    """Of ``hands`` and :attr:`hidden_piles`, those the state keeps sorted."""
    rules_pictures: str | None = None
    """Entry point of ``(translator) -> str`` drawn under the rules reference, or None."""
    defaults: Mapping[str, Any] = field(default_factory=dict)
    """Config keys this name sets when the config does not (Gloomier: its set)."""
    tells_stories: bool = False
    """A player may tell how a play happened (Gloom's storytelling)."""
    lobby_players: int = 3
    """Seats the lobby form starts at."""
    lobby_options: tuple[Mapping[str, Any], ...] = ()
    """The lobby form's option fields (key, kind, label, values, default)."""
    spiel_params: Mapping[str, Any] = field(default_factory=dict)
    """OpenSpiel parameters and their defaults (``rl/spiel.py``)."""

    def entry_points(self) -> dict[str, str]:
        """Field name -> entry point, for every entry point this entry names."""
        points = {f.name: getattr(self, f.name) for f in fields(self)
                  if f.name in _ENTRY_POINTS}
        return {k: v for k, v in points.items() if v is not None}

    def make(self, config: dict[str, Any] | None = None, decks: Decks | None = None) -> Game:
        """The game from a plain config dict (as stored in records)."""
        factory = cast(Factory, resolve(self.factory))
        return factory(self.name, {**self.defaults, **(config or {})}, decks)

    def bot(self, level: str, seed: int) -> Any:
        """The bot of ``level`` (not ``random``), or None for a level it lacks."""
        return resolve(self.bots)(level, seed)

    def sampler(self, view: View) -> Sampler | None:
        """Builds states consistent with ``view`` (None: this position cannot be)."""
        return cast(Sampler | None, resolve(self.determinizer).sampler(view))

    def view_config(self, view: View) -> dict[str, Any]:
        """The config of the game ``view`` is from, as far as the view shows it."""
        return cast(dict[str, Any], resolve(self.determinizer).config(view))

    def narrate(self, view: View, action: int, rng: Any) -> str | None:
        return cast(str | None, resolve(self.narrator)(view, action, rng))

    def encoder_for(self, game: Game) -> Any:
        return resolve(self.encoder)(game)

    def aec(self, **options: Any) -> Any:
        return resolve(self.aec_env)(**options)

    def present(self, state: State, action: int) -> dict[str, Any]:
        return cast(dict[str, Any], resolve(self.presenter)(state, action))

    def localizer(self, game: Game, translator: Any) -> Any:
        return resolve(self.texts)(game, translator)

    def voice_for(self, game: Game | None, translator: Any) -> Any:
        return resolve(self.voice)(game, translator)

    def lesson_match(self, state: State, expect: Any) -> Callable[[int], bool]:
        return cast(Callable[[int], bool], resolve(self.lesson_matcher)(state, expect))

    def sets(self) -> tuple[str, ...]:
        return cast(tuple[str, ...], tuple(resolve(self.set_ids)()))

    def schema(self) -> dict[str, Any]:
        return cast(dict[str, Any], resolve(self.deck_schema)())


_ENTRY_POINTS = frozenset({"factory", "set_ids", "deck_schema", "bots", "determinizer", "narrator",
                           "encoder", "aec_env", "presenter", "texts", "voice", "rules_pictures",
                           "lesson_matcher"})

_EDITION_BEGINNER: tuple[Mapping[str, Any], ...] = (
    {"key": "edition", "kind": "choice", "label": "Edition", "values": [2, 1], "default": 2},
    {"key": "beginner", "kind": "bool", "label": "Beginner (no card effects)", "default": False})

_GLOOM = GameEntry(
    name="gloom", title="Gloom", short_title=N_("Gloom"), package="gloom",
    factory="gloomtable.games.gloom.game:make", players=(2, 5), default_players=4,
    options=frozenset({"edition", "beginner", "tiebreak", "first_player", "setup", "draft_size",
                       "stories_guests"}),
    mixes_sets=True, set_ids="gloomtable.games.gloom.deck:shipped_sets",
    deck_schema="gloomtable.games.gloom.deck:json_schema",
    bots="gloomtable.bots.levels:gloom_bot",
    determinizer="gloomtable.bots.determinize:GLOOM",
    narrator="gloomtable.bots.narration:narrate_gloom",
    encoder="gloomtable.rl.encode_gloom:encoder_for",
    aec_env="gloomtable.rl.gloom_v0:raw_env",
    presenter="gloomtable.server.present:codec_choice",
    texts="gloomtable.i18n.gloom_text:GloomLocalizer",
    voice="gloomtable.i18n.gloom_text:GloomVoice",
    lesson_matcher="gloomtable.learn.guide:gloom_matcher",
    rules_pictures="gloomtable.i18n.rules_pictures:stack_examples",
    hidden_piles=("draw_pile",), tells_stories=True,
    lobby_options=({"key": "sets", "kind": "sets"}, *_EDITION_BEGINNER),
    spiel_params={"players": 4, "sets": "classic", "edition": 2, "beginner": False,
                  "turn_cap": 500})

_ENTRIES: dict[str, GameEntry] = {e.name: e for e in (
    _GLOOM,
    replace(  # Gloom with the Gloomier set (R-H1..R-H10)
        _GLOOM, name="gloomier", title="Gloomier: A Night at Hemlock Hall",
        short_title=N_("Gloomier"), aec_env="gloomtable.rl.gloomier_v0:raw_env",
        defaults=MappingProxyType({"sets": ("gloomier",)}),
        lobby_options=({"key": "stories_guests", "kind": "choice",
                        "label": "Stories and Guests in the middle", "values": [2, 1, 0], "default": 2},
                       *_EDITION_BEGINNER),
        spiel_params={"players": 4, "sets": "gloomier", "stories_guests": 2, "turn_cap": 500}),
    GameEntry(
        name="creatures", title="Crazy Creatures of Dr. Gloom", short_title=N_("Crazy Creatures"),
        package="creatures", factory="gloomtable.games.creatures.game:make",
        players=(2, 4), default_players=3, options=frozenset({"rounds", "first_player"}),
        mixes_sets=False, set_ids="gloomtable.games.creatures.cards:registered_sets",
        hidden_piles=("reserve", "aside"), sorted_zones=frozenset({"hands", "aside"}),
        deck_schema="gloomtable.games.creatures.cards:json_schema",
        bots="gloomtable.bots.levels:creatures_bot",
        determinizer="gloomtable.bots.determinize:CREATURES",
        narrator="gloomtable.bots.narration:narrate_creatures",
        encoder="gloomtable.rl.encode_creatures:encoder_for",
        aec_env="gloomtable.rl.creatures_v0:raw_env",
        presenter="gloomtable.server.present:creatures_choice",
        texts="gloomtable.i18n.creatures_text:CreaturesLocalizer",
        voice="gloomtable.i18n.creatures_text:CreaturesVoice",
        lesson_matcher="gloomtable.learn.guide:creatures_matcher",
        spiel_params={"players": 3, "rounds": 0, "turn_cap": 2000, "sets": "creatures"}),
)}


def names() -> tuple[str, ...]:
    """Every registered game name, in registration order."""
    return tuple(_ENTRIES)


def entries() -> tuple[GameEntry, ...]:
    return tuple(_ENTRIES.values())


def find(name: object) -> GameEntry | None:
    """The entry of ``name``, or None (a view or a client may name anything)."""
    return _ENTRIES.get(name) if isinstance(name, str) else None


def title_of(name: str) -> str:
    """The full title of ``name`` (a game built outside the registry: its name)."""
    found = find(name)
    return name if found is None else found.title


def entry(name: str) -> GameEntry:
    """The entry of ``name``; :class:`ConfigError` naming the known games if none."""
    found = find(name)
    if found is None:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(_ENTRIES)}")
    return found


@contextmanager
def registered(new: GameEntry) -> Iterator[GameEntry]:
    """``new`` registered for the ``with`` block (a plug-in game, a test's game)."""
    if new.name in _ENTRIES:
        raise ValueError(f"a game named {new.name!r} is registered already")
    _ENTRIES[new.name] = new
    try:
        yield new
    finally:
        del _ENTRIES[new.name]
