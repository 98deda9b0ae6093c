"""A table's game as plain data, and the checks a move goes through, in order.

``TableCore`` is the part of a live table that only computes: the game, its state
and state id, the seats (tokens, kinds, names), the log, a lesson's steps, and the
move's way through them: who may act, a stale state id, legality, the lesson's step;
then the action applied to a copy (``play``), and once the shell has stored it, the
copy made current and its log lines recorded (``commit``). It reads no clock (the
time is an argument where a rule needs it), opens no socket, writes no store and
awaits nothing, so tests drive it move by move with real games and no server
(tests/test_table_core.py).

``server/table.py``'s ``LiveTable`` is the shell around it: what waits (the store's
write, which comes before anyone sees the move, sockets and their mailboxes, bots'
thinking, timers, response windows' pauses, presence on other processes).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gloomtable.engine import Event, Game, GloomtableError, State
from gloomtable.games import make_game, registry
from gloomtable.i18n.events import render as render_event
from gloomtable.i18n.narration_text import tell
from gloomtable.i18n.web import localize_state
from gloomtable.learn import LEARNER, StepTracker, lesson_for
from gloomtable.server.errors import ServerError
from gloomtable.server.names import check_seat_name
from gloomtable.server.options import TableOptions
from gloomtable.server.present import catalogue, choices
from gloomtable.server.store_rows import SeatRow, TableRow
from gloomtable.server.window import ResponseWindow, is_respond

TOKEN_MAX = 128
"""Characters a seat token may have (ours have 24); anything longer is no token of ours."""
LOG_KEEP = 400
"""Log entries a fresh connection receives (the newest)."""


def same_token(ours: str, theirs: str | None) -> bool:
    """Whether ``theirs`` is the token ``ours``, in constant time. Any text may come
    from a client (non-ASCII, lone surrogates, megabytes): it is simply not ours."""
    if not ours or not isinstance(theirs, str) or not theirs.isascii() or len(theirs) > TOKEN_MAX:
        return False
    return hmac.compare_digest(ours.encode("ascii"), theirs.encode("ascii"))


@dataclass
class LogEntry:
    index: int
    event: Event | None = None
    narration: str | None = None
    """A person's words, or a bot's told line as data (``bots/narration.py``)."""
    seat: int | None = None

    actor: str = "person"
    """Who made the play: ``person``, ``bot`` (a bot's seat), ``stand_in`` (a bot for an
    absent person) or ``timeout`` (a bot when the turn timer ran out)."""
    game: Any = None
    """The table's game, whose deck a bot's told line names cards from."""

    def for_viewer(self, viewer: int | None, lang: str = "en") -> dict[str, Any]:
        """The entry as ``viewer`` may see it; an event's line rendered in ``lang``."""
        if self.event is None:
            return {"i": self.index, "kind": "narration", "player": self.seat,
                    "text": tell(self.game, self.narration, lang), "actor": self.actor}
        ev = self.event.for_player(viewer)
        out: dict[str, Any] = {"i": self.index, "kind": ev.kind, "text": render_event(ev, lang)}
        if ev.player is not None:
            out["player"] = ev.player
        return out


@dataclass(frozen=True, slots=True)
class Accepted:
    """A person's action that passed every check: an answer to the open response
    window (kept there), or a move, and whether it does the lesson's step."""

    answer: bool = False
    lesson_step: bool = False


MOVE = Accepted()
ANSWER = Accepted(answer=True)


@dataclass(slots=True)
class Played:
    """An action applied to a copy of the state, not yet current: the shell stores
    it, then hands it to ``commit`` (or drops it if the store refused)."""

    index: int
    action: int
    seat: int
    actor: str
    narration: str | None
    state: State
    events: list[Event]
    lesson_step: bool = False


def answer_results(window: ResponseWindow, outcome: Mapping[int, tuple[str, int | None]]
                   ) -> dict[int, tuple[int, str, int | None]]:
    """What became of each answer a person gave the window from a page, by seat:
    (the answer, the result, the index it was stored at). ``outcome``: the seats the
    engine took, each ``stored`` (at its index) or ``unconfirmed`` (the database did
    not answer in time; the table shows what it holds once it does). Any other person
    who answered was ``not_asked`` if a seat before it responded (R-G20: that response
    cancelled the card; the answer is not used and a response card stays in the hand),
    else ``not_taken`` (the window ended before it reached the seat: another process
    moved the table on first, or the database was busy; the next state says where the
    table is)."""
    cancelled = any(r == "stored" and window.answers.get(p, (window.stand, ""))[0] != window.stand
                    for p, (r, _i) in outcome.items())
    out: dict[int, tuple[int, str, int | None]] = {}
    for q, (action, actor) in window.answers.items():
        if actor != "person":
            continue
        if q in outcome:
            out[q] = (action, *outcome[q])
        else:
            out[q] = (action, "not_asked" if cancelled else "not_taken", None)
    return out


