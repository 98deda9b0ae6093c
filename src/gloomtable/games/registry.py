"""The registry of games: one :class:`GameEntry` per game name, the one place that
tells games apart by name (issue 20). Everything else asks an entry.

An entry gives the game's factory, the plain facts the clients need (title, seats,
options, how it takes card sets) and, for the layers above ``games``, its *hooks*:
each a :class:`Hook` typed by a Protocol of ``engine/hooks.py`` (issue 33). A game
whose parts all live in its own package gives them directly (``Hook.of(part)``, as
``games/kuhn`` does); the shipped games' bots, encoders and texts live in the layers
above, which this layer may not import (``tests/test_layers.py``, function-body
imports included), so their hooks name them (``Hook.named(module, attr, Protocol)``),
are imported on first use, and are checked against their Protocol when loaded.
Building a game never loads the bots, RL or server code.

A game package under ``games/`` that is not one of the shipped ones registers itself:
its ``entry`` module's ``ENTRIES`` (a tuple of :class:`GameEntry`) are added after the
shipped games, in package order (docs/architecture.md 'How to add a game')."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, TypeVar, cast

from gloomtable.engine import ConfigError, Game, Rng, State
from gloomtable.engine.hooks import (
    Bot,
    BotFactory,
    Determinizer,
    Encoder,
    EncoderFactory,
    LessonExpect,
    LessonMatcher,
    Narrator,
    Presenter,
    Sampler,
    Texts,
    TextsFactory,
    Translating,
    View,
    Voice,
    VoiceFactory,
)

Decks = Mapping[str, Mapping[str, str]]
"""The copies of its decks a record carries (:attr:`GameRecord.decks`)."""
Factory = Callable[[str, dict[str, Any], Decks | None], Game]
"""(name, config, decks) -> the game, with a :class:`ConfigError` on a bad config."""
SetIds = Callable[[], tuple[str, ...]]
"""() -> the sets a remote table may name."""
DeckSchema = Callable[[], dict[str, Any]]
"""() -> the JSON Schema of the game's deck files."""
RulesPictures = Callable[[Translating], str]
"""(translator) -> what the rules reference draws under its text."""

T = TypeVar("T")


def N_(message: str) -> str:
    """Marks a title for message extraction; the clients translate it when shown."""
    return message


class Hook(Generic[T]):
    """One part of a game for an upper layer, typed by what it must be (``T``), and
    loaded once on first use (the loader runs at most once per hook)."""

    __slots__ = ("_load", "_loaded", "where")

    def __init__(self, load: Callable[[], T], where: str) -> None:
        self._load = load
        self._loaded: list[T] = []
        self.where = where
        """Where the part is, for messages (``module:attr``)."""

    @classmethod
    def of(cls, part: T) -> Hook[T]:
        """A part the game's own package gives (no import to defer)."""
        where = f"{getattr(part, '__module__', '?')}:{getattr(part, '__qualname__', type(part).__name__)}"
        return cls(lambda: part, where)

    @classmethod
    def named(cls, module: str, attr: str, kind: type[Any] | None = None) -> Hook[T]:
        """A part an upper layer holds, imported on first use and checked: an instance
        of ``kind`` (a runtime-checkable Protocol) if given, else a callable."""

        def load() -> T:
            part: object = getattr(importlib.import_module(module), attr)
            ok = isinstance(part, kind) if kind is not None else callable(part)
            if not ok:
                raise TypeError(f"{module}:{attr} is not a {kind.__name__ if kind else 'callable'}")
            return cast(T, part)

        return cls(load, f"{module}:{attr}")

    def get(self) -> T:
        if not self._loaded:
            self._loaded.append(self._load())
        return self._loaded[0]

    def __repr__(self) -> str:
        return f"Hook({self.where})"


