"""Gloomier: A Night at Hemlock Hall (RULES.md part H), one test per rule at least.

Positions use a small Hemlock-Hall-style deck built through the real schema, so
each test shows exactly the cards it talks about; the shipped ``gloomier`` set
and the classic+gloomier mix are checked as data and played through.
"""

from __future__ import annotations

import pytest
from tests.gloom_helpers import (
    MIX_ONLY_DECK,
    card,
    check_conservation,
    cid,
    cont,
    finish_turn,
    imm,
    kill,
    new_game,
    pass_responses,
    pass_setup,
    pers,
    play,
    put_on,
    set_hand,
    start,
)

from gloomtable.engine import ConfigError, IllegalActionError, Rng
from gloomtable.games import make_game
from gloomtable.games.gloom.cards import CardType
from gloomtable.games.gloom.deck import DeckError, build_deck, load_deck
from gloomtable.games.gloom.game import GloomConfig, GloomGame


def hall_data(backs: list[dict | None] | None = None) -> dict:
    """Eight Characters of one family; the last four carry two Guests and two Stories."""
    if backs is None:
        backs = [None, None, None, None,
                 {"type": "guest", "id": "mourner", "name": "The Hired Mourner",
                  "text": "Follows Untimely Deaths. +1 draw limit per investigation icon.",
                  "effects": [pers({"follows": {"card": "untimely_death"}},
                                   {"draw_limit_per_icon": {"icon": "investigation", "n": 1}})]},
                 {"type": "guest", "id": "sleuth", "name": "The Amateur Sleuth",
                  "text": "Follows murder. Your draw limit is +1.",
                  "effects": [pers({"follows": {"icon": "murder"}}, {"draw_limit": 1})]},
                 {"type": "story", "id": "ledger", "name": "The Ledger", "requires": {"lucre": 1},
                  "text": "Requires lucre. Draw 1 on claiming; +1 draw limit.",
                  "effects": [imm({"draw": 1}), cont({"draw_limit": 1})]},
                 {"type": "story", "id": "letters", "name": "The Letters",
                  "requires": {"murder": 2}, "text": "Requires two murders. +2 draw limit.",
                  "effects": [cont({"draw_limit": 2})]}]
    chars = []
    for i, back in enumerate(backs):
        c = {"id": f"h{i}", "name": f"Resident {i}", "family": "hall"}
        if back is not None:
            c["back"] = back
        chars.append(c)
    mods = [
        card("murder", points=(-10, None, None), icons=("murder", None, None)),
        card("murder2", points=(-5, None, None), icons=(None, "murder", None)),
        card("murder-b", points=(-10, None, None), icons=("murder", None, None)),
        card("murder2-b", points=(-5, None, None), icons=(None, "murder", None)),
        card("murder3-b", icons=(None, None, "murder")),
        card("clue", points=(None, -5, None), icons=(None, None, "investigation")),
        card("clue2", icons=(None, None, "investigation")),
        card("lucre", points=(None, None, -5), icons=(None, None, "lucre")),
        card("happy", points=(None, 10, None)),
        card("texty", text="Covers the text plate only.", effects=[imm({"draw": 1})]),
        card("icon-cover", persistent_icon=True),
        card("pers-limit", points=(-5, None, None), persistent_icon=True,
             effects=[pers({"draw_limit": 1})]),
        card("if-murder", points=(-5, None, None),
             effects=[imm({"if_icon": "murder", "do": [{"draw": 2}]})]),
        card("if-murder-b", points=(-5, None, None),
             effects=[imm({"if_icon": "murder", "do": [{"draw": 2}]})]),
        *(card(f"filler-{i}") for i in range(30)),
    ]
    deaths = [card(f"death-{i}", persistent_icon=True) for i in range(4)]
    return {"set": {"id": "hall", "name": "Hall"}, "families": [{"id": "hall", "name": "Hall"}],
            "characters": chars, "modifiers": mods, "events": [], "untimely_deaths": deaths}


HALL = build_deck(hall_data(), "hall")


def hall(players: int = 2, **cfg):
    """A 2-player draft of 2 Characters each: p0 gets h0, h2; p1 gets h1, h3; all four
    reverse sides of h4..h7 wait in the middle."""
    cfg.setdefault("draft_size", 2)
    cfg.setdefault("stories_guests", 4)
    return start(HALL, players=players, **cfg)


def g(s, key: str) -> int:
    return cid(s, key)


def draw_limits(s) -> list[int]:
    return [s.draw_limit(p) for p in range(s.n)]


# --- R-H1: the set ------------------------------------------------------------------


