"""The table's core (server/table_core.py), driven move by move with real games and
no server: the order of a move's checks, each refusal leaving the table as it was,
the committed move's views against the engine's own, nothing of a hidden hand in
any seat's state message (R-G9, R-G14, R-C3), and the response window's answers
taken in turn order (R-G20)."""

from __future__ import annotations

from typing import Any

import pytest

from gloomtable.engine import Rng, State
from gloomtable.games import make_game
from gloomtable.learn import LEARNER, lesson_for
from gloomtable.server.errors import ServerError
from gloomtable.server.store_rows import SeatRow, TableRow
from gloomtable.server.table_core import MOVE, TableCore, answer_results, same_token
from gloomtable.server.window import is_respond, open_window

CONFIGS: dict[str, dict[str, Any]] = {"gloom": {"players": 4}, "gloomier": {"players": 3},
                                      "creatures": {"players": 3}}


def core_of(game: str, seed: int, config: dict[str, Any] | None = None, bots: tuple[int, ...] = (),
            options: dict[str, Any] | None = None, actions: list[int] | None = None) -> TableCore:
    """A table's core as the lobby makes it (people at every seat but ``bots``), replayed
    from ``actions``."""
    cfg = dict(config or CONFIGS[game])
    seats = [SeatRow(i, "bot" if i in bots else "person", "random", f"P{i}", "" if i in bots else f"tok-{i}",
                     claimed=True) for i in range(cfg["players"])]
    acts = list(actions or [])
    row = TableRow("t1", game, cfg, seed, dict(options or {"spectators": True}), True, "host", seats,
                   actions=acts, actors=[(0, "person")] * len(acts))
    return TableCore.replay(row)


def refused(core: TableCore, seat: int | None, action: int, state_id: int) -> str:
    """The code of the refusal, after checking that it left the table exactly as it was."""
    state, snapshot = core.state, core.state.snapshot()
    moves, lines = list(core.row.actions), len(core.entries)
    with pytest.raises(ServerError) as caught:
        core.check(seat, action, state_id)
    assert core.state is state and core.state.snapshot() == snapshot
    assert core.row.actions == moves and len(core.entries) == lines
    return caught.value.code


def a_move(core: TableCore, rng: Rng) -> tuple[int, int]:
    """(seat, action): a random legal move of the seat deciding now."""
    legal = core.state.legal_actions()
    return core.state.current_player(), legal[rng.below(len(legal))]


def move(core: TableCore, seat: int, action: int, narration: str | None = None) -> None:
    """A person's move as the shell makes it: checked, played on a copy, (stored,) committed."""
    accepted = core.check(seat, action, core.state_id)
    core.commit(core.play(action, seat, "person", narration, accepted.lesson_step))


def illegal_action(state: State) -> int:
    legal = set(state.legal_actions())
    return next(a for a in range(10_000) if a not in legal)


def message(core: TableCore, seat: int | None, log_start: int = 0) -> dict[str, Any]:
    return core.state_message(seat, "en", log_start, seats=[], deadline=None, window=None)


# --- the order of checks -------------------------------------------------------------


@pytest.mark.parametrize("game", ["gloom", "creatures"])
def test_a_move_is_checked_seat_then_state_id_then_legality(game: str) -> None:
    """Each check is tried with every later one failing too, so the first that fails
    is the one refused: a spectator, another seat, a stale state id, an illegal action."""
    core = core_of(game, 7)
    rng = Rng(7)
    for _ in range(5):  # not at the very first state: state ids 0 and 5 differ
        move(core, *a_move(core, rng))
    seat = core.state.current_player()
    other = (seat + 1) % len(core.row.seats)
    stale, bad = core.state_id - 1, illegal_action(core.state)
    assert refused(core, None, bad, stale) == "read_only"
    assert refused(core, other, bad, stale) == "not_your_turn"
    assert refused(core, seat, bad, stale) == "stale_state"
    assert refused(core, seat, bad, core.state_id + 1) == "stale_state"  # from the future: stale too
    assert refused(core, seat, bad, core.state_id) == "illegal_action"
    for malformed in (-1, 2**40, illegal_action(core.state)):  # not an action of this game at all
        assert refused(core, seat, malformed, core.state_id) == "illegal_action"
    assert core.check(seat, core.state.legal_actions()[0], core.state_id) == MOVE


def test_a_move_chosen_before_another_seat_moved_is_stale() -> None:
    """Two pages race: the second action was chosen in the state the first one left."""
    core = core_of("creatures", 3)
    seat, action = a_move(core, Rng(1))
    chosen_in = core.state_id
    move(core, seat, action)
    nxt = core.state.current_player()
    assert refused(core, nxt, core.state.legal_actions()[0], chosen_in) == "stale_state"