@dataclass(frozen=True, slots=True)
class GameEntry:
    """What one game gives every layer. Fields typed :class:`Hook` are its parts for
    the layers above (see the module doc); ``None``: the game has no such part."""

    name: str
    """The name records, the lobby, ``--game`` and views use."""
    title: str
    """The full English title (lobby, table page, OpenSpiel's long name), a message id."""
    short_title: str
    """The name a player reads, a message id (terminal heading, chronicle title)."""
    package: str
    """The ``games/<package>`` holding its rules: its rules reference, lessons, search
    benchmarks and the page's board are per package (Gloomier plays Gloom's rules)."""
    factory: Hook[Factory]
    players: tuple[int, int]
    """Fewest and most seats."""
    default_players: int
    """Seats when none are asked for (terminal, RL, benchmarks)."""
    options: frozenset[str]
    """Table options besides ``players``, ``sets`` and ``turn_cap`` that it takes."""
    mixes_sets: bool
    """True: ``sets`` lists shipped sets played together (R-H10); False: it names
    exactly one set, shipped or a registered variant."""
    set_ids: Hook[SetIds]
    """The sets a remote table may name."""
    deck_schema: Hook[DeckSchema]
    """The JSON Schema of its deck files."""
    bots: Hook[BotFactory]
    """Its bots by level (``bots/levels.py`` for the shipped games)."""
    determinizer: Hook[Determinizer]
    """Sampled states from a view, for search (the game's own ``determinize.py``)."""
    narrator: Hook[Narrator]
    """A bot's told line about a play (``bots/narration.py``)."""
    encoder: Hook[EncoderFactory]
    """The RL observation (``rl/encode_*.py``)."""
    presenter: Hook[Presenter]
    """What the page draws of a choice."""
    texts: Hook[TextsFactory]
    """Its actions and table in one language (``i18n/*_text.py``)."""
    voice: Hook[VoiceFactory]
    """How its event messages say their arguments (``i18n/*_text.py``, read by
    ``i18n/events.py``)."""
    lesson_matcher: Hook[LessonMatcher] | None = None
    """What a lesson step asks for at its table (``learn/guide.py``); None: no lessons."""
    hidden_piles: tuple[str, ...] = ()
    """State fields holding cards no player sees, besides other hands (a search
    deals them anew: ``games/resample.py``)."""
    sorted_zones: frozenset[str] = frozenset()
    """Of ``hands`` and :attr:`hidden_piles`, those the state keeps sorted."""
    rules_pictures: Hook[RulesPictures] | None = None
    """Drawn under the rules reference, or None."""
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

    @property
    def env_id(self) -> str:
        """Its Gymnasium id (``gloomtable/<env_id>``) and PettingZoo name stem."""
        return f"{self.name.capitalize()}-v0"

    def hooks(self) -> dict[str, Hook[Any]]:
        """Field name -> hook, for every part this entry gives."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: v for k, v in found.items() if isinstance(v, Hook)}

    def make(self, config: dict[str, Any] | None = None, decks: Decks | None = None) -> Game:
        """The game from a plain config dict (as stored in records)."""
        return self.factory.get()(self.name, {**self.defaults, **(config or {})}, decks)

    def bot(self, level: str, seed: int) -> Bot | None:
        """The bot of ``level`` (not ``random``), or None for a level it lacks."""
        return self.bots.get()(level, seed)

    def sampler(self, view: View) -> Sampler | None:
        """Builds states consistent with ``view`` (None: this position cannot be)."""
        return self.determinizer.get().sampler(view)

    def view_config(self, view: View) -> dict[str, Any]:
        """The config of the game ``view`` is from, as far as the view shows it."""
        return self.determinizer.get().config(view)

    def narrate(self, view: View, action: int, rng: Rng) -> str | None:
        return self.narrator.get()(view, action, rng)

    def encoder_for(self, game: Game) -> Encoder:
        return self.encoder.get()(game)

    def present(self, state: State, action: int) -> dict[str, Any]:
        return self.presenter.get()(state, action)

    def localizer(self, game: Game, translator: Translating) -> Texts:
        return self.texts.get()(game, translator)

    def voice_for(self, game: Game | None, translator: Translating) -> Voice:
        return self.voice.get()(game, translator)

    def lesson_match(self, state: State, expect: LessonExpect) -> Callable[[int], bool]:
        if self.lesson_matcher is None:
            raise ConfigError(f"{self.name} has no lessons")
        return self.lesson_matcher.get()(state, expect)

    def sets(self) -> tuple[str, ...]:
        return tuple(self.set_ids.get()())

    def schema(self) -> dict[str, Any]:
        return self.deck_schema.get()()

    def pictures(self, translator: Translating) -> str:
        """What the rules reference draws under its text ('' for none)."""
        return "" if self.rules_pictures is None else self.rules_pictures.get()(translator)


_EDITION_BEGINNER: tuple[Mapping[str, Any], ...] = (
    {"key": "edition", "kind": "choice", "label": "Edition", "values": [2, 1], "default": 2},
    {"key": "beginner", "kind": "bool", "label": "Beginner (no card effects)", "default": False})

_GLOOM = GameEntry(
    name="gloom", title=N_("Gloom"), short_title=N_("Gloom"), package="gloom",
    factory=Hook.named("gloomtable.games.gloom.game", "make"), players=(2, 5), default_players=4,
    options=frozenset({"edition", "beginner", "tiebreak", "first_player", "setup", "draft_size",
                       "stories_guests"}),
    mixes_sets=True, set_ids=Hook.named("gloomtable.games.gloom.deck", "shipped_sets"),
    deck_schema=Hook.named("gloomtable.games.gloom.deck", "json_schema"),
    bots=Hook.named("gloomtable.games.gloom.hooks.levels", "gloom_bot"),
    determinizer=Hook.named("gloomtable.games.gloom.determinize", "GLOOM", Determinizer),
    narrator=Hook.named("gloomtable.bots.narration", "narrate_gloom"),
    encoder=Hook.named("gloomtable.games.gloom.hooks.encode", "encoder_for"),
    presenter=Hook.named("gloomtable.games.gloom.present", "codec_choice"),
    texts=Hook.named("gloomtable.games.gloom.hooks.text", "GloomLocalizer"),
    voice=Hook.named("gloomtable.games.gloom.hooks.text", "GloomVoice"),
    lesson_matcher=Hook.named("gloomtable.games.gloom.hooks.lesson", "gloom_matcher"),
    rules_pictures=Hook.named("gloomtable.games.gloom.hooks.rules_pictures", "stack_examples"),
    hidden_piles=("draw_pile",), tells_stories=True,
    lobby_options=({"key": "sets", "kind": "sets"}, *_EDITION_BEGINNER),
    spiel_params={"players": 4, "sets": "classic", "edition": 2, "beginner": False,
                  "turn_cap": 500})

_SHIPPED: dict[str, GameEntry] = {e.name: e for e in (
    _GLOOM,
    replace(  # Gloom with the Gloomier set (R-H1..R-H10)
        _GLOOM, name="gloomier", title=N_("Gloomier: A Night at Hemlock Hall"),
        short_title=N_("Gloomier"),
        defaults=MappingProxyType({"sets": ("gloomier",)}),
        lobby_options=({"key": "stories_guests", "kind": "choice",
                        "label": "Stories and Guests in the middle", "values": [2, 1, 0], "default": 2},
                       *_EDITION_BEGINNER),
        spiel_params={"players": 4, "sets": "gloomier", "stories_guests": 2, "turn_cap": 500}),
    GameEntry(
        name="creatures", title=N_("Crazy Creatures of Dr. Gloom"), short_title=N_("Crazy Creatures"),
        package="creatures", factory=Hook.named("gloomtable.games.creatures.game", "make"),
        players=(2, 4), default_players=3, options=frozenset({"rounds", "first_player"}),
        mixes_sets=False, set_ids=Hook.named("gloomtable.games.creatures.cards", "registered_sets"),
        hidden_piles=("reserve", "aside"), sorted_zones=frozenset({"hands", "aside"}),
        deck_schema=Hook.named("gloomtable.games.creatures.cards", "json_schema"),
        bots=Hook.named("gloomtable.games.creatures.hooks.levels", "creatures_bot"),
        determinizer=Hook.named("gloomtable.games.creatures.determinize", "CREATURES", Determinizer),
        narrator=Hook.named("gloomtable.bots.narration", "narrate_creatures"),
        encoder=Hook.named("gloomtable.games.creatures.hooks.encode", "encoder_for"),
        presenter=Hook.named("gloomtable.games.creatures.present", "creatures_choice"),
        texts=Hook.named("gloomtable.games.creatures.hooks.text", "CreaturesLocalizer"),
        voice=Hook.named("gloomtable.games.creatures.hooks.text", "CreaturesVoice"),
        lesson_matcher=Hook.named("gloomtable.games.creatures.hooks.lesson", "creatures_matcher"),
        spiel_params={"players": 3, "rounds": 0, "turn_cap": 2000, "sets": "creatures"}),
)}


_ENTRIES: dict[str, GameEntry] = {}


def _registry() -> dict[str, GameEntry]:
    """The shipped games, then those of every other package under ``games/`` with an
    ``entry`` module (found once, on first use: see the module doc)."""
    if not _ENTRIES:
        _ENTRIES.update(_SHIPPED)
        shipped = {e.package for e in _SHIPPED.values()}
        here = Path(__file__).parent
        for pkg in sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.ispkg):
            if pkg in shipped or not (here / pkg / "entry.py").is_file():
                continue
            found: object = getattr(importlib.import_module(f"{__package__}.{pkg}.entry"), "ENTRIES", ())
            if not isinstance(found, tuple) or not all(isinstance(e, GameEntry) for e in found):
                raise TypeError(f"games/{pkg}/entry.py: ENTRIES must be a tuple of GameEntry")
            for e in found:
                if e.name in _ENTRIES:
                    raise ValueError(f"games/{pkg}: a game named {e.name!r} is registered already")
                _ENTRIES[e.name] = e
    return _ENTRIES


def names() -> tuple[str, ...]:
    """Every registered game name, in registration order."""
    return tuple(_registry())


def entries() -> tuple[GameEntry, ...]:
    return tuple(_registry().values())


def find(name: object) -> GameEntry | None:
    """The entry of ``name``, or None (a view or a client may name anything)."""
    return _registry().get(name) if isinstance(name, str) else None


def title_of(name: str) -> str:
    """The full title of ``name`` (a game built outside the registry: its name)."""
    found = find(name)
    return name if found is None else found.title


def entry(name: str) -> GameEntry:
    """The entry of ``name``; :class:`ConfigError` naming the known games if none."""
    found = find(name)
    if found is None:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(_registry())}")
    return found


@contextmanager
def registered(new: GameEntry) -> Iterator[GameEntry]:
    """``new`` registered for the ``with`` block (a plug-in game, a test's game)."""
    if new.name in _registry():
        raise ValueError(f"a game named {new.name!r} is registered already")
    _ENTRIES[new.name] = new
    try:
        yield new
    finally:
        del _ENTRIES[new.name]
