"""The Gloom rules (RULES.md part G) as a deterministic state machine.

Every choice is a pending decision for exactly one player, answered by an
integer action (see :mod:`actions`). Effects run as a stack of small tuple
tasks (see :mod:`effects`), so a state copies and compares cheaply and an
effect that needs a choice simply waits for the answer.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from gloomtable.engine import (
    TERMINAL,
    Event,
    IllegalActionError,
    MalformedActionError,
    Result,
    Rng,
)
from gloomtable.games.gloom.actions import MAX_PLAYERS, Codec, Kind, PlayRows
from gloomtable.games.gloom.cards import CardType, Step, Visible, visible
from gloomtable.games.gloom.effects import PRIMITIVES, Ctx, Task
from gloomtable.games.gloom.stack import Stack, StackTable

if TYPE_CHECKING:
    from gloomtable.games.gloom.game import GloomGame

BASE_DRAW_LIMIT = 5  # R-G14
HAND_SIZE = 5  # R-G9


class Decision(NamedTuple):
    """A question for one player. ``options`` is empty for the main play
    decision, whose legal actions are computed from the state."""

    player: int
    kind: str
    options: tuple[int, ...] = ()
    task: Task | None = None


# Phases
SETUP_FAMILY = "choose_family"
SETUP_ASIDE = "set_aside"
SETUP_DRAFT = "choose_character"
UNCONTROLLED = -1  # a Guest or Story in the middle (R-H6)
PLAY = "play"
RESPOND = "respond"
OVER = "over"
RUNNING = "_running"  # no question is open: the engine is resolving

# The decisions without options, made once: every action passes through both.
_RUNNING = tuple(Decision(p, RUNNING) for p in range(MAX_PLAYERS))
_PLAY = tuple(Decision(p, PLAY) for p in range(MAX_PLAYERS))

# The engine's own steps on the task queue (beside the effect primitives).
FINISH_PLAY = "_finish_play"
ASK_RESPONSES = "_respond"
DISCARD_EVENT = "_discard_event"
FOLLOW = "_follow"

_FREE_FOR = {
    CardType.MODIFIER: ("modifier", "any"),
    CardType.UNTIMELY_DEATH: ("untimely_death", "any"),
    CardType.EVENT: ("any",),
}

_DRAWN = (CardType.MODIFIER, CardType.EVENT, CardType.UNTIMELY_DEATH)
"""What the draw pile holds; Characters, Guests and Stories never do (R-H10)."""

# Enum members as module constants: looking a member up on its class is slow
# (Python 3.11), and every action asks a few.
_MODIFIER, _EVENT, _DEATH = CardType.MODIFIER, CardType.EVENT, CardType.UNTIMELY_DEATH
_PASS, _DISCARD_HAND, _DISCARD_ONE = Kind.PASS, Kind.DISCARD_HAND, Kind.DISCARD_ONE
_PLAY_ON, _PLAY_EVENT, _CLAIM = Kind.PLAY, Kind.PLAY_EVENT, Kind.CLAIM_STORY

_LET_IT_STAND = (Codec.PASS,)
"""The options of a player asked to respond with no answer in hand."""

# The hottest named tuples (events, tasks, decisions) are built with tuple.__new__ straight:
# a NamedTuple's own __new__ is one more Python call, and every action makes several.
# Each is built with every field, in the order these checks pin down.
_new = tuple.__new__
assert Event._fields == ("kind", "text", "player", "card", "target", "amount", "private_to",
                         "public_text")
assert Task._fields == ("step", "ctx", "param", "data", "sub")
assert Ctx._fields == ("resolver", "card", "target", "icons_at_play")
assert Decision._fields == ("player", "kind", "options", "task")


def _as_action(action: object) -> int:
    """An action that is not a plain ``int`` as one: numpy integers too, as RL code
    sends them; ``bool`` and anything else are malformed."""
    if isinstance(action, bool):
        raise MalformedActionError(f"an action is an integer, got {action!r}")
    try:
        return operator.index(action)  # type: ignore[call-overload]
    except TypeError:
        raise MalformedActionError(f"an action is an integer, got {action!r}") from None


# --- the commonest events, made once -------------------------------------------------
# Events are immutable, so the same facts may share one Event: a pass or a let-it-stand
# names only a seat, and draws, turns and plays repeat the same few thousand facts.

_PASS_EVENTS = tuple(Event("pass", f"Player {p + 1} passes.", p) for p in range(MAX_PLAYERS))
_LET_STAND_EVENTS = tuple(Event("respond_pass", f"Player {p + 1} lets it stand.", p)
                          for p in range(MAX_PLAYERS))


@lru_cache(maxsize=4096)
def _draw_event(p: int, c: int, name: str) -> Event:
    """Player ``p`` draws card ``c`` (named ``name``): the card only for ``p``'s eyes."""
    return Event("draw", f"Player {p + 1} draws {name}.", p, c, private_to=p,
                 public_text=f"Player {p + 1} draws a card.")


@lru_cache(maxsize=4096)
def _turn_event(turn: int, p: int) -> Event:
    """Turn ``turn`` begins: player ``p`` plays."""
    return Event("turn", f"Turn {turn}: player {p + 1} plays.", p)


@lru_cache(maxsize=16384)
def _play_event(p: int, c: int, name: str, target: int, target_name: str) -> Event:
    """Player ``p`` plays card ``c`` on the Character (or Guest) ``target``."""
    return Event("play", f"Player {p + 1} plays {name} on {target_name}.", p, c, target)


# --- what every play decision asks of the table ------------------------------------------

_ONLY_STACKS = frozenset([Stack])