def test_R_H1_gloomier_set_is_data_with_guests_and_stories_on_the_backs():
    deck = load_deck("gloomier")
    assert deck.counts() == {"character": 20, "modifier": 57, "event": 11, "untimely_death": 20,
                             "guest": 14, "story": 6}
    assert len(deck.families) == 1 and len(deck.families[0].characters) == 20
    backs = [c.back_key for c in deck.cards if c.type is CardType.CHARACTER]
    assert all(backs) and len(set(backs)) == 20
    assert {"murder", "investigation"} <= {i for c in deck.cards for i in c.icons if i}
    follows = [st.param for c in deck.of_type(CardType.GUEST) for e in c.effects
               for st in e.steps if st.name == "follows"]
    assert len(follows) == 14
    assert any(f.card == "untimely_death" for f in follows)
    assert any(f.icon == "murder" for f in follows)
    assert all(c.requires for c in deck.of_type(CardType.STORY))
    # R-G21 and R-G19 are common in this set
    assert sum(any(st.name == "if_icon" for e in c.effects for st in e.steps)
               for c in deck.cards) >= 8
    assert sum(bool(c.effects_when("persistent")) for c in deck.of_type(CardType.MODIFIER)) >= 5


def test_R_H1_back_sides_are_validated_with_the_card_and_field():
    data = hall_data()
    data["characters"][4]["back"]["effects"] = [cont({"draw_limit": 1})]
    data["characters"][6]["back"]["requires"] = {}
    with pytest.raises(DeckError) as exc:
        build_deck(data, "bad.toml")
    text = str(exc.value)
    assert "characters[4] (id 'h4'): field back.effects[0]: field when" in text
    assert "a Guest follows exactly one thing" in text
    assert "characters[6] (id 'h6'): field back.requires: a Story needs at least one icon" in text


def test_R_H1_only_guests_follow():
    data = hall_data()
    data["modifiers"][0]["effects"] = [pers({"follows": {"card": "modifier"}})]
    data["modifiers"][0]["text"] = "x"
    data["modifiers"][0]["persistent_icon"] = True
    with pytest.raises(DeckError, match="only a Guest may follow"):
        build_deck(data, "bad.toml")


# --- R-H2: setup --------------------------------------------------------------------


def test_R_H2_players_choose_characters_one_at_a_time_in_turn_order():
    s = new_game(HALL, players=2, draft_size=2, stories_guests=2, first_player=1)
    pickers = []
    while s.decision.kind == "choose_character":
        pickers.append(s.decision.player)
        offered = [s.codec.chosen_card(a) for a in s.legal_actions()]
        assert all(s.cards[c].type is CardType.CHARACTER for c in offered)
        s.apply(s.legal_actions()[-1])
    assert pickers == [1, 0, 1, 0]
    assert [len(f) for f in s.families] == [2, 2]
    assert s.decision.kind == "play" and s.turn_player == 1


def test_R_H2_two_random_reverse_sides_go_to_the_middle_uncontrolled():
    seen = set()
    for seed in range(12):
        s = start(HALL, players=2, draft_size=2, seed=seed)
        in_middle = s.guests + list(s.stories)
        assert len(in_middle) == 2
        assert all(s.controller[x] == -1 for x in s.guests)
        assert all(owner == -1 for owner in s.stories.values())
        seen.add(tuple(sorted(in_middle)))
        view = s.view(0)
        assert len(view["middle"]["guests"]) + len(view["middle"]["stories"]) == 2
        check_conservation(s)
    assert len(seen) > 1  # chosen at random (from the seed)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_R_H2_table_option_plays_with_one_or_none(k):
    s = start(load_deck("gloomier"), players=3, stories_guests=k)
    assert len(s.guests) + len(s.stories) == k


def test_R_H2_five_players_choose_every_character_so_none_reach_the_middle():
    s = start(load_deck("gloomier"), players=5)
    assert sum(len(f) for f in s.families) == 20
    assert not s.guests and not s.stories


def test_R_H2_a_draft_needs_characters_enough():
    with pytest.raises(ConfigError, match="need 24"):
        GloomGame(GloomConfig(players=6), deck=load_deck("gloomier"))


# --- R-H3: the end ------------------------------------------------------------------


def test_R_H3_a_dead_guest_never_ends_the_game_but_the_last_chosen_character_does():
    s = hall()
    mourner = g(s, "mourner")
    p0a, p0b = s.families[0]
    put_on(s, mourner, "murder")
    set_hand(s, 0, ["death-0"])
    play(s, "death-0", mourner)
    pass_responses(s)
    assert s.is_dead(mourner) and not s.is_over()
    kill(s, p0a, "death-1")
    put_on(s, p0b, "murder2")
    finish_turn(s)
    finish_turn(s)
    set_hand(s, 0, ["death-2"])
    play(s, "death-2", p0b)
    assert s.is_over()