def test_a_finished_game_and_a_broken_table_refuse_before_the_seat() -> None:
    core = core_of("creatures", 11, config={"players": 2, "rounds": 1})
    rng = Rng(11)
    while not core.over:
        move(core, *a_move(core, rng))
    assert refused(core, 0, 0, core.state_id) == "game_over"
    assert refused(core, 1, 0, 0) == "game_over"
    assert refused(core, None, 0, 0) == "read_only"  # a spectator is told it watches, first

    broken = core_of("creatures", 11, actions=[10**6])  # a stored action that no longer replays
    assert broken.broken is not None and "#0" in broken.broken and broken.row.actions == []
    with pytest.raises(ServerError) as caught:
        broken.check(broken.state.current_player(), broken.state.legal_actions()[0], 0)
    assert (caught.value.code, caught.value.status) == ("broken_table", 409)


def test_another_process_s_action_that_does_not_replay_breaks_the_table() -> None:
    core = core_of("creatures", 5)
    seat, action = a_move(core, Rng(5))
    assert core.take_stored(0, action, (seat, "person"), "went first")
    assert core.row.actions == [action] and core.row.narration == {0: "went first"}
    assert core.entries[0].narration == "went first"
    assert not core.take_stored(1, 10**6, (core.state.current_player(), "person"), None)
    assert core.broken is not None and core.state_id == 1


def test_a_seat_is_named_by_its_own_token_only() -> None:
    core = core_of("gloom", 1, bots=(1,))
    assert [core.seat_for_token(f"tok-{i}") for i in range(4)] == [0, None, 2, 3]
    assert core.seat_for_token("") is None and core.seat_for_token(None) is None  # a bot's empty token
    for wrong in ("tok-", "tok-0 ", "tók-0", "tok-0" * 40, "\ud800"):
        assert core.seat_for_token(wrong) is None
    assert same_token("abc", "abc") and not same_token("", "")


def test_a_seat_is_renamed_only_by_itself_to_a_name_of_its_own() -> None:
    core = core_of("gloom", 1)
    with pytest.raises(ServerError, match="spectators") as caught:
        core.rename(None, "Ann")
    assert caught.value.code == "read_only"
    for name, code in [("", "bad_message"), ("P1", "bad_name")]:
        with pytest.raises(ServerError) as caught:
            core.rename(0, name)
        assert caught.value.code == code
    assert core.row.seats[0].name == "P0"
    core.rename(0, "Ann")
    assert core.row.seats[0].name == "Ann"


def test_a_lesson_refuses_another_step_after_the_engine_s_own_checks() -> None:
    """The learner's action must be legal before the lesson judges it; an action the
    engine allows but the step does not ask for is ``lesson_step``."""
    lesson = lesson_for("gloom")
    core = core_of(lesson.game, lesson.seed, config={**lesson.config, "players": 1 + len(lesson.bots)},
                   bots=tuple(range(1, 1 + len(lesson.bots))), options={"lesson": lesson.id})
    assert core.lesson is not None and core.response_pause is None  # a lesson asks one seat at a time
    with pytest.raises(ServerError) as caught:
        core.lesson_next(1)
    assert caught.value.code == "bad_message"
    while core.lesson.step is not None and core.lesson.step.expect is None:
        core.lesson_next(LEARNER)  # steps that only ask to look
    assert core.state.current_player() == LEARNER
    assert refused(core, LEARNER, illegal_action(core.state), core.state_id) == "illegal_action"
    fitting = core.lesson.fitting(core.state)
    others = [a for a in core.state.legal_actions() if a not in fitting]
    if others and not core.lesson.free(core.state):
        assert refused(core, LEARNER, others[0], core.state_id) == "lesson_step"
    step = core.lesson.index
    accepted = core.check(LEARNER, fitting[0], core.state_id)
    assert accepted.lesson_step
    assert core.lesson.index == step  # judged, not yet played: a refused store would change nothing
    core.commit(core.play(fitting[0], LEARNER, "person", None, accepted.lesson_step))
    assert core.lesson.index == step + 1


# --- committing and views -------------------------------------------------------------