class _TableFacts:
    """What every play decision asks of the table: who lives, the play ids on them, and
    who has negative Self-Worth. Worked out again whenever the table may have changed.

    They hold while no stack has changed (``Stack.changes``: every change to a Stack or to
    the StackTable counts, whoever makes it), the stacks are the same StackTable and the
    families and Guests are as they were. When the engine itself lays a card on a living
    Character, they are kept up (see ``GloomState._landed``): a death takes it out of the
    living, any other card leaves only its Self-Worth to look at again (``dirty``)."""

    __slots__ = ("changes", "dirty", "families", "guests", "living", "negative", "rows", "stacks")

    def __init__(self, state: GloomState) -> None:
        stacks = self.stacks = state.stacks
        self.families = [list(f) for f in state.families]
        self.guests = list(state.guests)
        self.living = tuple(state._find_living())
        self.rows: PlayRows = state.codec.play_rows(self.living)
        self.negative: set[int] | None = None
        """Target slots with negative Self-Worth, once asked."""
        self.dirty: list[int] = []
        """Living Characters whose Self-Worth may have changed since ``negative``."""
        # Changes to plain lists or dicts would go uncounted: then these facts hold once.
        counted = type(stacks) is StackTable and _ONLY_STACKS.issuperset(map(type, stacks.values()))
        self.changes = Stack.changes if counted else -1

    def hold_for(self, state: GloomState) -> bool:
        """Whether these facts are still true of ``state``."""
        return (self.changes == Stack.changes and self.stacks is state.stacks
                and self.families == state.families and self.guests == state.guests)