class TableCore:
    """One table's game, seats and log; every method answers at once."""

    def __init__(self, row: TableRow, game: Game, state: State) -> None:
        self.row = row
        self.game = game
        self.state = state
        """Replaced by a new state on every move, never changed in place (a bot thinking
        in another thread may be reading the old one)."""
        self.options = row.options
        self.settings = TableOptions.stored(row.options)
        """``options`` typed, each missing key at the model's default (read once)."""
        self.entries: list[LogEntry] = []
        self.broken: str | None = None
        self.lesson: StepTracker | None = None
        """A guided first game (``gloom learn`` in the browser): the learner's steps."""
        lesson = row.options.get("lesson")
        if isinstance(lesson, str):
            self.lesson = StepTracker(lesson_for(lesson))
        self._catalogue: dict[str, Any] | None = None

    @classmethod
    def replay(cls, row: TableRow) -> TableCore:
        """Build the game and replay the stored actions; a record that no longer
        replays leaves the table readable but marked broken (its actions from the
        first that fails are dropped from ``row``), never raises."""
        game = make_game(row.game, row.config)
        state = game.new_initial_state(row.seed)
        core = cls(row, game, state)
        for i, action in enumerate(row.actions):
            try:
                if state.is_over() or action not in state.legal_actions():
                    raise GloomtableError(f"action {action} is not legal there")
                if core.lesson is not None:
                    core.lesson.replayed(state, action, row.actors[i][0])
                events = state.apply(action)
            except GloomtableError as exc:
                core.broken = f"the stored action #{i} does not replay: {exc}"
                del row.actions[i:], row.actors[i:]
                break
            core.record(i, events, row.narration.get(i), row.actors[i][0], row.actors[i][1])
        return core

    # --- reading -----------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state_id(self) -> int:
        """The number of actions applied: the client's proof that it saw the current state."""
        return len(self.row.actions)

    @property
    def over(self) -> bool:
        return self.state.is_over()

    @property
    def seat_rows(self) -> list[SeatRow]:
        return self.row.seats

    def seat_for_token(self, token: str | None) -> int | None:
        """The person seat whose token this is, or None (a spectator, or no token of ours)."""
        if not token:
            return None
        for seat in self.row.seats:
            if seat.kind == "person" and same_token(seat.token, token):
                return seat.seat
        return None

    def is_open_seat(self, index: int) -> bool:
        """Whether the seat was created open: taken with the lobby's Join, not by an invite."""
        return index in self.options.get("open_seats", ())

    @property
    def fixed_deal(self) -> bool:
        """The creator chose the shuffle (only where the server allows it): everyone is told."""
        return bool(self.options.get("fixed_deal"))

    @property
    def response_pause(self) -> float | None:
        """Seconds of the table's one response pause per card, or None where the engine's
        questions are asked one at a time (a lesson's steps were written that way)."""
        if self.lesson is not None:
            return None
        return self.settings.response_pause_ms / 1000

    def timer_for(self, state: State) -> float | None:
        """Seconds the turn timer gives ``state``'s decision, if a person holds it and
        the table has one (the shell adds them to its clock)."""
        timer = self.settings.turn_timer
        if self.response_pause is not None and is_respond(state):
            return None  # the window's own pause is its timer
        if timer and not state.is_over() and not self.broken \
                and self.row.seats[state.current_player()].kind == "person":
            return float(timer)
        return None

    def stand_in_due(self, index: int, connected: bool, absent_since: float | None, now: float) -> bool:
        """Whether a bot plays for the person of seat ``index``: no page of theirs is
        open, they have been gone ``absent_after`` seconds by ``now``, and the table
        allows stand-ins."""
        if self.row.seats[index].kind != "person" or not self.settings.replace_absent or connected:
            return False
        return absent_since is not None and now - absent_since >= self.settings.absent_after

    def summary(self, public_seats: list[dict[str, Any]]) -> dict[str, Any]:
        """What the table page and its API show: nobody's token, nobody's cards, and the
        deal's seed only once the game is over (so the record replays, and nobody
        playing can know the shuffle). ``public_seats``: the seats with their presence."""
        entry = registry.entry(self.row.game)  # the page's board and title, from the registry
        return {"id": self.id, "game": self.row.game, "board": entry.board, "title": entry.title,
                "config": self.game.config_dict(),
                "options": self.options, "listed": self.row.listed, "seats": public_seats,
                "open_seats": self.open_seat_count(), "fixed_deal": self.fixed_deal,
                "seed": self.row.seed if self.over else None,
                "state_id": self.state_id, "over": self.over, "next_table": self.row.next_table,
                "broken": self.broken, "response_pause": self.response_pause}

    def open_seat_count(self) -> int:
        return sum(1 for s in self.row.seats if self.is_open_seat(s.seat) and not s.claimed)

    def catalogue(self) -> dict[str, Any]:
        """The printed faces of the deck's cards (served over HTTP, not the websocket,
        so a seat's traffic names no card it cannot see)."""
        if self._catalogue is None:
            self._catalogue = catalogue(self.game)
        return self._catalogue

    def state_message(self, seat: int | None, lang: str, log_start: int, *, seats: list[dict[str, Any]],
                      deadline: float | None, window: ResponseWindow | None,
                      view_cache: dict[int | None, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The state as ``seat`` (None: a spectator) may see it, in ``lang``: its view,
        its choices only while it decides, the log from ``log_start`` through
        ``Event.for_player``. ``view_cache``: one broadcast's views by seat."""
        cache = view_cache if view_cache is not None else {}
        state = self.state
        if seat not in cache:
            cache[seat] = state.view(seat)
        over = state.is_over()
        w = window
        deciding = not over and seat is not None and state.current_player() == seat
        if w is not None:  # everyone asked answers at once: the same prompt for each
            deciding = seat is not None and seat in w.states and not w.answered(seat)
        if not deciding:
            shown: list[dict[str, Any]] = []
        elif w is not None and seat is not None:
            shown = choices(self.row.game, w.states[seat], w.options[seat])
        else:
            shown = choices(self.row.game, state, state.legal_actions())
        msg: dict[str, Any] = {
            "type": "state", "table": self.id, "state_id": self.state_id, "seat": seat,
            "view": cache[seat],
            "choices": shown,
            "deciding": None if over else state.current_player(),
            "seats": seats, "deadline": deadline,
            "log_start": log_start, "log": [e.for_viewer(seat, lang) for e in self.entries[log_start:]],
            "over": over, "next_table": self.row.next_table, "broken": self.broken,
        }
        if w is not None:
            msg["window"] = {"seats": w.seats, "opened": w.ends - w.pause, "ends": w.ends,
                             "answered": seat is not None and w.answered(seat)}
            if seat is not None and w.answered(seat):  # the seat's own answer, as the table holds it
                msg["window"]["answer"] = w.answers[seat][0]
        if self.lesson is not None and seat == LEARNER:
            msg["lesson"] = self.lesson.message(state)
            if deciding:  # a move the page may suggest; the lesson's tests follow it
                msg["lesson"]["suggest"] = self.lesson.suggest(state, self.state_id)
        return localize_state(self.game, lang, msg, state)

    # --- the order of checks ---------------------------------------------------------

    def check(self, seat: int | None, action: int, state_id: int,
              window: ResponseWindow | None = None) -> Accepted:
        """A person's action from ``seat`` (None: a spectator), chosen in ``state_id``,
        checked in boardgame.io's order: a seat, a table that replays, a game not over;
        an answer to the open response ``window`` if the seat is asked there; else the
        seat's decision, the current state id, the engine's legality, the lesson's
        step. Raises the refusal's ``ServerError``; changes nothing."""
        if seat is None:
            raise ServerError("read_only", "spectators watch; they cannot act")
        if self.broken:
            raise ServerError("broken_table", self.broken, 409)
        state = self.state
        if state.is_over():
            raise ServerError("game_over", "the game is over; no more actions")
        if window is not None and seat in window.states:
            self.check_answer(window, seat, action, state_id)
            return ANSWER
        current = state.current_player()
        if current != seat:
            who = self.row.seats[current]
            raise ServerError("not_your_turn", f"it is {who.name or 'another seat'}'s decision "
                              f"(seat {who.seat + 1}), not yours")
        if state_id != self.state_id:
            raise ServerError("stale_state", f"that action was chosen in state {state_id}, "
                              f"but the table is at state {self.state_id}; the page has the current one")
        legal = state.legal_actions()
        if action not in legal:
            raise ServerError("illegal_action", f"action {action} is not legal now; "
                              f"{len(legal)} action(s) are")
        if self.lesson is not None and seat == LEARNER:
            why, did_step = self.lesson.judge(state, action)
            if why is not None:  # English msgid: the page shows it in its language
                raise ServerError("lesson_step", why)
            return Accepted(lesson_step=did_step)
        return MOVE

    def check_answer(self, window: ResponseWindow, seat: int, action: int, state_id: int) -> None:
        """A seat's answer to the open response window: chosen in the window's state,
        and one of the answers the seat was offered."""
        if state_id != window.start_id:
            raise ServerError("stale_state", f"that answer was chosen in state {state_id}, "
                              f"but the table is at state {self.state_id}; here is the current one")
        if action not in window.options[seat]:
            raise ServerError("illegal_action", f"action {action} does not answer the card being "
                              f"played; {len(window.options[seat])} action(s) do")

    def window_turn(self, window: ResponseWindow, seat: int, person: bool) -> tuple[int, str] | None:
        """The answer the engine takes next when the window closes: ``seat``'s (the card
        let stand, by ``timeout`` or its bot, if it gave none), or None once the engine
        asks ``seat`` no more (an earlier seat's response cancelled the card, R-G20)."""
        state = self.state
        if state.is_over() or not is_respond(state) or state.current_player() != seat:
            return None
        action, actor = window.answers.get(seat, (window.stand, "timeout" if person else "bot"))
        if action not in state.legal_actions():  # never: each was asked in this very state
            raise ServerError("illegal_action", f"seat {seat + 1}'s answer {action} is not legal")
        return action, actor

    def lesson_next(self, seat: int | None) -> None:
        """The learner read a step that only asks to look: on to the next."""
        if self.lesson is None or seat != LEARNER:
            raise ServerError("bad_message", "only the learner of a lesson table goes on to a next step")
        if not self.lesson.next():
            raise ServerError("lesson_step", "this step waits for an action, not for 'next'")

    def rename(self, seat: int | None, name: str) -> None:
        """Name ``seat`` (a person's page names its own seat): never a spectator, never
        empty, never a name that reads as another seat's or a bot's."""
        if seat is None:
            raise ServerError("read_only", "spectators have no seat to name")
        if not name:
            raise ServerError("bad_message", "a name needs at least one visible character")
        check_seat_name(name, [s.name for s in self.row.seats if s.seat != seat])
        self.row.seats[seat].name = name

    # --- moving --------------------------------------------------------------------

    def play(self, action: int, seat: int, actor: str, narration: str | None,
             lesson_step: bool = False) -> Played:
        """``action`` applied to a copy of the state (the current one stays as it is)."""
        nxt = self.state.clone()
        events = nxt.apply(action)
        return Played(self.state_id, action, seat, actor, narration, nxt, events, lesson_step)

    def commit(self, played: Played) -> None:
        """The stored move becomes the current state, the record's next action and its log's lines."""
        self.state = played.state
        if self.lesson is not None and played.seat == LEARNER and played.actor == "person":
            self.lesson.played(played.lesson_step)
        self.row.actions.append(played.action)
        self.row.actors.append((played.seat, played.actor))
        if played.narration:
            self.row.narration[played.index] = played.narration
        self.record(played.index, played.events, played.narration, played.seat, played.actor)

    def take_stored(self, index: int, action: int, actor: tuple[int, str], narration: str | None) -> bool:
        """An action another process stored (at ``index``, the next one), applied
        here; False (and the table marked broken) if it does not replay."""
        nxt = self.state.clone()  # states are replaced, never changed in place (a bot may read it)
        try:
            events = nxt.apply(action)
        except GloomtableError as exc:
            self.broken = f"the stored action #{index} does not replay: {exc}"
            return False
        self.state = nxt
        self.row.actions.append(action)
        self.row.actors.append(actor)
        if narration is not None:
            self.row.narration[index] = narration
        self.record(index, events, narration, actor[0], actor[1])
        return True

    def take_seats(self, stored: Iterable[SeatRow]) -> bool:
        """The seats' names, claims and tokens as stored (by another process); True if any changed."""
        changed = False
        for seat, row in zip(self.row.seats, stored, strict=True):
            now = (row.name, row.claimed, row.token)
            if (seat.name, seat.claimed, seat.token) != now:
                seat.name, seat.claimed, seat.token = now
                changed = True
        return changed

    def record(self, idx: int, events: list[Event], narration: str | None, seat: int,
               actor: str = "person") -> None:
        """The log's lines of a move. A card let stand is no line (most windows end so:
        the log would be mostly those); a cancelled card is."""
        if narration:
            self.entries.append(LogEntry(idx, narration=narration, seat=seat, actor=actor, game=self.game))
        self.entries.extend(LogEntry(idx, event=e) for e in events if e.kind != "respond_pass")