def scrambled(state: Any, viewer: int, seed: int) -> Any:
    """A copy of ``state`` with what ``viewer`` cannot see dealt differently: the other
    hands (same sizes), and the draw pile (Gloom) or the Reserve and the cards set
    aside (Crazy Creatures)."""
    other = state.clone()
    seats = [q for q in range(len(other.hands)) if q != viewer]
    rest = [*other.reserve, *other.aside] if hasattr(other, "reserve") else list(other.draw_pile)
    pool = [c for q in seats for c in other.hands[q]] + rest
    Rng(seed).shuffle(pool)
    for q in seats:
        k = len(other.hands[q])
        other.hands[q], pool = sorted(pool[:k]), pool[k:]
    if hasattr(other, "reserve"):
        k = len(other.reserve)
        other.reserve, other.aside = pool[:k], sorted(pool[k:])
    else:
        other.draw_pile = pool
    return other


@pytest.mark.slow
@pytest.mark.parametrize("game", ["gloom", "gloomier", "creatures"])
def test_committed_moves_show_each_seat_the_engine_s_view_and_nothing_hidden(game: str) -> None:
    """A whole seeded game through the core: a played move changes nothing until it is
    committed; each committed state is the engine's after the same actions, every
    seat's and the spectator's message carries the engine's view; choices go to the
    deciding seat only; a seat's message is the same however the cards it cannot see
    were dealt (other hands, draw pile, Reserve: R-G9, R-G14, R-C3); and every log
    line of another seat's private event (a draw) reads as the spectator's line,
    the same whatever card it was."""
    seed = 20261204
    core = core_of(game, seed)
    engine = make_game(game, core.row.config).new_initial_state(seed)
    players = len(core.row.seats)
    rng = Rng(seed)
    step = start = 0
    told: dict[tuple[Any, ...], set[str]] = {}
    """(kind, player, target, viewer) of another seat's private event -> the texts that viewer read."""
    cards: dict[tuple[Any, ...], set[int | None]] = {}
    while not core.over:
        seat, action = a_move(core, rng)
        before, snapshot = core.state, core.state.snapshot()
        played = core.play(action, seat, "person", "told" if step % 7 == 0 else None)
        assert core.state is before and core.state.snapshot() == snapshot and core.state_id == step
        core.commit(played)
        engine.apply(action)
        step += 1
        assert core.state_id == step and core.row.actors[-1] == (seat, "person")
        assert core.state.snapshot() == engine.snapshot()
        if step % 5 and not core.over:
            continue  # the views every fifth move (and at the end): the game stays quick
        spectator = message(core, None, start)  # each log line is checked once: those since the last look
        for viewer in [*range(players), None]:
            msg = message(core, viewer, start)
            assert msg["view"] == engine.view(viewer)
            deciding = not core.over and viewer == core.state.current_player()
            assert bool(msg["choices"]) == deciding
            assert msg["log_start"] == start and len(msg["log"]) == len(core.entries) - start
            for line, entry, seen in zip(msg["log"], core.entries[start:], spectator["log"], strict=True):
                private = entry.event.private_to if entry.event is not None else None
                if private is not None and private != viewer:
                    assert entry.event is not None and line == seen, (viewer, entry)
                    key = (entry.event.kind, entry.event.player, entry.event.target, viewer)
                    told.setdefault(key, set()).add(line["text"])
                    cards.setdefault(key, set()).add(entry.event.card)
            if viewer is None:
                continue
            twin = TableCore(core.row, core.game, scrambled(core.state, viewer, step))
            twin.entries = core.entries
            assert twin.state.snapshot() != core.state.snapshot() or core.over
            assert message(twin, viewer, start) == msg
        start = len(core.entries)
    assert core.state.result() == engine.result()
    several = [key for key, seen_cards in cards.items() if len(seen_cards) > 1]
    if game != "creatures":  # Crazy Creatures' hidden draws (R-C8's reserve) are few: maybe none twice alike
        assert several  # another seat's draws of different cards came up
    for key in several:  # and read the same to this viewer, whatever the card
        assert len(told[key]) == 1, (key, told[key])
    assert core.row.narration == {i: "told" for i in range(0, step, 7)}


# --- response windows (R-G20) ----------------------------------------------------------


def a_window(seed: int) -> tuple[TableCore, Any]:
    """A seeded Gloom table played at random up to a card that asks for responses."""
    core = core_of("gloom", seed, options={"spectators": True, "response_pause_ms": 500})
    rng = Rng(seed)
    while not is_respond(core.state):
        assert not core.over, "no card asked for responses in this game"
        move(core, *a_move(core, rng))
    window = open_window(core.state, core.state_id, 0.5)
    assert window is not None
    return core, window