class GloomState:
    """One position of a Gloom game. Mutated by :meth:`apply`; :meth:`clone` to branch."""

    __slots__ = (
        "_events",
        "_table",
        "cancelled",
        "capped",
        "cards",
        "codec",
        "controller",
        "counted_used",
        "decision",
        "discard",
        "draw_pile",
        "families",
        "family_taken",
        "first_player",
        "free_plays",
        "game",
        "guests",
        "hands",
        "limbo",
        "n",
        "out_of_game",
        "over",
        "queue",
        "rng",
        "skips",
        "stacks",
        "stories",
        "turn",
        "turn_player",
    )

    def __init__(self, game: GloomGame, seed: int) -> None:
        cfg = game.config
        self.game = game
        self.cards = game.deck.cards
        self.codec = game.codec
        self.n = cfg.players
        self.rng = Rng(seed)
        deck = game.deck
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.discard: list[int] = []
        self.stacks: dict[int, list[int]] = StackTable()
        self.controller: dict[int, int] = {}
        self.families: list[list[int]] = [[] for _ in range(self.n)]
        self.guests: list[int] = []  # Guests in play; their controller may be UNCONTROLLED
        self.stories: dict[int, int] = {}  # Story in play -> controller or UNCONTROLLED
        self.family_taken: list[int] = [-1] * len(deck.families)  # family -> seat
        self.out_of_game: list[int] = []
        self.limbo: list[int] = []  # cards being played or resolved
        self.free_plays: list[str] = []
        self.skips: list[int] = [0] * self.n
        self.queue: list[Task] = []
        self.cancelled = False
        self.counted_used = 0
        self.turn = 0
        self.over = False
        self.capped = False
        self._events: list[Event] = []
        self._table: _TableFacts | None = None
        # R-G10: the first player, from the table or from the seed.
        self.first_player = (
            cfg.first_player if cfg.first_player is not None else self.rng.below(self.n)
        )
        self.turn_player = self.first_player
        # R-G9: everything but the Characters is shuffled into the draw pile; deal 5 each.
        self.draw_pile = [c.index for c in deck.cards if c.type in _DRAWN]
        self.rng.shuffle(self.draw_pile)
        for p in self.turn_order_from(self.first_player):
            self.draw(p, HAND_SIZE)
        self._events.clear()  # deals are not news
        if game.drafting:
            self.decision = Decision(self.first_player, SETUP_DRAFT, self._draft_options())
        else:
            self.decision = Decision(self.first_player, SETUP_FAMILY)

    # --- protocol -----------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.over else self.decision.player

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        d = self.decision
        if d.kind == PLAY:
            return self._legal_plays()
        if d.kind == SETUP_FAMILY:
            return [self.codec.choose_family(f) for f, seat in enumerate(self.family_taken)
                    if seat < 0]
        return list(d.options)

    def apply(self, action: int) -> list[Event]:
        if type(action) is not int:
            action = _as_action(action)
        if not 0 <= action < self.codec.size:
            raise MalformedActionError(
                f"action {action} is outside this game's action space 0..{self.codec.size - 1}")
        if self.over:
            raise IllegalActionError(action, "the game is over", [])
        if not self.is_legal(action):
            legal = self.legal_actions()
            raise IllegalActionError(action, self._why_illegal(action),
                                     [(a, self.action_to_string(a)) for a in legal])
        self._events = []
        d = self.decision
        kind = d.kind
        self.decision = _RUNNING[d.player]
        # The commonest kinds first: a play, then the answers to it.
        if kind == PLAY:
            self._play(action)
        elif kind == RESPOND:
            self._respond(d, action)
        elif kind == SETUP_FAMILY:
            self._choose_family(d.player, action - self.codec.family_base)
        elif kind == SETUP_ASIDE:
            self._set_aside(d.player, self.codec.chosen_card(action))
        elif kind == SETUP_DRAFT:
            self._draft(d.player, self.codec.chosen_card(action))
        else:
            assert d.task is not None
            self._resume(d.task, action)
        self._run()
        return self._events

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over yet")
        fv = tuple(self.family_value(p) for p in range(self.n))
        best = min(fv)
        winners = [p for p in range(self.n) if fv[p] == best]
        if len(winners) > 1 and self.game.config.tiebreak == "fewer_living":
            living = {p: len(self.living_of(p)) for p in winners}
            fewest = min(living.values())
            winners = [p for p in winners if living[p] == fewest]
        return Result(fv, tuple(winners), self.capped,
                      {"turns": self.turn, "rounds": self.rounds})

    def clone(self) -> GloomState:
        new = object.__new__(GloomState)
        new.game = self.game
        new.cards = self.cards
        new.codec = self.codec
        new.n = self.n
        new.rng = Rng(self.rng.state)
        new.hands = [list(h) for h in self.hands]
        new.discard = list(self.discard)
        new.draw_pile = list(self.draw_pile)
        new.stacks = StackTable({c: Stack(s, getattr(s, 'vis', None)) for c, s in self.stacks.items()})
        new.controller = dict(self.controller)
        new.families = [list(f) for f in self.families]
        new.guests = list(self.guests)
        new.stories = dict(self.stories)
        new.family_taken = list(self.family_taken)
        new.out_of_game = list(self.out_of_game)
        new.limbo = list(self.limbo)
        new.free_plays = list(self.free_plays)
        new.skips = list(self.skips)
        new.queue = list(self.queue)
        new.cancelled = self.cancelled
        new.counted_used = self.counted_used
        new.turn = self.turn
        new.over = self.over
        new.capped = self.capped
        new.first_player = self.first_player
        new.turn_player = self.turn_player
        new.decision = self.decision
        new._events = []
        new._table = None
        return new

    def snapshot(self) -> dict[str, Any]:
        """The full state as plain data (for replay-identity checks and debugging)."""
        return {
            "rng": self.rng.state, "hands": self.hands, "discard": self.discard,
            "draw_pile": self.draw_pile, "stacks": {str(c): s for c, s in self.stacks.items()},
            "controller": {str(c): p for c, p in self.controller.items()},
            "families": self.families, "guests": self.guests,
            "stories": {str(c): p for c, p in self.stories.items()},
            "out_of_game": self.out_of_game, "limbo": self.limbo,
            "free_plays": self.free_plays, "skips": self.skips,
            "queue": [repr(t) for t in self.queue], "cancelled": self.cancelled,
            "counted_used": self.counted_used, "turn": self.turn, "over": self.over,
            "capped": self.capped, "turn_player": self.turn_player,
            "decision": repr(self.decision),
        }

    # --- derived facts (the cardinal rule decides everything) --------------------

    @property
    def rounds(self) -> int:
        """Rounds begun: every player's turn counts once per round."""
        return (self.turn + self.n - 1) // self.n

    def visible_of(self, char: int) -> Visible:
        """The cardinal rule on ``char``'s stack (the same cards in the same order always
        show the same). A Stack remembers its own, and builds a new one on what showed
        before its last card. The game's memo serves what cannot remember: plain lists
        (views and ``determinize`` build them) and the bare Characters every game starts
        with. A Stack's longer stacks seldom come back, and kept there they would only
        grow the memo (and keep the garbage collector busy)."""
        stack = self.stacks[char]
        v = getattr(stack, "vis", None)
        if v is not None:
            return v
        below = getattr(stack, "below", None)
        if below is not None:
            v = stack.vis = below.on_top(self.cards[stack[-1]])  # type: ignore[attr-defined]
            return v
        key = tuple(stack)
        cache = self.game.visible_cache
        v = cache.get(key)
        remembers = type(stack) is Stack
        if v is None:
            below = cache.get(key[:-1])
            cards = self.cards
            v = (below.on_top(cards[key[-1]]) if below is not None
                 else visible([cards[i] for i in key]))
            if not remembers or len(key) == 1:
                if len(cache) > 100_000:
                    cache.clear()
                cache[key] = v
        if remembers:
            stack.vis = v  # type: ignore[attr-defined]
        return v

    def self_worth(self, char: int) -> int:
        return self.visible_of(char).self_worth

    def is_dead(self, char: int) -> bool:
        """R-G23: dead while an Untimely Death is on top."""
        return self.stacks[char][-1] in self.game.deaths

    def living_characters(self) -> list[int]:
        """Every living target on the table: the families' Characters, then the Guests
        (controlled or in the middle, R-H6)."""
        table = self._table
        if table is not None and table.hold_for(self):
            return list(table.living)
        return self._find_living()

    def _find_living(self) -> list[int]:
        deaths, stacks = self.game.deaths, self.stacks
        out = [c for fam in self.families for c in fam if stacks[c][-1] not in deaths]
        if self.guests:
            out.extend(g for g in self.guests if stacks[g][-1] not in deaths)
        return out

    def dead_characters(self) -> list[int]:
        out = [c for fam in self.families for c in fam if self.is_dead(c)]
        out.extend(g for g in self.guests if self.is_dead(g))
        return out

    def members(self, p: int) -> list[int]:
        """``p``'s family: the Characters they chose plus the Guests that joined them
        (R-H7). Only the chosen Characters count for the end of the game (R-H3)."""
        if not self.guests:
            return self.families[p]
        return self.families[p] + [g for g in self.guests if self.controller[g] == p]

    def living_of(self, p: int) -> list[int]:
        deaths, stacks = self.game.deaths, self.stacks
        return [c for c in self.members(p) if stacks[c][-1] not in deaths]

    def top_modifier(self, char: int) -> int:
        """The top card of a living Character's stack if it is a Modifier, else -1."""
        top = self.stacks[char][-1]
        return top if self.cards[top].type is CardType.MODIFIER else -1

    def count_icons(self, p: int, icon: str) -> int:
        """Visible ``icon`` among ``p``'s living Characters (and Guests)."""
        return sum(self.visible_of(c).icons.count(icon) for c in self.living_of(p))

    def shown_icons(self, p: int, icons: tuple[str, ...] | list[str]) -> int:
        """R-H5: how many of ``icons`` ``p``'s family shows, living or dead."""
        total = 0
        for c in self.members(p):
            total += sum(1 for i in self.visible_of(c).icons if i in icons)
        return total

    def story_of(self, p: int) -> int:
        """The Story ``p`` controls, or -1 (one at a time, R-H5)."""
        for story, owner in self.stories.items():
            if owner == p:
                return story
        return -1

    def held_steps(self, p: int) -> list[Step]:
        """Lasting effect steps that apply to ``p`` now: live continuous and persistent
        effects on their living Characters and Guests (R-G18, R-G19, R-H8) and the
        continuous effects of their Story (R-H5). A dead Character's stack is set
        aside, so its effects no longer hold."""
        if self.game.config.beginner:
            return []
        steps: list[Step] = []
        stacks, deaths = self.stacks, self.game.deaths
        lasting_cards = self.game.lasting_cards
        members = self.members(p) if self.guests else self.families[p]
        for c in members:  # the living ones (inlined: this runs every turn)
            stack = stacks[c]
            if stack[-1] in deaths or lasting_cards.isdisjoint(stack):
                continue  # dead, or no card in the stack has a lasting effect to show
            lasting = (getattr(stack, "vis", None) or self.visible_of(c)).lasting_steps
            if lasting:
                steps.extend(lasting)
        story = self.story_of(p) if self.stories else -1
        if story >= 0:
            for effect in self.cards[story].effects_when("continuous"):
                steps.extend(effect.steps)
        return steps

    def draw_limit(self, p: int) -> int:
        """R-G14: 5, changed by the lasting effects that apply to ``p``.
        **Decision:** never below 1."""
        total = BASE_DRAW_LIMIT
        steps = self.held_steps(p)
        if not steps:
            return total
        for step in steps:
            if step.name == "draw_limit":
                total += step.param
            elif step.name == "draw_limit_per_icon":
                total += step.param.n * self.count_icons(p, step.param.icon)
        return max(1, total)

    def family_value(self, p: int) -> int:
        """R-G25, R-H9: the Self-Worth of ``p``'s dead Characters and dead Guests."""
        deaths, stacks = self.game.deaths, self.stacks
        return sum([self.self_worth(c) for c in self.members(p) if stacks[c][-1] in deaths])

    def turn_order_from(self, p: int) -> list[int]:
        return [(p + i) % self.n for i in range(self.n)]

    def locations(self) -> dict[int, str]:
        """Where every card is (for conservation checks): card index -> place."""
        where: dict[int, str] = {}

        def put(c: int, place: str) -> None:
            if c in where:
                raise AssertionError(f"card {c} is both in {where[c]} and {place}")
            where[c] = place

        for p, hand in enumerate(self.hands):
            for c in hand:
                put(c, f"hand{p}")
        for c in self.draw_pile:
            put(c, "draw_pile")
        for c in self.discard:
            put(c, "discard")
        for c in self.limbo:
            put(c, "limbo")
        for c in self.out_of_game:
            put(c, "out")
        for char, stack in self.stacks.items():
            for c in stack:
                put(c, f"stack{char}")
        for story, owner in self.stories.items():
            put(story, "middle" if owner < 0 else f"story{owner}")
        for card in self.cards:
            if card.index not in where:
                if card.type is CardType.CHARACTER:
                    put(card.index, "unchosen")
                elif card.type in (CardType.GUEST, CardType.STORY):
                    put(card.index, "unused")  # the other side of a chosen or boxed card
        return where

    # --- helpers the effect handlers call -------------------------------------

    def emit(self, kind: str, text: str, player: int | None = None, card: int | None = None,
             target: int | None = None, amount: int | None = None, private_to: int | None = None,
             public_text: str | None = None) -> None:
        self._events.append(_new(Event, (kind, text, player, card, target, amount, private_to,
                                         public_text)))

    def name(self, c: int) -> str:
        return self.cards[c].name

    def ask(self, player: int, kind: str, options: list[int], task: Task) -> None:
        self.decision = Decision(player, kind, tuple(options), task)

    def draw(self, p: int, n: int) -> int:
        """Draw ``n`` cards, reshuffling the discard pile when the draw pile runs
        out (R-G9); if both are empty the draw simply stops. Returns cards drawn."""
        drawn = 0
        for _ in range(n):
            if not self.draw_pile:
                if not self.discard:
                    break
                self.draw_pile = self.discard
                self.discard = []
                self.rng.shuffle(self.draw_pile)
                self.emit("reshuffle", "The discard pile is shuffled into a new draw pile.")
            c = self.draw_pile.pop()
            self.hands[p].append(c)
            drawn += 1
            self._events.append(_draw_event(p, c, self.cards[c].name))
        return drawn

    def discard_from_hand(self, p: int, c: int) -> None:
        self.hands[p].remove(c)
        self.discard.append(c)
        self.emit("discard", f"Player {p + 1} discards {self.name(c)}.", player=p, card=c)

    def grant_free_play(self, kind: str) -> None:
        self.free_plays.append(kind)
        label = {"any": "card", "untimely_death": "Untimely Death"}.get(kind, kind)
        self.emit("free_play", f"Player {self.turn_player + 1} gains a free play "
                  f"({label}).", player=self.turn_player)

    def move_top_modifier(self, src: int, dst: int, by: int) -> None:
        m = self.stacks[src].pop()
        self.stacks[dst].append(m)
        self.emit("move", f"{self.name(m)} moves from {self.name(src)} to {self.name(dst)}.",
                  player=by, card=m, target=dst)

    def return_top_modifier(self, char: int, to: int, by: int) -> None:
        m = self.stacks[char].pop()
        self.hands[to].append(m)
        self.emit("return", f"{self.name(m)} leaves {self.name(char)} for player "
                  f"{to + 1}'s hand.", player=by, card=m, target=char)

    def remove_top_modifier(self, char: int, by: int) -> None:
        m = self.stacks[char].pop()
        self.discard.append(m)
        self.emit("remove", f"{self.name(m)} is stripped from {self.name(char)}.",
                  player=by, card=m, target=char)

    def revive(self, char: int, by: int) -> None:
        death = self.stacks[char].pop()
        self.discard.append(death)
        self.emit("revive", f"{self.name(char)} returns from the grave.", player=by,
                  card=death, target=char)

    def steal(self, p: int, victim: int, n: int) -> None:
        for _ in range(min(n, len(self.hands[victim]))):
            c = self.hands[victim].pop(self.rng.below(len(self.hands[victim])))
            self.hands[p].append(c)
            self.emit("steal", f"Player {p + 1} takes {self.name(c)} from player {victim + 1}.",
                      player=p, card=c, target=victim, private_to=p,
                      public_text=f"Player {p + 1} takes a card from player {victim + 1}.")

    def swap_hands(self, p: int, q: int) -> None:
        self.hands[p], self.hands[q] = self.hands[q], self.hands[p]
        self.emit("swap", f"Players {p + 1} and {q + 1} swap hands.", player=p, target=q)

    def skip_next_turn(self, p: int, by: int) -> None:
        self.skips[p] += 1
        self.emit("skip", f"Player {p + 1} will skip their next turn.", player=by, target=p)

    def push_steps(self, ctx: Ctx, steps: tuple[Step, ...]) -> None:
        """Queue ``steps`` to run next, in printed order (R-G15)."""
        for step in reversed(steps):
            self.queue.append(_new(Task, (step.name, ctx, step.param, (), step.steps)))

    # --- setup (R-G7, R-G8) --------------------------------------------------

    def _choose_family(self, p: int, f: int) -> None:
        deck = self.game.deck
        fam = deck.families[f]
        self.family_taken[f] = p
        by_key = self.game.card_by_key
        for key in fam.characters:
            c = by_key[key]
            self.families[p].append(c)
            self.stacks[c] = Stack((c,))
            self.controller[c] = p
        self.emit("family", f"Player {p + 1} takes the family {fam.name}.", player=p)
        choosers = self._family_choosers()
        nxt = (p + 1) % self.n
        if nxt in choosers and any(self.families[q] == [] for q in choosers):
            self.decision = Decision(nxt, SETUP_FAMILY)
            return
        # Unchosen Characters are out of the game (R-G7).
        for f2, seat in enumerate(self.family_taken):
            if seat < 0:
                for key in deck.families[f2].characters:
                    self.out_of_game.append(by_key[key])
        if self.n >= 4:
            self.decision = Decision(self.first_player, SETUP_ASIDE,
                                     self._aside_options(self.first_player))
        else:
            self._begin_turn(self.first_player)

    # --- setup by draft (R-H2) -------------------------------------------------

    def _draft_options(self) -> tuple[int, ...]:
        chosen = {c for fam in self.families for c in fam}
        return tuple(self.codec.choose_card(c) for c in self.game.characters if c not in chosen)

    def _draft(self, p: int, c: int) -> None:
        """One pick of the draft. **Decision:** players choose one Character at a time
        in turn order, round after round, until each has ``draft_size``."""
        self.families[p].append(c)
        self.stacks[c] = Stack((c,))
        self.controller[c] = p
        self.emit("choose", f"Player {p + 1} chooses {self.name(c)}.", player=p, card=c)
        picks = sum(len(f) for f in self.families)
        if picks < self.n * self.game.config.draft_size:
            nxt = self.turn_order_from(self.first_player)[picks % self.n]
            self.decision = Decision(nxt, SETUP_DRAFT, self._draft_options())
            return
        # The unchosen are flipped; some of their reverse sides, at random, go to the middle.
        chosen = {c2 for fam in self.families for c2 in fam}
        backs = [self.game.back_of[c2] for c2 in self.game.characters
                 if c2 not in chosen and c2 in self.game.back_of]
        self.rng.shuffle(backs)
        for b in sorted(backs[: self.game.config.stories_guests]):
            if self.cards[b].type is CardType.GUEST:
                self.guests.append(b)
                self.stacks[b] = Stack((b,))
                self.controller[b] = UNCONTROLLED
            else:
                self.stories[b] = UNCONTROLLED
            self.emit("middle", f"{self.cards[b].type.value.title()} {self.name(b)} waits in "
                      "the middle.", card=b)
        self._begin_turn(self.first_player)

    # --- Stories (R-H5) and Guests (R-H7) -------------------------------------

    def can_claim(self, p: int, story: int) -> bool:
        """R-H5: ``p`` meets the requirement, and shows more of its icons than the
        current holder when another player holds it."""
        owner = self.stories[story]
        if owner == p:
            return False
        req = self.cards[story].requires
        for icon, n in req:
            if self.shown_icons(p, (icon,)) < n:
                return False
        if owner >= 0:
            icons = tuple(i for i, _ in req)
            return self.shown_icons(p, icons) > self.shown_icons(owner, icons)
        return True

    def _claim(self, p: int, story: int) -> None:
        owner = self.stories[story]
        old = self.story_of(p)
        if old >= 0:
            self.stories[old] = UNCONTROLLED
            self.emit("story_returned", f"{self.name(old)} returns to the middle.", player=p,
                      card=old)
        self.stories[story] = p
        frm = f" from player {owner + 1}" if owner >= 0 else ""
        self.emit("claim", f"Player {p + 1} claims the Story {self.name(story)}{frm}.",
                  player=p, card=story)
        if not self.game.config.beginner:
            for effect in self.cards[story].effects_when("immediate"):
                self.push_steps(Ctx(p, story, -1, ()), effect.steps)

    def _follow(self, task: Task) -> None:
        """R-H7: after a card resolves on a Character, each Guest whose live persistent
        'follows' matches it joins that Character's family with its whole stack.
        **Decision:** nothing moves when the Character is itself in the middle."""
        if self.over or self.game.config.beginner:
            return
        ctx = task.ctx
        card = self.cards[ctx.card]
        dest = self.controller.get(ctx.target, UNCONTROLLED)
        if dest < 0:
            return
        for g in self.guests:
            if g == ctx.target or self.controller[g] == dest:
                continue
            for effect in self.visible_of(g).live_effects("persistent"):
                if any(st.name == "follows" and st.param.triggered_by(card) for st in effect.steps):
                    old = self.controller[g]
                    self.controller[g] = dest
                    frm = "the middle" if old < 0 else f"player {old + 1}'s family"
                    self.emit("follow", f"{self.name(g)} follows {card.name} from {frm} to "
                              f"player {dest + 1}'s family.", player=dest, card=g,
                              target=ctx.target)
                    break

    def _family_choosers(self) -> list[int]:
        """Seats that choose a family: all, except the fifth seat of a 5-player game
        on four families, who gets the set-aside Characters (R-G8)."""
        order = self.turn_order_from(self.first_player)
        if self.n > len(self.game.deck.families):
            return order[:-1]
        return order

    def _aside_options(self, p: int) -> tuple[int, ...]:
        return tuple(self.codec.choose_card(c) for c in self.families[p])

    def _set_aside(self, p: int, c: int) -> None:
        self.families[p].remove(c)
        del self.stacks[c]
        del self.controller[c]
        self.out_of_game.append(c)
        self.emit("set_aside", f"Player {p + 1} sets {self.name(c)} aside.", player=p, card=c)
        choosers = self._family_choosers()
        i = choosers.index(p)
        if i + 1 < len(choosers):
            q = choosers[i + 1]
            self.decision = Decision(q, SETUP_ASIDE, self._aside_options(q))
            return
        if len(choosers) < self.n:
            # R-G8: the set-aside Characters form the fifth family.
            last = self.turn_order_from(self.first_player)[-1]
            for c2 in list(self.out_of_game):
                if self.cards[c2].type is CardType.CHARACTER and self._was_set_aside(c2):
                    self.out_of_game.remove(c2)
                    self.families[last].append(c2)
                    self.stacks[c2] = Stack((c2,))
                    self.controller[c2] = last
            self.emit("family", f"Player {last + 1} takes the set-aside Characters as "
                      "their family.", player=last)
        self._begin_turn(self.first_player)

    def _was_set_aside(self, c: int) -> bool:
        fam_key = self.cards[c].family
        for f, fam in enumerate(self.game.deck.families):
            if fam.id == fam_key:
                return self.family_taken[f] >= 0
        return False

    # --- turns (R-G11, R-G14) ------------------------------------------------

    def _begin_turn(self, p: int) -> None:
        cap = self.game.config.turn_cap
        while True:
            if cap and self.turn >= cap:
                self.capped = True
                self.emit("cap", f"The table's cap of {cap} turns is "
                          "reached: the game ends and is scored as it stands.")
                self._end_game()
                return
            self.turn += 1
            self.turn_player = p
            self.counted_used = 0
            self.free_plays = []
            if self.skips[p]:
                self.skips[p] -= 1
                self.emit("skipped", f"Player {p + 1} skips this turn.", player=p)
                p = (p + 1) % self.n
                continue
            self._events.append(_turn_event(self.turn, p))
            extra = 0
            if self.game.has_turn_draw:
                extra = sum(st.param for st in self.held_steps(p) if st.name == "turn_draw")
            if extra:
                self.draw(p, extra)
            self.decision = _PLAY[p]
            return

    def _end_turn(self) -> None:
        p = self.turn_player
        want = self.draw_limit(p) - len(self.hands[p])
        if want > 0:
            self.draw(p, want)
        self._begin_turn((p + 1) % self.n)

    def _free_for(self, ctype: CardType) -> str | None:
        for kind in _FREE_FOR[ctype]:
            if kind in self.free_plays:
                return kind
        return None

    def _legal_plays(self) -> list[int]:
        p = self.decision.player
        codec = self.codec
        cards = self.cards
        counted = self.counted_used < 2
        out = [codec.PASS]
        hand = self.hands[p]
        edition = self.game.config.edition
        if counted and hand and edition == 2:
            out.append(codec.DISCARD_HAND)
        # Built in action-id order (ids grow with the card, then the target slot), so
        # the list comes out sorted without sorting the long part of it.
        table = self._table
        if table is None or not table.hold_for(self):
            table = self._table = _TableFacts(self)
        rows = table.rows
        negative: list[int] | None = None
        edition1 = counted and edition == 1
        first = counted and self.counted_used == 0
        free_plays = self.free_plays
        short: list[int] = []  # discard-one and Event ids: below every play id
        plays: list[int] = []
        for c in sorted(hand):
            t = cards[c].type
            free = self._free_for(t) if free_plays else None
            if t is _MODIFIER:
                if counted or free:
                    plays.extend(rows[c])
            elif t is _EVENT:
                if counted or free:
                    short.append(codec.event_base + c)
            elif t is _DEATH and (free or first):
                if negative is None:
                    negative = self._negative_slots(table)
                plays.extend(map(rows.full[c].__getitem__, negative))
            if edition1:
                short.append(codec.discard_one_base + c)
        if short:
            short.sort()
            out.extend(short)
        out.extend(plays)
        if counted and self.stories:
            out.extend(sorted(codec.claim_story(s) for s in self.stories if self.can_claim(p, s)))
        return out

    def _negative_slots(self, table: _TableFacts) -> list[int]:
        """Target slots of the living with negative Self-Worth (R-G11), sorted: looks
        again only at the Characters whose stacks changed since last asked."""
        slot, stacks = self.codec.char_slot, self.stacks
        negative = table.negative
        if negative is None:
            negative = table.negative = set()
            look = table.living
        else:
            look = table.dirty
        for ch in look:
            # A stack's remembered Visible, without a call, when it has one.
            v = getattr(stacks[ch], "vis", None) or self.visible_of(ch)
            if v.self_worth < 0:
                negative.add(slot[ch])
            else:
                negative.discard(slot[ch])
        table.dirty = []
        return sorted(negative)

    def _landed(self, target: int, died: bool, before: int) -> None:
        """A card has just landed on the living ``target`` (an Untimely Death if ``died``);
        ``before`` is ``Stack.changes`` just before it landed. If the table facts held then,
        they hold still once ``target`` leaves the living, or but for its Self-Worth."""
        table = self._table
        if table is None or table.changes != before or target not in table.living:
            return  # worked out afresh when next asked
        table.changes = Stack.changes
        if not died:
            table.dirty.append(target)
            return
        table.living = tuple([c for c in table.living if c != target])
        table.rows = self.codec.play_rows(table.living)
        if table.negative is not None:
            table.negative.discard(self.codec.char_slot[target])
        table.dirty = [c for c in table.dirty if c != target]

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is in :meth:`legal_actions`, without building the list
        (``apply`` asks this on every action). A test holds the two equal."""
        if self.over:
            return False
        d = self.decision
        if d.kind != PLAY:
            if d.kind == SETUP_FAMILY:
                return action in self.legal_actions()
            return action in d.options  # what legal_actions lists for every other kind
        counted = self.counted_used < 2
        codec = self.codec
        if action == codec.PASS:
            return True
        if action == codec.DISCARD_HAND:
            return counted and bool(self.hands[d.player]) and self.game.config.edition == 2
        dec = codec.decode(action)
        kind = dec.kind
        if kind is _CLAIM:
            return counted and dec.card in self.stories and self.can_claim(d.player, dec.card)
        if kind is not _PLAY_ON and kind is not _PLAY_EVENT and kind is not _DISCARD_ONE:
            return False  # not a play at all
        if dec.card not in self.hands[d.player]:
            return False
        if kind is _DISCARD_ONE:
            return counted and self.game.config.edition == 1
        t = self.cards[dec.card].type
        free = self._free_for(t) if self.free_plays else None
        if kind is _PLAY_EVENT:
            return t is _EVENT and (counted or free is not None)
        target = dec.target
        if target not in self.stacks or self.stacks[target][-1] in self.game.deaths:  # dead (R-G23)
            return False
        if t is _MODIFIER:
            return counted or free is not None
        if t is _DEATH:
            return ((free is not None or (counted and self.counted_used == 0))
                    and self.visible_of(target).self_worth < 0)
        return False

    def _why_illegal(self, action: int) -> str:
        d = self.decision
        dec = self.codec.decode(action)
        if d.kind != PLAY:
            return f"player {d.player + 1} must answer a '{d.kind}' decision now"
        p = d.player
        if dec.kind in (Kind.PLAY, Kind.PLAY_EVENT, Kind.DISCARD_ONE) and dec.card not in self.hands[p]:
            return f"{self.name(dec.card)} is not in player {p + 1}'s hand"
        if dec.kind is Kind.PLAY:
            card = self.cards[dec.card]
            if dec.target not in self.stacks:
                return f"{self.name(dec.target)} is not on the table"
            if self.is_dead(dec.target):
                return f"{self.name(dec.target)} is dead: nothing may be played on it (R-G23)"
            if card.type is CardType.UNTIMELY_DEATH:
                if self.self_worth(dec.target) >= 0:
                    return (f"an Untimely Death needs a Character with negative Self-Worth; "
                            f"{self.name(dec.target)} has {self.self_worth(dec.target)} (R-G11)")
                return "an Untimely Death may only be the first play of a turn (R-G11)"
            if card.type is CardType.EVENT:
                return "an Event is played without a target"
        if dec.kind is Kind.CLAIM_STORY:
            if dec.card not in self.stories:
                return f"{self.name(dec.card)} is not a Story in play"
            if self.stories[dec.card] == p:
                return f"player {p + 1} already holds {self.name(dec.card)}"
            if self.counted_used >= 2:
                return "claiming a Story takes one of the two plays, and both are used (R-H4)"
            need = ", ".join(f"{n} {i}" for i, n in self.cards[dec.card].requires)
            owner = self.stories[dec.card]
            more = (f", and more of those icons than player {owner + 1} shows"
                    if owner >= 0 else "")
            return f"{self.name(dec.card)} needs your family to show {need}{more} (R-H5)"
        if dec.kind is Kind.DISCARD_HAND and self.game.config.edition == 1:
            return "1st edition: discard one card instead of the whole hand (R-G12)"
        if dec.kind is Kind.DISCARD_ONE and self.game.config.edition == 2:
            return "2nd edition: discard the whole hand, not one card (R-G11)"
        if self.counted_used >= 2:
            return "both plays are used; only a matching free play or pass remains (R-G13)"
        return "that is not a play here"

    def _play(self, action: int) -> None:
        p = self.turn_player
        dec = self.codec.decode(action)
        kind = dec.kind
        if kind is _PASS:
            if self.counted_used < 2:
                self.counted_used += 1
                self._events.append(_PASS_EVENTS[p])
            else:
                self.free_plays = []
                self.emit("pass", f"Player {p + 1} forgoes their free plays.", player=p)
            return
        if kind is _DISCARD_HAND:
            self.counted_used += 1
            self.discard.extend(self.hands[p])
            self.emit("discard_hand", f"Player {p + 1} discards their hand "
                      f"({len(self.hands[p])} cards).", player=p, amount=len(self.hands[p]))
            self.hands[p] = []
            return
        if kind is _DISCARD_ONE:
            self.counted_used += 1
            self.discard_from_hand(p, dec.card)
            return
        if kind is _CLAIM:
            self.counted_used += 1
            self._claim(p, dec.card)
            return
        c = dec.card
        card = self.cards[c]
        free = self._free_for(card.type) if self.free_plays else None
        if free is not None:
            self.free_plays.remove(free)
        else:
            self.counted_used += 1
        self.hands[p].remove(c)
        self.limbo.append(c)
        if kind is _PLAY_ON:
            target = dec.target
            v = getattr(self.stacks[target], "vis", None) or self.visible_of(target)
            icons = v.icons
            # R-G16: the target's controller resolves; UNCONTROLLED for a Guest in the middle.
            resolver = self.controller[target]
            self._events.append(_play_event(p, c, card.name, target, self.cards[target].name))
        else:
            target, icons, resolver = -1, (), p
            self.emit("play", f"Player {p + 1} plays {card.name}.", player=p, card=c)
        ctx = _new(Ctx, (resolver, c, target, icons))
        self.cancelled = False
        finish = _new(Task, (FINISH_PLAY, ctx, None, (), ()))
        if card.type in self.game.answerable and not self.game.config.beginner:
            self.queue.append(finish)
            self.queue.append(_new(Task, (ASK_RESPONSES, ctx, None, (1,), ())))
        else:  # no response window: the card resolves now, as the queue would do next
            self._finish_play(finish)

    # --- responses (R-G20) ------------------------------------------------------

    def _respond_options(self, q: int, played: int) -> tuple[int, ...]:
        answers = self.game.answers[self.cards[played].type]
        hand = self.hands[q]
        if answers.isdisjoint(hand):  # most hands hold no answer
            return _LET_IT_STAND
        base = self.codec.respond_base
        return (self.codec.PASS, *sorted([base + c for c in hand if c in answers]))

    def _respond(self, d: Decision, action: int) -> None:
        assert d.task is not None
        task = d.task
        if action == self.codec.PASS:
            self._events.append(_LET_STAND_EVENTS[d.player])
            # Ask the next player now, as the task queue would do next.
            self._ask_respond(_new(Task, (task.step, task.ctx, task.param, (task.data[0] + 1,),
                                          task.sub)))
            return
        c = action - self.codec.respond_base
        self.hands[d.player].remove(c)
        self.discard.append(c)
        self.cancelled = True
        self.emit("response", f"Player {d.player + 1} answers with {self.name(c)}: "
                  f"{self.name(task.ctx.card)} is cancelled.", player=d.player, card=c,
                  target=task.ctx.card)

    # --- the effect machine -------------------------------------------------------

    def _resume(self, task: Task, action: int) -> None:
        PRIMITIVES[task.step].handler(self, task, action)  # type: ignore[misc]

    def _run(self) -> None:
        """Run queued tasks until someone is asked a question or the game ends."""
        queue = self.queue
        # (the game's end sets the OVER decision, so this also stops when it ends)
        while self.decision.kind == RUNNING:
            if not queue:
                if self.counted_used < 2 or self.free_plays:  # the turn player may still play
                    self.decision = _PLAY[self.turn_player]
                else:
                    self._end_turn()
                continue
            task = queue.pop()
            own = _ENGINE_STEPS.get(task.step)
            if own is not None:
                own(self, task)
            else:
                PRIMITIVES[task.step].handler(self, task, None)  # type: ignore[misc]

    def _discard_event(self, task: Task) -> None:
        """R-G16: an Event goes to the discard pile once its effects are resolved."""
        self.limbo.remove(task.ctx.card)
        self.discard.append(task.ctx.card)

    def _ask_respond(self, task: Task) -> None:
        """Ask the next other player in turn order. **Decision:** every other player
        is asked, with or without a response in hand, so nobody can tell who holds
        one; clients may answer a lone 'pass' themselves."""
        idx = task.data[0]
        if self.cancelled or idx >= self.n:
            return
        q = (self.turn_player + idx) % self.n
        self.decision = _new(Decision, (q, RESPOND, self._respond_options(q, task.ctx.card), task))

    def _finish_play(self, task: Task) -> None:
        ctx = task.ctx
        card = self.cards[ctx.card]
        if self.cancelled:
            self.cancelled = False
            self.limbo.remove(ctx.card)
            self.discard.append(ctx.card)
            return
        beginner = self.game.config.beginner
        if card.type is _EVENT:
            # R-G16: an Event is resolved by its player, then discarded.
            self.queue.append(Task(DISCARD_EVENT, ctx, None))
        else:
            self.limbo.remove(ctx.card)
            before = Stack.changes
            self.stacks[ctx.target].append(ctx.card)
            self._landed(ctx.target, card.type is _DEATH, before)
            if card.type is _DEATH:
                owner = self.controller[ctx.target]
                self.emit("death", f"{self.name(ctx.target)} dies: {card.name}.",
                          card=ctx.card, target=ctx.target, player=owner if owner >= 0 else None)
                if self._check_end():
                    return
            if self.guests:
                self.queue.append(Task(FOLLOW, ctx, None))  # after the effects (R-H7)
        if ctx.resolver < 0:
            return  # **Decision:** nobody resolves a card played on a Guest in the middle
        if not beginner:
            for effect in card.effects:
                if effect.when == "immediate":
                    self.push_steps(ctx, effect.steps)

    def _check_end(self) -> bool:
        """R-G24: the game ends the instant the last living Character of any family dies."""
        stacks, deaths = self.stacks, self.game.deaths
        for fam in self.families:
            for c in fam:
                if stacks[c][-1] not in deaths:
                    break  # someone in this family lives
            else:
                if fam:
                    self._end_game()
                    return True
        return False

    def _end_game(self) -> None:
        self.over = True
        self.queue.clear()
        self.discard.extend(self.limbo)
        self.limbo.clear()
        self.decision = Decision(TERMINAL, OVER)
        res = self.result()
        names = ", ".join(f"player {w + 1}" for w in res.winners)
        self.emit("game_over", f"The game is over. Family Values: "
                  f"{', '.join(str(s) for s in res.scores)}. Winner: {names}.")

    # --- reading ------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        codec = self.codec
        if not 0 <= action < codec.size:
            return f"<invalid action {action}>"
        dec = codec.decode(action)
        d = self.decision
        if dec.kind is Kind.PASS:
            if d.kind == RESPOND:
                return "let it stand (no response)"
            return "pass" if self.counted_used < 2 else "end the turn (forgo free plays)"
        if dec.kind is Kind.DISCARD_HAND:
            return "discard your whole hand"
        if dec.kind is Kind.CHOOSE_FAMILY:
            fams = self.game.deck.families
            return f"take the family {fams[dec.index].name}" if dec.index < len(fams) else "?"
        if dec.kind is Kind.CHOOSE_PLAYER:
            return f"choose player {dec.index + 1}"
        if dec.kind is Kind.CHOOSE_CARD:
            verb = {"discard": "discard", SETUP_ASIDE: "set aside"}.get(d.kind, "choose")
            return f"{verb} {self.describe_card(dec.card)}"
        if dec.kind is Kind.RESPOND:
            return f"respond with {self.name(dec.card)}"
        if dec.kind is Kind.DISCARD_ONE:
            return f"discard {self.name(dec.card)}"
        if dec.kind is Kind.PLAY_EVENT:
            return f"play the Event {self.name(dec.card)}"
        if dec.kind is Kind.CLAIM_STORY:
            return f"claim the Story {self.name(dec.card)}"
        return f"play {self.describe_card(dec.card)} on {self.describe_card(dec.target)}"

    def action_parts(self, action: int) -> tuple[str, str, int] | None:
        """A play on a Character as (what, on whom, whose seat), so clients can ask
        in two steps and list the targets family by family."""
        dec = self.codec.decode(action)
        if dec.kind is not Kind.PLAY:
            return None
        return (f"play {self.describe_card(dec.card)}", self.describe_card(dec.target),
                self.controller[dec.target])

    def describe_card(self, c: int) -> str:
        card = self.cards[c]
        if card.type in (CardType.CHARACTER, CardType.GUEST):
            if c in self.stacks:
                owner = self.controller[c]
                whose = "in the middle" if owner < 0 else f"player {owner + 1}"
                return f"{card.name} ({self.self_worth(c):+d}, {whose})"
            return card.name
        pts = [p for p in card.points if p is not None]
        return f"{card.name} ({', '.join(f'{p:+d}' for p in pts)})" if pts else card.name

    def view(self, player: int | None) -> dict[str, Any]:
        from gloomtable.games.gloom.view import build_view

        return build_view(self, player)

    def render(self, player: int | None) -> str:
        from gloomtable.games.gloom.render import render_text

        return render_text(self, player)


_ENGINE_STEPS: dict[str, Callable[[GloomState, Task], None]] = {
    FINISH_PLAY: GloomState._finish_play,
    ASK_RESPONSES: GloomState._ask_respond,
    DISCARD_EVENT: GloomState._discard_event,
    FOLLOW: GloomState._follow,
}
"""The engine's own queued steps, by name (anything else is an effect primitive)."""
