"""The table of one Gloom game: every field of a state, what the table shows, and the
card moves the rules and the effect primitives make.

Rules here: R-G4 (the cardinal rule: what shows on a stack), R-G9 (drawing, and the
discard pile reshuffled when the draw pile runs out), R-G23 (dead while an Untimely
Death is on top), R-H5 (icons a family shows), R-H7 (a family is its Characters and
the Guests that joined it). The rules by section live beside this module; the state
(:mod:`gloomtable.games.gloom.state`) is this table plus its protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import gloomtable.games.gloom.messages as M
from gloomtable.engine import DecisionKind, Event, Msg, Rng
from gloomtable.games.gloom.actions import Codec
from gloomtable.games.gloom.cards import SHIFTING, Card, CardType, Step, Visible
from gloomtable.games.gloom.play_facts import PlayFacts
from gloomtable.games.gloom.seen import Seen
from gloomtable.games.gloom.tasks import DECISION, EVENT, TASK, Ctx, Decision, Task, new

if TYPE_CHECKING:
    from gloomtable.games.gloom.facts import GloomFacts


_MODIFIER: Final = CardType.MODIFIER  # (an enum member read off its class is a slow lookup)
_SHIFTING: Final = SHIFTING  # whether any card shifts Self-Worth (cards.SHIFTING)


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
        "direction",
        "discard",
        "draw_pile",
        "events",
        "facts",
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
        "seen",
        "skips",
        "stacks",
        "stories",
        "turn",
        "turn_player",
    )

    game: GloomFacts
    facts: PlayFacts
    """``game.play_facts``: what the rules read of the game on every action (read there,
    the compiled build reads it straight; see :mod:`~gloomtable.games.gloom.play_facts`)."""
    cards: tuple[Card, ...]
    codec: Codec
    n: int
    rng: Rng
    hands: list[list[int]]
    discard: list[int]
    draw_pile: list[int]
    stacks: dict[int, list[int]]
    """Character (or Guest) -> its cards, bottom first. Change a stack only through the
    moves below (``lay``, ``lift_top``, ``lift``, ``put_stack``, ``drop_stack``): they
    keep ``seen`` true. A new dict, or a new list put in by hand, is seen afresh."""
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
    direction: int
    """1, or -1 once the turn order is reversed (``reverse_order``)."""
    events: list[Event]
    """What the action being applied has done so far (``apply`` returns it)."""
    seen: Seen
    """What the table shows, kept (every speed cache of this state, see :mod:`seen`)."""

    # --- what shows (the cardinal rule decides everything) --------------------

    @property
    def rounds(self) -> int:
        """Rounds begun: every player's turn counts once per round."""
        return (self.turn + self.n - 1) // self.n

    def visible_of(self, char: int) -> Visible:
        """The cardinal rule on ``char``'s stack (the same cards in the same order always
        show the same): kept in ``seen`` while the stack stays as it was, built on what
        showed before the last card laid, else asked of the game's memo of stacks."""
        stack = self.stacks[char]
        seen = self.seen
        if seen.stacks is not self.stacks:
            seen = self.seen = Seen(self.stacks)
        if seen.lists.get(char) is stack:
            v = seen.shown.get(char)
            if v is not None:
                return v
            below = seen.below.pop(char, None)
            if below is not None:
                v = seen.shown[char] = below.on_top(self.cards[stack[-1]])
                return v
        else:
            seen.lists[char] = stack
            seen.below.pop(char, None)
        v = seen.shown[char] = self.facts.stack_visible(tuple(stack))
        return v

    def self_worth(self, char: int) -> int:
        """R-G5 on ``char``'s stack: :meth:`visible_of`'s Self-Worth. When only the card
        laid last is new since ``seen`` last looked, it is worked out from what showed
        below it (the regions that card prints take its points), without building the
        whole :class:`Visible` until something asks for it."""
        seen = self.seen
        stack = self.stacks[char]
        if seen.stacks is self.stacks and seen.lists.get(char) is stack:
            v = seen.shown.get(char)
            if v is not None:
                return v.self_worth
            below = seen.below.get(char)
            if below is not None and not _SHIFTING[0]:
                top, mid, bottom = below.points
                card = self.cards[stack[-1]]
                prints, points = card.prints, card.points
                if prints[0]:
                    top = points[0]
                if prints[1]:
                    mid = points[1]
                if prints[2]:
                    bottom = points[2]
                return (top or 0) + (mid or 0) + (bottom or 0)
        return self.visible_of(char).self_worth

    def is_dead(self, char: int) -> bool:
        """R-G23: dead while an Untimely Death is on top."""
        return self.stacks[char][-1] in self.facts.deaths

    def living_characters(self) -> list[int]:
        """Every living target on the table: the families' Characters, then the Guests
        (controlled or in the middle, R-H6)."""
        seen = self.seen
        if seen.stacks is self.stacks and seen.hold(self.families, self.guests):
            return list(seen.living or ())
        return self.find_living()

    def find_living(self) -> list[int]:
        """:meth:`living_characters` worked out afresh."""
        deaths, stacks = self.facts.deaths, self.stacks
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
        out = list(self.families[p])
        controller = self.controller
        for g in self.guests:  # (a loop: a comprehension's closure costs every call)
            if controller[g] == p:
                out.append(g)
        return out

    def living_of(self, p: int) -> list[int]:
        deaths, stacks = self.facts.deaths, self.stacks
        return [c for c in self.members(p) if stacks[c][-1] not in deaths]

    def top_modifier(self, char: int) -> int:
        """The top card of a living Character's stack if it is a Modifier, else -1."""
        top = self.stacks[char][-1]
        return top if self.cards[top].type is _MODIFIER else -1

    def count_icons(self, p: int, icon: str) -> int:
        """Visible ``icon`` among ``p``'s living Characters (and Guests)."""
        total = 0
        for c in self.living_of(p):  # (a loop: a generator's closure costs every call)
            total += self.visible_of(c).icons.count(icon)
        return total

    def shown_icons(self, p: int, icons: tuple[str, ...] | list[str]) -> int:
        """R-H5: how many of ``icons`` ``p``'s family shows, living or dead."""
        total = 0
        for c in self.members(p):
            for i in self.visible_of(c).icons:
                if i in icons:
                    total += 1
        return total

    def story_of(self, p: int) -> int:
        """The Story ``p`` controls, or -1 (one at a time, R-H5)."""
        for story, owner in self.stories.items():
            if owner == p:
                return story
        return -1

    def turn_order_from(self, p: int) -> list[int]:
        """Every seat once, from ``p`` on in turn order."""
        n = self.n
        if self.direction == 1:
            return [*range(p, n), *range(p)]
        return [(p - i) % n for i in range(n)]

    def name(self, c: int) -> str:
        return self.cards[c].name

    # --- news and questions ------------------------------------------------------

    def emit(self, kind: str, msg: Msg, args: tuple[Any, ...] = (), player: int | None = None,
             card: int | None = None, target: int | None = None, amount: int | None = None,
             private_to: int | None = None, public_msg: Msg | None = None,
             public_args: tuple[Any, ...] = ()) -> None:
        """Tell what happened: a message and its arguments (no text is made here)."""
        self.events.append(new(EVENT, (kind, msg, args, player, card, target, amount, private_to,
                                       public_msg, public_args, self.game)))

    def ask(self, player: int, kind: DecisionKind, options: list[int], task: Task) -> None:
        self.decision = new(DECISION, (player, kind, tuple(options), task))

    def push_steps(self, ctx: Ctx, steps: tuple[Step, ...]) -> None:
        """Queue ``steps`` to run next, in printed order (R-G15)."""
        for step in reversed(steps):
            self.queue.append(new(TASK, (step.name, ctx, step.param, (), step.steps)))

    # --- card moves (the effect primitives make them) ----------------------------

    def draw(self, p: int, n: int) -> int:
        """Draw ``n`` cards, reshuffling the discard pile when the draw pile runs
        out (R-G9); if both are empty the draw simply stops. Returns cards drawn."""
        hand, events, mine = self.hands[p], self.events, self.facts.draw_events[p]
        pile = self.draw_pile
        drawn = 0
        while drawn < n:
            if not pile:
                if not self.discard:
                    break
                pile = self.draw_pile = self.discard
                self.discard = []
                self.rng.shuffle(pile)
                events.append(self.facts.reshuffle_event)
            c = pile.pop()
            hand.append(c)
            events.append(mine[c])
            drawn += 1
        return drawn

    def discard_from_hand(self, p: int, c: int) -> None:
        self.hands[p].remove(c)
        self.discard.append(c)
        self.emit("discard", M.DISCARD, (p, c), player=p, card=c)

    def grant_free_play(self, kind: str) -> None:
        self.free_plays.append(kind)
        self.emit("free_play", M.FREE_PLAY, (self.turn_player, kind), player=self.turn_player)

    def move_top_modifier(self, src: int, dst: int, by: int) -> None:
        m = self.lift_top(src)
        self.lay(dst, m)
        self.emit("move", M.MOVE, (m, src, dst),
                  player=by, card=m, target=dst)

    def return_top_modifier(self, char: int, to: int, by: int) -> None:
        m = self.lift_top(char)
        self.hands[to].append(m)
        self.emit("return", M.RETURN, (m, char, to), player=by, card=m, target=char)

    def remove_top_modifier(self, char: int, by: int) -> None:
        m = self.lift_top(char)
        self.discard.append(m)
        self.emit("remove", M.REMOVE, (m, char),
                  player=by, card=m, target=char)

    def revive(self, char: int, by: int) -> None:
        death = self.lift_top(char)
        self.discard.append(death)
        self.emit("revive", M.REVIVE, (char,), player=by,
                  card=death, target=char)

    def steal(self, p: int, victim: int, n: int) -> None:
        for _ in range(min(n, len(self.hands[victim]))):
            c = self.hands[victim].pop(self.rng.below(len(self.hands[victim])))
            self.hands[p].append(c)
            self.emit("steal", M.STEAL, (p, c, victim), player=p, card=c, target=victim,
                      private_to=p, public_msg=M.STEAL_HIDDEN, public_args=(p, victim))

    def swap_hands(self, p: int, q: int) -> None:
        self.hands[p], self.hands[q] = self.hands[q], self.hands[p]
        self.emit("swap", M.SWAP, (p, q), player=p, target=q)

    def skip_next_turn(self, p: int, by: int) -> None:
        self.skips[p] += 1
        self.emit("skip", M.SKIP, (p,), player=by, target=p)

    # --- the richer card language's moves (docs/decks.md) -------------------------

    def modifiers_on(self, char: int) -> list[int]:
        """The cards above ``char`` on its stack, bottom first."""
        return self.stacks[char][1:]

    def change_family(self, char: int, to: int, by: int) -> None:
        """A Character leaves its family for player ``to``'s, with its whole stack."""
        old = self.controller[char]
        self.families[old].remove(char)
        self.families[to].append(char)
        self.controller[char] = to
        self._seen().regrouped(char)
        self.emit("change_family", M.CHANGE_FAMILY, (char, to), player=by, card=char, target=to)

    def move_stack(self, src: int, dst: int, by: int) -> None:
        """Every card above ``src`` moves onto ``dst``, keeping their order."""
        moved = []
        while len(self.stacks[src]) > 1:
            moved.append(self.lift_top(src))
        for m in reversed(moved):
            self.lay(dst, m)
        self.emit("move_stack", M.MOVE_STACK, (src, dst), player=by, card=src, target=dst,
                  amount=len(moved))

    def take_from_hand(self, p: int, victim: int, c: int) -> None:
        """``p`` takes the card ``c`` they chose from ``victim``'s hand."""
        self.hands[victim].remove(c)
        self.hands[p].append(c)
        self.emit("steal", M.STEAL, (p, c, victim), player=p, card=c, target=victim,
                  private_to=p, public_msg=M.STEAL_HIDDEN, public_args=(p, victim))

    def give(self, p: int, to: int, c: int) -> None:
        """``p`` gives ``c`` from their hand to ``to``."""
        self.hands[p].remove(c)
        self.hands[to].append(c)
        self.emit("give", M.GIVE, (p, c, to), player=p, card=c, target=to, private_to=p,
                  public_msg=M.GIVE_HIDDEN, public_args=(p, to))

    def take_back(self, p: int, c: int) -> None:
        """``p`` takes ``c`` from the discard pile into their hand."""
        self.discard.remove(c)
        self.hands[p].append(c)
        self.emit("take_back", M.TAKE_BACK, (p, c), player=p, card=c)

    # --- the only ways to change a stack (they keep ``seen`` true) -----------------

    def _seen(self) -> Seen:
        seen = self.seen
        if seen.stacks is not self.stacks:
            seen = self.seen = Seen(self.stacks)
        return seen

    def lay(self, c: int, card: int) -> None:
        """``card`` lands on top of ``c``'s stack."""
        stack = self.stacks[c]
        stack.append(card)
        seen = self.seen
        if seen.stacks is not self.stacks:  # (_seen, inlined: every play lays a card)
            seen = self._seen()
        seen.laid(c, stack, card in self.facts.deaths, self.codec.char_slot[c])

    def lift_top(self, c: int) -> int:
        """The top card of ``c``'s stack leaves it (and is returned)."""
        card = self.stacks[c].pop()
        self._seen().lifted(c, True)
        return card

    def lift(self, c: int, card: int) -> None:
        """``card`` leaves ``c``'s stack, wherever it is in it."""
        self.stacks[c].remove(card)
        self._seen().lifted(c, False)

    def put_stack(self, c: int, owner: int) -> None:
        """``c`` (a Character or Guest) comes to the table as a stack of itself."""
        self.stacks[c] = [c]
        self.controller[c] = owner
        seen = self.seen
        if seen.stacks is not self.stacks:  # (_seen, inlined: a whole family comes at once)
            seen = self._seen()
        seen.regrouped(c)

    def drop_stack(self, c: int) -> None:
        """``c``'s stack leaves the table (a Character set aside, R-G8)."""
        del self.stacks[c]
        del self.controller[c]
        self._seen().regrouped(c)