def test_a_window_answer_is_checked_against_the_window_s_state_and_choices() -> None:
    core, w = a_window(3)
    asked = w.seats[-1]  # the last asked: not the seat the engine asks now, unless only one is asked
    assert core.check(asked, w.stand, w.start_id, w).answer
    with pytest.raises(ServerError) as caught:
        core.check(asked, w.stand, w.start_id - 1, w)
    assert caught.value.code == "stale_state"
    with pytest.raises(ServerError) as caught:
        core.check(asked, illegal_action(w.states[asked]), w.start_id, w)
    assert caught.value.code == "illegal_action"
    player = next(q for q in range(len(core.row.seats)) if q not in w.states)  # whose card it is
    with pytest.raises(ServerError) as caught:
        core.check(player, w.stand, w.start_id, w)
    assert caught.value.code == "not_your_turn"
    msg = core.state_message(asked, "en", 0, seats=[], deadline=None, window=w)
    assert [c["action"] for c in msg["choices"]] == w.options[asked]  # everyone asked sees its prompt at once
    assert msg["window"]["seats"] == w.seats and not msg["window"]["answered"]


def test_window_answers_are_taken_in_turn_order_and_the_first_response_ends_them() -> None:
    """R-G20 (online tables): every asked seat answers at once; the engine takes them
    in turn order, so after the first seat that responds nobody is asked; a seat that
    gave no answer lets the card stand. Each person who answered is told what became
    of it: stored at its index, or not asked (an earlier response cancelled the card),
    or, for a window the table moved past, not taken."""
    for seed in range(40):
        core, w = a_window(seed)
        responders = [q for q in w.seats if any(a != w.stand for a in w.options[q])]
        if len(responders) < 2 and not (responders and responders[0] != w.seats[0]):
            continue
        for q in responders:
            w.answer(q, next(a for a in w.options[q] if a != w.stand), "person")
        answers = {q: w.answers[q][0] for q in responders}
        assert {q: (a, "not_taken", None) for q, a in answers.items()} == answer_results(w, {})
        taken: list[tuple[int, int, str]] = []
        outcome: dict[int, tuple[str, int | None]] = {}
        for q in w.seats:
            turn = core.window_turn(w, q, person=True)
            if turn is None:
                break
            taken.append((q, *turn))
            outcome[q] = ("stored", core.state_id)
            core.commit(core.play(turn[0], q, turn[1], None))
        first = responders[0]
        assert [q for q, _a, _actor in taken] == w.seats[:w.seats.index(first) + 1]
        assert all(actor == "timeout" and a == w.stand for q, a, actor in taken if q != first)
        assert taken[-1][1] != w.stand
        told = answer_results(w, outcome)
        assert told[first] == (answers[first], "stored", w.start_id + len(taken) - 1)
        index = told[first][2]
        assert index is not None and core.row.actions[index] == answers[first]  # where the page is told
        assert all(told[q] == (answers[q], "not_asked", None) for q in responders[1:])
        return
    pytest.fail("no seeded game had a window with a response after the first seat asked")


# --- timers and stand-ins: the core takes the time, it reads no clock ----------------------


def test_a_turn_timer_runs_for_people_only_and_a_window_is_its_own_timer() -> None:
    core = core_of("gloom", 3, bots=(1,), options={"turn_timer": 30, "response_pause_ms": 500})
    rng = Rng(3)
    seen: set[str] = set()
    while not core.over and len(seen) < 3:
        state, seat = core.state, core.state.current_player()
        timer = core.timer_for(state)
        if is_respond(state):  # R-G20's window: its pause is the timer
            assert timer is None
            seen.add("window")
        elif core.row.seats[seat].kind == "bot":
            assert timer is None
            seen.add("bot")
        else:
            assert timer == 30.0
            seen.add("person")
        _seat, action = a_move(core, rng)
        core.commit(core.play(action, seat, core.row.seats[seat].kind, None))
    assert seen == {"window", "bot", "person"}
    assert core_of("gloom", 3).timer_for(core_of("gloom", 3).state) is None  # no timer asked for


def test_a_stand_in_plays_only_for_an_absent_person_where_the_table_allows_it() -> None:
    core = core_of("creatures", 2, bots=(1,), options={"replace_absent": True, "absent_after": 20})
    assert core.stand_in_due(0, False, 100.0, 120.0)  # gone 20 s, no page open
    assert not core.stand_in_due(0, False, 100.0, 119.9)  # not yet
    assert not core.stand_in_due(0, True, 100.0, 500.0)  # a page of the seat is open
    assert not core.stand_in_due(0, False, None, 500.0)  # never left (its page is opening)
    assert not core.stand_in_due(1, False, 100.0, 500.0)  # a bot's seat has no stand-in
    assert not core_of("creatures", 2).stand_in_due(0, False, 100.0, 500.0)  # the table does not allow it
