"""What a game gives the layers above it, as Protocols (issue 33).

The registry (``games/registry.py``) holds one entry per game, and every part an upper
layer asks of a game is typed by one of these: bots (``bots``), search's sampled states
(:class:`Determinizer`), narration (:data:`Narrator`), the RL observation
(:class:`Encoder`), the page's choices (:data:`Presenter`), the translated texts
(:class:`Texts`, :class:`Voice`), how its told lines read (:class:`Teller`),
lessons (:data:`LessonMatcher`), a printed deck's names (:class:`CardTexts`) and its
deck files at the server (:class:`Decks`). The upper layers are written against these and
nothing else, so a new game gives its own parts (from its own package, as
``games/kuhn`` does) and no upper layer changes.

Views stay what the engine protocol says, ``Mapping[str, Any]``; a part that knows its
game narrows the view to that game's ``TypedDict`` once, behind a check of its shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from gloomtable.engine.errors import GloomtableError
from gloomtable.engine.protocol import Game, State
from gloomtable.engine.rng import Rng

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

View = Mapping[str, Any]
"""A seat's (or the spectator's) view, as :meth:`State.view` answers it."""
Sampler = Callable[[int], State]
"""seed -> a fresh state consistent with the view the sampler was made from."""


@runtime_checkable
class Bot(Protocol):
    """A player that sees only its view and the legal actions (``bots/base.py``)."""

    name: str
    uses_view: bool
    """False lets a driver skip building the view (the random bot needs none).

    A bot may also declare ``quick = True`` (``bots.base.is_quick``): its every decision
    takes well under a millisecond (the random bot, a plain heuristic), so a server asks
    it on the event loop instead of its bots' thread pool. Without it a bot counts as
    slow, as a search is."""

    def choose(self, view: View, legal: list[int]) -> int:
        """``view``: the deciding seat's view (``State.view``), empty for a bot that
        does not read it; a bot of one game reads it as that game's typed view."""
        ...


BotFactory = Callable[[str, int], Bot | None]
"""(level, seed) -> the game's bot of that level, or None for a level it lacks."""


@runtime_checkable
class Determinizer(Protocol):
    """Builds full states consistent with one seat's view, for search."""

    def config(self, view: View) -> dict[str, Any]:
        """The config of the game ``view`` is from, as far as the view shows it."""
        ...

    def sampler(self, view: View) -> Sampler | None:
        """A sampler for ``view`` at its seat's own decision, or None (cannot be)."""
        ...

    def resample(self, state: State, player: int, seed: int) -> State:
        """A state ``player`` sees as it sees ``state``, everything hidden from it dealt
        anew from ``seed``: the game's one determinizer, which its samplers deal with and
        OpenSpiel's ``resample_from_infostate`` asks (``games/resample.py``)."""
        ...


Narrator = Callable[[View, int, Rng], "str | None"]
"""(view, action, rng) -> a told line about the play, or None."""


@runtime_checkable
class Encoder(Protocol):
    """A game's RL observation of a view: a float32 vector of :attr:`size` slots."""

    size: int
    score_scale: float
    """The shaped reward divides score changes by this."""

    @property
    def private_slots(self) -> npt.NDArray[np.intp]:
        """The slots only the observer's own hand decides (OpenSpiel's private part)."""
        ...

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        """The observation of ``view`` (narrowed to the game's own view type)."""
        ...

    def score(self, view: View, seat: int) -> float:
        """The seat's running score, for the shaped reward."""
        ...


EncoderFactory = Callable[[Game], Encoder]
"""(game) -> the encoder of its tables."""
Presenter = Callable[[State, int], dict[str, Any]]
"""(state, action) -> what the page draws of a choice (kind, card, target, index)."""


@runtime_checkable
class Translating(Protocol):
    """gettext for one language (``i18n.catalog.Translator`` is one)."""

    @property
    def lang(self) -> str: ...

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...

    def gendered(self, gender: str | None, message: str) -> str: ...

    def ngendered(self, gender: str | None, singular: str, plural: str, n: int) -> str: ...

    def player(self, seat: int) -> str:
        """"player 3" for seat 2, as people count."""
        ...


@runtime_checkable
class Texts(Protocol):
    """A game's actions, decisions and table in one language (``i18n/client.py``)."""

    def action(self, state: State, action: int) -> str: ...

    def decision(self, kind: str) -> str: ...

    def render(self, view: View, player: int | None) -> str: ...

    def localize_catalogue(self, catalogue: dict[str, Any]) -> dict[str, Any]: ...

    def localize_view(self, view: dict[str, Any]) -> None: ...


TextsFactory = Callable[[Game, Translating], Texts]
"""(game, translator) -> the game's texts in the translator's language."""


@runtime_checkable
class Voice(Protocol):
    """How one game's event messages say their arguments in one language."""

    @property
    def tr(self) -> Translating: ...

    def value(self, kind: str, value: Any, gender: str | None) -> str: ...

    def gender(self, value: Any) -> str | None: ...


