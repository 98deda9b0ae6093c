"""The table of one Gloom game: every field of a state, what the table shows, and the
card moves the rules and the effect primitives make.

Rules here: R-G4 (the cardinal rule: what shows on a stack), R-G9 (drawing, and the
discard pile reshuffled when the draw pile runs out), R-G23 (dead while an Untimely
Death is on top), R-H5 (icons a family shows), R-H7 (a family is its Characters and
the Guests that joined it). The rules by section live beside this module; the state
(:mod:`gloomtable.games.gloom.state`) is this table plus its protocol.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from gloomtable.engine import Event, Rng
from gloomtable.games.gloom.actions import Codec, PlayRows
from gloomtable.games.gloom.cards import Card, CardType, Step, Visible, visible
from gloomtable.games.gloom.stack import Stack, StackTable
from gloomtable.games.gloom.tasks import Ctx, Decision, Task, new

if TYPE_CHECKING:
    from gloomtable.games.gloom.facts import GloomFacts


@lru_cache(maxsize=4096)
def _draw_event(p: int, c: int, name: str) -> Event:
    """Player ``p`` draws card ``c`` (named ``name``): the card only for ``p``'s eyes."""
    return Event("draw", f"Player {p + 1} draws {name}.", p, c, private_to=p,
                 public_text=f"Player {p + 1} draws a card.")


_ONLY_STACKS = frozenset([Stack])


class TableFacts:
    """What every play decision asks of the table: who lives, the play ids on them, and
    who has negative Self-Worth. Worked out again whenever the table may have changed.

    They hold while no stack has changed (``Stack.changes``: every change to a Stack or to
    the StackTable counts, whoever makes it), the stacks are the same StackTable and the
    families and Guests are as they were. When the engine itself lays a card on a living
    Character, they are kept up (see :func:`rules.resolving.landed`): a death takes it out
    of the living, any other card leaves only its Self-Worth to look at again (``dirty``)."""

    __slots__ = ("changes", "dirty", "families", "guests", "living", "negative", "rows", "stacks")

    def __init__(self, state: Board) -> None:
        stacks = self.stacks = state.stacks
        self.families = [list(f) for f in state.families]
        self.guests = list(state.guests)
        self.living = tuple(state.find_living())
        self.rows: PlayRows = state.codec.play_rows(self.living)
        self.negative: set[int] | None = None
        """Target slots with negative Self-Worth, once asked."""
        self.dirty: list[int] = []
        """Living Characters whose Self-Worth may have changed since ``negative``."""
        # Changes to plain lists or dicts would go uncounted: then these facts hold once.
        counted = type(stacks) is StackTable and _ONLY_STACKS.issuperset(map(type, stacks.values()))
        self.changes = Stack.changes if counted else -1

    def hold_for(self, state: Board) -> bool:
        """Whether these facts are still true of ``state``."""
        return (self.changes == Stack.changes and self.stacks is state.stacks
                and self.families == state.families and self.guests == state.guests)


class Board:
    """Every field of one position, what shows on the table, and the card moves."""

    __slots__ = (
        "cancelled",
        "capped",
        "cards",
        "codec",
        "controller",
        "counted_used",
        "decision",
        "discard",
        "draw_pile",
        "events",
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
        "table",
        "turn",
        "turn_player",
    )

    game: GloomFacts
    cards: tuple[Card, ...]
    codec: Codec
    n: int
    rng: Rng
    hands: list[list[int]]
    discard: list[int]
    draw_pile: list[int]
    stacks: dict[int, list[int]]
    """Character (or Guest) -> its cards, bottom first (a :class:`StackTable` of
    :class:`Stack`; views and determinized states may hold plain lists)."""
    controller: dict[int, int]
    families: list[list[int]]
    guests: list[int]
    """Guests in play; their controller may be UNCONTROLLED."""
    stories: dict[int, int]
    """Story in play -> controller or UNCONTROLLED."""
    family_taken: list[int]
    """Family -> the seat that took it, or -1."""
    out_of_game: list[int]
    limbo: list[int]
    """Cards being played or resolved."""
    free_plays: list[str]
    skips: list[int]
    queue: list[Task]
    cancelled: bool
    counted_used: int
    turn: int
    over: bool
    capped: bool
    first_player: int
    turn_player: int
    decision: Decision
    events: list[Event]
    """What the action being applied has done so far (``apply`` returns it)."""
    table: TableFacts | None

    # --- what shows (the cardinal rule decides everything) --------------------

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
            return v  # type: ignore[no-any-return]
        below = getattr(stack, "below", None)
        if below is not None:
            v = stack.vis = below.on_top(self.cards[stack[-1]])  # type: ignore[attr-defined]
            return v  # type: ignore[no-any-return]
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
        table = self.table
        if table is not None and table.hold_for(self):
            return list(table.living)
        return self.find_living()

    def find_living(self) -> list[int]:
        """:meth:`living_characters` worked out afresh."""
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

    def turn_order_from(self, p: int) -> list[int]:
        return [(p + i) % self.n for i in range(self.n)]

    def name(self, c: int) -> str:
        return self.cards[c].name

    # --- news and questions ------------------------------------------------------

    def emit(self, kind: str, text: str, player: int | None = None, card: int | None = None,
             target: int | None = None, amount: int | None = None, private_to: int | None = None,
             public_text: str | None = None) -> None:
        self.events.append(new(Event, (kind, text, player, card, target, amount, private_to,
                                       public_text)))

    def ask(self, player: int, kind: str, options: list[int], task: Task) -> None:
        self.decision = Decision(player, kind, tuple(options), task)

    def push_steps(self, ctx: Ctx, steps: tuple[Step, ...]) -> None:
        """Queue ``steps`` to run next, in printed order (R-G15)."""
        for step in reversed(steps):
            self.queue.append(new(Task, (step.name, ctx, step.param, (), step.steps)))

    # --- card moves (the effect primitives make them) ----------------------------

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
            self.events.append(_draw_event(p, c, self.cards[c].name))
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

    def put_stack(self, c: int, owner: int) -> None:
        """``c`` (a Character or Guest) comes to the table as a stack of itself."""
        self.stacks[c] = Stack((c,))
        self.controller[c] = owner

