"""The registry of games: one :class:`GameEntry` per game name, the one place that
tells games apart by name (issue 20). Everything else asks an entry.

An entry gives the game's factory, the plain facts the clients need (title, seats,
options, how it takes card sets) and, for the layers above ``games``, its *hooks*:
each a :class:`Hook` typed by a Protocol of ``engine/hooks.py`` (issue 33).

Every game registers itself: the ``entry`` module of each package under ``games/``
gives ``ENTRIES`` (a tuple of :class:`GameEntry`) and may give ``ORDER`` (an int: where
its games stand among the others, lower first; without one, after those that do), and
the registry finds them on first use, by package name after ``ORDER``. That discovery
is the one import by name here: a hook is never a ``module:attr`` string. A part the
game's rules package holds is given as it is (``Hook.of(part)``); a part that must load
lazily (the shipped games' bots, encoders and texts live in ``games/<game>/hooks``,
above the bots and RL layers) is given as a small typed loader, a function whose body
imports it (``Hook(_bots)``), so mypy checks the part against its Protocol where the
loader returns it, and building a game never loads the bots, RL or server code
(docs/architecture.md 'How to add a game')."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Generic, TypeVar

from gloomtable.engine import ConfigError, Game, Rng, State
from gloomtable.engine.hooks import (
    Bot,
    BotFactory,
    CardTexts,
    CardTextsFactory,
    Determinizer,
    Encoder,
    EncoderFactory,
    LessonExpect,
    LessonMatcher,
    Narrator,
    Presenter,
    Sampler,
    Teller,
    Texts,
    TextsFactory,
    Translating,
    View,
    Voice,
    VoiceFactory,
)
from gloomtable.engine.hooks import (
    Decks as DeckFiles,
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

T = TypeVar("T", covariant=True)
P = TypeVar("P")


def N_(message: str) -> str:
    """Marks a title for message extraction; the clients translate it when shown."""
    return message


class Hook(Generic[T]):
    """One part of a game for an upper layer, typed by what it must be (``T``), and
    loaded once on first use (the loader runs at most once per hook)."""

    __slots__ = ("_load", "_loaded", "where")

    def __init__(self, load: Callable[[], T], where: str | None = None) -> None:
        self._load = load
        self._loaded: list[T] = []
        self.where = where or f"{load.__module__}:{load.__qualname__}"
        """Where the part is, for messages (``module:attr``; a loader's by default)."""

    @staticmethod
    def of(part: P) -> Hook[P]:
        """A part the game's own package gives (no import to defer)."""
        where = f"{getattr(part, '__module__', '?')}:{getattr(part, '__qualname__', type(part).__name__)}"
        return Hook(lambda: part, where)

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
    """Its bots by level (``games/<game>/hooks/levels.py`` for the shipped games)."""
    determinizer: Hook[Determinizer]
    """Sampled states from a view, for search (the game's own ``determinize.py``)."""
    narrator: Hook[Narrator]
    """A bot's told line about a play (``games/<game>/hooks/narration.py``, asked by
    ``bots/narration.py``)."""
    encoder: Hook[EncoderFactory]
    """The RL observation (``games/<game>/hooks/encode.py``)."""
    presenter: Hook[Presenter]
    """What the page draws of a choice."""
    texts: Hook[TextsFactory]
    """Its actions and table in one language (``games/<game>/hooks/text.py``)."""
    voice: Hook[VoiceFactory]
    """How its event messages say their arguments (``games/<game>/hooks/text.py``,
    read by ``i18n/events.py``)."""
    teller: Hook[Teller] | None = None
    """How its told lines read in each language (``i18n/narration_text.py`` asks it);
    None: its narrator tells no lines, or plain text only."""
    board: str | None = None
    """The page's board script that draws its tables, a module of ``web/`` whose default
    export is the board class (``"gloom_table.js"``); None: the plain board, the view's
    facts and the choices as buttons (``web/buttons_board.js``)."""
    card_texts: Hook[CardTextsFactory] | None = None
    """Its printed deck's names in a language (``games/<game>/hooks/card_texts.py``,
    asked by the chronicle); None: no deck of printed cards."""
    decks: Hook[DeckFiles] | None = None
    """Its deck files at the server: uploaded, given to ``gloom serve --sets``, offered in
    the lobby (``server/uploads.py``, ``server/games.py``, ``server/run.py``); None: it
    has none, and an upload is refused for it. Games on one deck language share theirs."""
    lesson_matcher: Hook[LessonMatcher] | None = None
    """What a lesson step asks for at its table (``games/<game>/hooks/lesson.py``, asked
    by ``learn/guide.py``); None: no lessons."""
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

    def hooks(self) -> dict[str, Hook[object]]:
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

    def deck_texts(self, game: Game, lang: str) -> CardTexts:
        if self.card_texts is None:
            raise ConfigError(f"{self.name} has no deck of printed cards")
        return self.card_texts.get()(game, lang)

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


_ENTRIES: dict[str, GameEntry] = {}


def _registry() -> dict[str, GameEntry]:
    """Every package's entries under ``games/``, found once, on first use, in ``ORDER``
    then package order (see the module doc)."""
    if not _ENTRIES:
        found = [_entries_of(pkg) for pkg in _entry_packages()]
        for _order, pkg, entries_ in sorted(found, key=lambda f: (f[0], f[1])):
            for e in entries_:
                if e.name in _ENTRIES:
                    raise ValueError(f"games/{pkg}: a game named {e.name!r} is registered already")
                _ENTRIES[e.name] = e
    return _ENTRIES


def _entry_packages() -> list[str]:
    """The packages under ``games/`` that hold an ``entry.py``."""
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)])
                  if m.ispkg and (here / m.name / "entry.py").is_file())


def _entries_of(pkg: str) -> tuple[float, str, tuple[GameEntry, ...]]:
    """(``ORDER``, package, ``ENTRIES``) of ``games/<pkg>/entry.py``, checked: the
    package discovery, the one import by name in the registry."""
    module = importlib.import_module(f"{__package__}.{pkg}.entry")
    found: object = getattr(module, "ENTRIES", ())
    if not isinstance(found, tuple) or not all(isinstance(e, GameEntry) for e in found):
        raise TypeError(f"games/{pkg}/entry.py: ENTRIES must be a tuple of GameEntry")
    order: object = getattr(module, "ORDER", float("inf"))
    if not isinstance(order, int | float) or isinstance(order, bool):
        raise TypeError(f"games/{pkg}/entry.py: ORDER must be a number")
    return float(order), pkg, tuple(e for e in found if isinstance(e, GameEntry))


def names() -> tuple[str, ...]:
    """Every registered game name, in registration order."""
    return tuple(_registry())


def entries() -> tuple[GameEntry, ...]:
    return tuple(_registry().values())


def find(name: object) -> GameEntry | None:
    """The entry of ``name``, or None (a view or a client may name anything)."""
    return _registry().get(name) if isinstance(name, str) else None


def decks() -> tuple[DeckFiles, ...]:
    """Every game's deck files, once each (Gloom and Gloomier share theirs), in
    registration order: the first reads a file no game claims."""
    found: list[DeckFiles] = []
    for e in _registry().values():
        if e.decks is not None and all(d is not e.decks.get() for d in found):
            found.append(e.decks.get())
    return tuple(found)


def decks_of_kind(kind: str) -> DeckFiles | None:
    """The deck files whose stored uploads are of ``kind`` (None: no game's)."""
    return next((d for d in decks() if d.kind == kind), None)


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