# --- R-H4, R-H5: Stories ---------------------------------------------------------------


def test_R_H4_claiming_a_story_is_one_of_the_two_plays():
    s = hall()
    put_on(s, s.families[0][0], "lucre")
    ledger = g(s, "ledger")
    assert s.codec.claim_story(ledger) in s.legal_actions()
    hand = len(s.hands[0])
    s.apply(s.codec.claim_story(ledger))
    assert s.stories[ledger] == 0 and s.counted_used == 1
    assert len(s.hands[0]) == hand + 1  # its immediate effect, once, on claiming
    assert draw_limits(s) == [6, 5]  # its lasting benefit
    assert s.view(1)["families"][0]["story"]["card"] == ledger


def test_R_H5_a_story_needs_its_icons_living_or_dead():
    s = hall()
    ledger = g(s, "ledger")
    assert s.codec.claim_story(ledger) not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="needs your family to show 1 lucre"):
        s.apply(s.codec.claim_story(ledger))
    a = s.families[0][0]
    put_on(s, a, "lucre", "death-0")  # dead, but still showing lucre
    assert s.codec.claim_story(ledger) in s.legal_actions()


def test_R_H5_a_story_is_claimed_from_a_player_who_shows_fewer_of_its_icons():
    s = hall()
    letters = g(s, "letters")
    put_on(s, s.families[1][0], "murder", "murder2")  # player 2 shows two murders
    s.stories[letters] = 1  # and holds the Story
    put_on(s, s.families[0][0], "murder-b")
    put_on(s, s.families[0][1], "murder2-b")
    assert s.shown_icons(0, ("murder",)) == s.shown_icons(1, ("murder",)) == 2
    assert s.codec.claim_story(letters) not in s.legal_actions()  # equal is not more
    put_on(s, s.families[0][1], "murder3-b")
    assert s.shown_icons(0, ("murder",)) == 3
    s.apply(s.codec.claim_story(letters))
    assert s.stories[letters] == 0
    assert draw_limits(s) == [7, 5]
    assert s.view(1)["families"][1]["story"] is None


def test_R_H5_one_story_at_a_time_and_kept_when_icons_are_lost():
    s = hall()
    ledger, letters = g(s, "ledger"), g(s, "letters")
    a, b = s.families[0]
    put_on(s, a, "lucre")
    put_on(s, b, "murder", "murder2")
    s.apply(s.codec.claim_story(ledger))
    s.apply(s.codec.claim_story(letters))
    assert s.stories == {ledger: -1, letters: 0}
    # losing the icons keeps the Story and its benefit
    put_on(s, b, "icon-cover")
    s.stacks[b] = [b]
    s.hands[0].extend([g(s, "murder"), g(s, "murder2"), g(s, "icon-cover")])
    assert s.shown_icons(0, ("murder",)) == 0
    assert s.stories[letters] == 0 and s.draw_limit(0) == 7
    check_conservation(s)


# --- R-H6: Guests as targets ------------------------------------------------------------


def test_R_H6_modifiers_on_any_living_guest_and_deaths_only_when_negative_first_play():
    s = hall()
    sleuth = g(s, "sleuth")
    set_hand(s, 0, ["happy", "death-0", "clue"])
    legal = s.legal_actions()
    assert s.codec.play(g(s, "happy"), sleuth) in legal
    assert s.codec.play(g(s, "death-0"), sleuth) not in legal  # Self-Worth 0
    play(s, "clue", sleuth)  # -5; the sleuth stays in the middle (no murder)
    pass_responses(s)
    assert s.controller[sleuth] == -1 and s.self_worth(sleuth) == -5
    # second play of the turn: no Untimely Death
    assert s.codec.play(g(s, "death-0"), sleuth) not in s.legal_actions()
    finish_turn(s)
    finish_turn(s)
    set_hand(s, 0, ["death-0"])
    play(s, "death-0", sleuth)
    assert s.is_dead(sleuth)


# --- R-H7: following ----------------------------------------------------------------------


def test_R_H7_a_guest_follows_its_trigger_to_another_family_with_all_its_modifiers():
    s = hall()
    sleuth = g(s, "sleuth")
    put_on(s, sleuth, "clue", "happy")
    target = s.families[1][0]
    set_hand(s, 0, ["murder"])
    events = play(s, "murder", target)
    events += pass_responses(s)
    assert s.controller[sleuth] == 1
    assert [s.cards[c].key for c in s.stacks[sleuth]] == ["sleuth", "clue", "happy"]
    assert any(e.kind == "follow" and e.card == sleuth for e in events)
    assert draw_limits(s) == [5, 6]  # its persistent effect now serves player 2 (R-H8)
    view = s.view(0)
    assert [ch["card"] for ch in view["families"][1]["guests"]] == [sleuth]
    check_conservation(s)


