"""Lessons as data: the script of a guided first game, read from a TOML file.

A lesson is a real game on a fixed deal (``seed``) against bots with fixed seeds,
cut into steps. A step says what to look at (``say``, ``highlight``) and, when it
``expect``s an action, waits for the learner to make one that fits. What fits is
described by what the action *is* (a Modifier with negative points on your own
Character, a response, a DNA card...) rather than by card names, so a lesson
survives small deck changes and a designer can write one for their own deck; the
lesson test plays every lesson through and names the lesson and step whose
expectation stopped being met.

The texts are English msgids: the shipped lessons' texts are in the translation
catalogues (``python -m gloomtable.i18n.extract`` picks them up); a designer's own
lesson shows its text as written where no catalogue has it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from gloomtable.engine import GloomtableError
from gloomtable.engine.textdata import TextDataError, load_toml
from gloomtable.games import registry

LESSON_DIRS = {e.package: Path(__file__).resolve().parents[1] / "games" / e.package / "lessons"
               for e in registry.entries()}
"""Where the shipped lessons live, beside each game's sets (one folder per rules package)."""

Text = Annotated[str, Field(min_length=1, max_length=600)]


def _known_game(name: str) -> str:
    if registry.find(name) is None:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(registry.names())}")
    return name

ActionKind = Literal[
    # Gloom and Gloomier
    "choose_family", "draft", "play", "play_event", "respond", "pass", "discard_hand",
    "claim_story", "choose_card", "choose_player",
    # Crazy Creatures
    "play_creature", "play_dna", "flip", "make_draw", "same_number",
    # either
    "any",
]
CardKind = Literal["modifier", "untimely_death", "event", "response"]
Highlight = Literal[
    "families", "hand", "stack", "layers", "self_worth", "icons", "plays_left", "draw_pile",
    "discard", "middle", "stories", "guests", "machines", "reserve", "scores", "log", "decision",
]


class LessonError(GloomtableError):
    """A lesson file that cannot be used, or a step whose expectation cannot be met."""


class Expect(BaseModel):
    """What the learner must do for a step to count as done."""

    model_config = ConfigDict(extra="forbid")

    kind: ActionKind
    card: CardKind | None = None
    """Gloom: the kind of card played (a response is an Event that answers)."""
    target: Literal["own", "other", "any"] = "any"
    """Gloom: whose Character the card lands on."""
    points: Literal["negative", "positive", "any"] = "any"
    """Gloom: the sign of the points the card prints."""
    covers: bool = False
    """Gloom: the card covers points already showing on its target (the cardinal rule)."""
    effect: bool = False
    """Gloom: the card prints an effect."""
    negative_target: bool = False
    """Gloom: the target's Self-Worth is below zero before the play."""


class Step(BaseModel):
    """One thing to look at, and (with ``expect``) one thing to do."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")]
    say: Text
    say_terminal: Text | None = None
    """What ``gloom learn`` in a terminal says instead, where ``say`` speaks of what
    only the web page has (zooming a card, highlighted choices)."""
    highlight: list[Highlight] = Field(default_factory=list, max_length=6)
    expect: Expect | None = None
    wrong: Text | None = None
    """Said when the learner does something else here (else a plain reminder)."""
    free_play: Text | None = None
    """When set, the learner plays freely until the expected action is possible,
    with this text shown meanwhile (a Death needs a Character below zero first)."""

    @model_validator(mode="after")
    def _free_needs_expect(self) -> Step:
        if self.free_play is not None and self.expect is None:
            raise ValueError("free_play needs an expect: it says what the free turns wait for")
        return self


class Lesson(BaseModel):
    """A guided game: the table, the deal, the bots and the steps."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")]
    game: Annotated[str, AfterValidator(_known_game)]
    """A registered game's name (``games/registry.py``)."""
    title: Text
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)]
    config: dict[str, Any] = Field(default_factory=dict)
    bots: list[Literal["random", "easy", "medium", "hard"]] = Field(min_length=1, max_length=4)
    bot_seed: Annotated[int, Field(ge=0, le=2**63 - 1)] = 1
    steps: list[Step] = Field(min_length=1, max_length=40)
    end: Text
    """Said when the game is over (Family Values, penalty points...)."""
    play_to_end: bool = True
    """After the last step the learner plays on freely to the end of the game."""

    @model_validator(mode="after")
    def _unique_steps(self) -> Lesson:
        seen: set[str] = set()
        for step in self.steps:
            if step.id in seen:
                raise ValueError(f"step id {step.id!r} is used twice")
            seen.add(step.id)
        players = self.config.get("players", 2)
        if len(self.bots) != players - 1:
            raise ValueError(f"bots: {len(self.bots)} level(s) for {players} players; "
                             f"give one level for each seat but the learner's ({players - 1})")
        return self

    def texts(self) -> list[str]:
        """Every text of the lesson, for the translation catalogues."""
        out = [self.title, self.end]
        for step in self.steps:
            out += [t for t in (step.say, step.say_terminal, step.wrong, step.free_play) if t]
        return out


def load_lesson(path: str | Path) -> Lesson:
    """Read and validate one lesson file; errors name the file, the step and the field."""
    path = Path(path)
    try:
        data = load_toml(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LessonError(f"{path}: cannot read the lesson ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise LessonError(f"{path}: not valid TOML ({exc})") from None
    except TextDataError as exc:
        raise LessonError(f"{path}: {exc}") from None
    try:
        return Lesson.model_validate({**data.get("lesson", {}), "steps": data.get("step", [])})
    except ValidationError as exc:
        raise LessonError("\n".join(f"{path}: {_where(data, e['loc'])}: {e['msg']}"
                                    for e in exc.errors())) from None


def _where(data: dict[str, Any], loc: tuple[int | str, ...]) -> str:
    """``step 'deaths' (3), field expect.kind`` for a step's field, else the field."""
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        steps = data.get("step", [])
        sid = steps[loc[1]].get("id", "?") if loc[1] < len(steps) else "?"
        rest = ".".join(map(str, loc[2:])) or "step"
        return f"step {sid!r} ({loc[1] + 1}), field {rest}"
    return "field " + ".".join(map(str, loc))


def shipped_lessons() -> dict[str, Path]:
    """Lesson id -> file, for every lesson shipped beside the sets."""
    out: dict[str, Path] = {}
    for folder in LESSON_DIRS.values():
        for path in sorted(folder.glob("*.toml")):
            out[path.stem] = path
    return out


def lesson_for(game_or_path: str) -> Lesson:
    """The shipped lesson of a game (``gloom``, ``gloomier``, ``creatures``) or a file."""
    shipped = shipped_lessons()
    if game_or_path in shipped:
        return load_lesson(shipped[game_or_path])
    if game_or_path.endswith(".toml"):
        return load_lesson(game_or_path)
    raise LessonError(f"no lesson named {game_or_path!r}; shipped: {', '.join(sorted(shipped))}")