VoiceFactory = Callable[["Game | None", Translating], Voice]
"""(game or None, translator) -> the game's voice in that language."""


class LessonExpect(Protocol):
    """What a lesson step asks the learner to do (``learn/script.py``'s ``Expect``)."""

    @property
    def kind(self) -> str: ...

    @property
    def card(self) -> str | None: ...

    @property
    def target(self) -> str: ...

    @property
    def points(self) -> str: ...

    @property
    def covers(self) -> bool: ...

    @property
    def effect(self) -> bool: ...

    @property
    def negative_target(self) -> bool: ...


@runtime_checkable
class Teller(Protocol):
    """How a game's told lines (its :data:`Narrator`'s data) read in one language
    (``i18n/narration_text.py`` asks it)."""

    @property
    def templates(self) -> Mapping[str, tuple[str, ...]]:
        """The templates (message ids) by group; a told line names a group and a place."""
        ...

    def messages(self) -> Iterable[str]:
        """Every text its lines may say, to translate (templates, moods...)."""
        ...

    def values(self, game: Game | None, tr: Translating, data: Mapping[str, Any]) -> dict[str, str]:
        """The template's placeholders said in ``tr``'s language, from the line's data
        (``game``: the table's, for its deck's names; None when unknown)."""
        ...


LessonMatcher = Callable[[State, LessonExpect], Callable[[int], bool]]
"""(state, expect) -> a test of the learner's actions against the step."""


@runtime_checkable
class CardTexts(Protocol):
    """A printed deck's names in one language, by card index (the chronicle asks)."""

    def name(self, index: int, gender: str | None = None) -> str:
        """The card's name; for ``gender`` (of the card it lies on) the form agreeing with it."""
        ...

    def gender(self, index: int) -> str:
        """A person card's grammatical gender in this language."""
        ...

    def family_name(self, family_id: str) -> str: ...


CardTextsFactory = Callable[[Game, str], CardTexts]
"""(game, language) -> its deck's names in that language."""


class DeckProblems(GloomtableError, ValueError):
    """A deck file a game cannot play: a headline and every problem, each naming where
    (the answer to an upload lists them all)."""

    def __init__(self, message: str, problems: list[str]) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems


@dataclass(frozen=True, slots=True)
class CheckedDeck:
    """An uploaded deck that passed its game's checks: plain values (they cross from
    the server's worker process)."""

    name: str
    cards: int
    warnings: tuple[str, ...] = ()


@runtime_checkable
class Decks(Protocol):
    """A game's deck files at the server: uploaded in the lobby (``server/uploads.py``),
    given to ``gloom serve --sets`` (``server/run.py``) and offered in the lobby's form
    (``server/games.py``). A game without deck files gives none."""

    kind: str
    """What a stored upload of this game's is (``deck``, ``variant``): a stored row
    says by it whose decks read it, and a table of the game takes only its own."""
    what: str
    """One of its decks, as a refusal names it (``a Gloom deck``)."""
    listing: str
    """The field of ``/api/games`` that lists the sets its tables may name (``gloom_sets``)."""
    gallery: bool
    """The card gallery shows its uploads (``/gallery?deck=<key>``)."""

    def claims(self, data: Mapping[str, Any]) -> bool:
        """Whether a deck file's TOML has this game's shape. A file no game claims is
        read by the first game that has decks, whose reader says what is wrong."""
        ...

    def check(self, text: str, file: str) -> CheckedDeck:
        """An uploaded deck's TOML ``text`` read and checked as ``gloom deck check``
        would (in the server's worker); :class:`DeckProblems` naming every problem."""
        ...

    def translation_warnings(self, text: str, file: str, lang: str, data: Mapping[str, Any]) -> list[str]:
        """What an uploaded translation file (``data``, read) names that the checked
        deck ``text`` has not, so it would never show."""
        ...

    def register_upload(self, key: str, text: str, translations: Mapping[str, str]) -> None:
        """Make a checked upload playable in this process by ``key``, with its
        translation files by language."""
        ...

    def uploaded(self) -> tuple[str, ...]:
        """The keys of the uploads registered in this process."""
        ...

    def offered(self) -> tuple[str, ...]:
        """The set ids the lobby offers (shipped, then ``gloom serve --sets``), each one
        that loads here."""
        ...

    def set_names(self, set_ids: Iterable[str]) -> dict[str, dict[str, str]]:
        """Each set's name by language, for the lobby's labels (an id is a file name)."""
        ...

    def register_file(self, path: str) -> str:
        """``gloom serve --sets``: make the deck file at ``path`` playable by its set id;
        the line announcing it, or :class:`~gloomtable.engine.errors.GloomtableError`
        saying why not (with every problem, one a line)."""
        ...