def test_R_H7_the_guest_moves_after_the_triggering_cards_effects_resolve():
    s = hall()
    sleuth = g(s, "sleuth")
    target = s.families[1][0]
    put_on(s, target, "murder2")  # the target shows murder for the requirement
    set_hand(s, 0, ["if-murder"])
    # if-murder prints no murder icon: it does not trigger the sleuth
    play(s, "if-murder", target)
    pass_responses(s)
    assert s.controller[sleuth] == -1
    set_hand(s, 0, ["murder"])
    events = play(s, "murder", target)
    events += pass_responses(s)
    kinds = [e.kind for e in events]
    assert kinds.index("follow") > kinds.index("play")


def test_R_H7_a_guest_following_deaths_joins_the_dead_characters_family():
    s = hall()
    mourner = g(s, "mourner")
    victim = s.families[1][0]
    put_on(s, victim, "murder")
    set_hand(s, 0, ["death-0"])
    play(s, "death-0", victim)
    pass_responses(s)
    assert s.controller[mourner] == 1


def test_R_H7_a_dead_guest_stays_put():
    s = hall()
    sleuth = g(s, "sleuth")
    put_on(s, sleuth, "murder2", "death-0")  # dead: the death covers its persistent icon
    assert s.is_dead(sleuth)
    set_hand(s, 0, ["murder"])
    play(s, "murder", s.families[1][0])
    pass_responses(s)
    assert s.controller[sleuth] == -1


def test_R_H7_R_G19_following_survives_text_and_icon_covered_while_the_portrait_shows():
    s = hall()
    sleuth = g(s, "sleuth")
    put_on(s, sleuth, "texty")  # covers the text plate, not the persistent icon
    set_hand(s, 0, ["murder"])
    play(s, "murder", s.families[1][0])
    pass_responses(s)
    assert s.controller[sleuth] == 1
    # R-G19 (refined): the persistent icon is covered, but the Guest's portrait, the
    # other region it names, still shows, so it still follows (a death covers both).
    put_on(s, sleuth, "icon-cover")
    set_hand(s, 0, ["murder2"])
    play(s, "murder2", s.families[0][0])
    pass_responses(s)
    assert s.controller[sleuth] == 0


def test_R_H7_nothing_resolves_for_a_card_on_a_guest_in_the_middle():
    s = hall()
    sleuth = g(s, "sleuth")
    set_hand(s, 0, ["texty"])
    hands = [len(h) for h in s.hands]
    play(s, "texty", sleuth)
    pass_responses(s)
    assert [len(h) for h in s.hands] == [hands[0] - 1, hands[1]]


# --- R-H8, R-G19: persistent effects --------------------------------------------------------


def test_R_H8_guest_effects_apply_to_its_controller_and_count_its_family_icons():
    s = hall()
    mourner = g(s, "mourner")
    assert draw_limits(s) == [5, 5]  # in the middle it serves nobody
    s.controller[mourner] = 0
    put_on(s, s.families[0][0], "clue")
    assert draw_limits(s) == [6, 5]
    put_on(s, mourner, "clue2")  # a Guest counts in its family's icons
    assert draw_limits(s) == [7, 5]


def test_R_G19_persistent_modifier_survives_its_text_covered_and_ends_with_its_icon():
    s = hall()
    a = s.families[0][0]
    put_on(s, a, "pers-limit")
    assert draw_limits(s)[0] == 6
    put_on(s, a, "texty")
    assert s.visible_of(a).text_card.key == "texty"
    assert draw_limits(s)[0] == 6
    put_on(s, a, "icon-cover")
    assert draw_limits(s)[0] == 5


def test_R_G21_character_requirement_met_and_not_met():
    s = hall()
    with_murder, without = s.families[1]
    put_on(s, with_murder, "murder")
    set_hand(s, 0, ["if-murder", "if-murder-b"])
    before = len(s.hands[1])
    play(s, "if-murder", without)
    pass_responses(s)
    assert len(s.hands[1]) == before  # not met: the card lands, the bonus does not happen
    play(s, "if-murder-b", with_murder)
    pass_responses(s)
    assert len(s.hands[1]) == before + 2


# --- R-H9: scoring --------------------------------------------------------------------------


def test_R_H9_family_value_adds_the_dead_guests_a_player_controls():
    s = hall()
    sleuth, mourner = g(s, "sleuth"), g(s, "mourner")
    s.controller[sleuth] = 0
    s.controller[mourner] = 1
    put_on(s, sleuth, "murder", "death-0")  # dead at -10, controlled by player 1
    put_on(s, mourner, "clue")  # living at -5: does not count
    a = s.families[0][0]
    put_on(s, a, "murder2", "death-1")
    assert s.family_value(0) == -15
    assert s.family_value(1) == 0
    assert s.view(1)["families"][0]["family_value"] == -15


# --- R-H10: mixing --------------------------------------------------------------------------


def test_R_H10_mixed_sets_share_one_draw_pile_and_pool_the_characters():
    game = make_game("gloom", {"players": 8, "sets": ["classic", "gloomier"]})
    s = game.new_initial_state(3)
    classic, gloomier = load_deck("classic"), load_deck("gloomier")
    drawn = sum(len(d.of_type(t)) for d in (classic, gloomier)
                for t in (CardType.MODIFIER, CardType.EVENT, CardType.UNTIMELY_DEATH))
    assert len(s.draw_pile) + sum(len(h) for h in s.hands) == drawn == 176
    assert s.decision.kind == "choose_character"
    pool = [s.codec.chosen_card(a) for a in s.legal_actions()]
    assert len(pool) == 40
    assert {s.cards[c].set_id for c in pool} == {"classic", "gloomier"}
    pass_setup(s)
    assert all(len(f) == 4 for f in s.families)
    check_conservation(s)


def test_R_H10_a_user_deck_mixes_with_the_shipped_sets(tmp_path):
    import tomllib

    path = tmp_path / "mine.toml"
    path.write_text(MIX_ONLY_DECK)
    tomllib.loads(path.read_text())
    game = make_game("gloomier", {"players": 2, "sets": ["gloomier", str(path)]})
    assert len(game.characters) == 21


def test_gloomier_is_a_game_name_with_the_gloomier_set_by_default():
    game = make_game("gloomier", {"players": 3})
    assert game.config.sets == ("gloomier",)
    s = game.new_initial_state(1)
    assert s.view(0)["game"] == "gloomier"


@pytest.mark.parametrize(("name", "cfg"), [
    ("gloomier", {"players": 2}), ("gloomier", {"players": 3}), ("gloomier", {"players": 4}),
    ("gloomier", {"players": 5}), ("gloom", {"players": 4, "sets": ["classic", "gloomier"]}),
])
def test_random_gloomier_games_finish_and_stay_conserved(name, cfg):
    game = make_game(name, cfg)
    for seed in range(3):
        s = game.new_initial_state(seed)
        rng = Rng(seed)
        while not s.is_over():
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        check_conservation(s)
        res = s.result()
        assert list(res.scores) == [s.family_value(p) for p in range(s.n)]


def test_R_H7_in_a_mix_a_guest_killed_by_a_classic_death_never_moves_again():
    """R-H7 (refined, mixed sets): a classic Untimely Death prints no persistent icon,
    so the Guest's icon still shows once it is dead; the dead Guest stays put anyway."""
    game = make_game("gloom", {"players": 2, "sets": ["classic", "gloomier"], "first_player": 0})

    def murder_followers(s):
        return [g for g in s.guests if any(st.name == "follows" and st.param.icon == "murder"
                                           for e in s.cards[g].effects for st in e.steps)]

    # the first seeded deal whose middle holds a Guest that follows the murder icon
    s = next(s for s in (pass_setup(game.new_initial_state(seed)) for seed in range(200))
             if murder_followers(s))
    guest = murder_followers(s)[0]
    classic_deaths = [c for c in s.game.deaths
                      if s.cards[c].set_id == "classic" and not s.cards[c].prints_persistent_icon]
    murder = [c.index for c in s.cards if c.type is CardType.MODIFIER
              and "murder" in c.icons]
    assert classic_deaths and murder
    target = s.families[1][0]
    # the Guest joins player 1's family first (a murder icon played on player 1's Character)
    set_hand(s, 0, [murder[0]])
    play(s, murder[0], s.families[0][0])
    pass_responses(s)
    assert s.controller[guest] == 0
    kill(s, guest, classic_deaths[0])
    assert s.is_dead(guest)
    assert s.visible_of(guest).live_effects("persistent")  # the icon still shows
    finish_turn(s)
    set_hand(s, 1, [murder[1]])
    events = play(s, murder[1], target)
    events += pass_responses(s)
    assert s.controller[guest] == 0
    assert not any(e.kind == "follow" and e.card == guest for e in events)
