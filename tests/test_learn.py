"""Learn to play: the shipped lessons play through on the real engine, a wrong move
gets the step's explanation, a broken lesson names itself and its step, and
``gloom learn --auto`` completes every lesson in every language."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gloomtable.i18n.catalog import LANGUAGES, translator
from gloomtable.learn import LEARNER, Guide, LessonError, lesson_for, load_lesson, shipped_lessons

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]
LESSONS = sorted(shipped_lessons())


def play_through(guide: Guide) -> list[str]:
    """Do what every step asks (the lesson's suggestions make the learner's free turns); the ids
    of the steps done in order."""
    done: list[str] = []
    for _ in range(2000):
        if guide.finished:
            break
        step = guide.step
        if step is not None and step.expect is None:
            done.append(step.id)
            guide.next()
            continue
        before = guide.index
        outcome = guide.act(guide.auto_action())
        assert outcome.done, outcome.why
        if guide.index > before and step is not None:
            done.append(step.id)
    assert guide.finished
    return done


def test_three_lessons_ship() -> None:
    assert LESSONS == ["creatures", "gloom", "gloomier"]


@pytest.mark.parametrize("name", LESSONS)
def test_every_step_of_a_shipped_lesson_is_reached_and_done(name: str) -> None:
    """A test fails if a lesson's expected action stops being legal: the guide raises
    naming the lesson and the step, or the game ends before a step was done."""
    guide = Guide(lesson_for(name))
    done = play_through(guide)
    assert guide.missed() == [], f"lesson {name!r}: the game ended before steps {guide.missed()}"
    assert done == [s.id for s in guide.lesson.steps]
    assert guide.state.is_over()


@pytest.mark.parametrize("name", LESSONS)
def test_a_wrong_move_is_explained_and_not_played(name: str) -> None:
    guide = Guide(lesson_for(name))
    while True:  # to the first step that waits for an action and offers a wrong one
        step = guide.step
        assert step is not None, f"{name}: no step offers a wrong move to try"
        if step.expect is None:
            guide.next()
            continue
        fitting = guide.fitting()
        wrong = [a for a in guide.state.legal_actions() if a not in fitting]
        if fitting and wrong and not guide.free:
            break
        guide.act(guide.auto_action())
    before = (guide.index, len(guide.log))
    outcome = guide.act(wrong[0])
    assert not outcome.done
    assert outcome.why == step.wrong  # the step's own, friendly words
    assert (guide.index, len(guide.log)) == before  # nothing was played
    illegal = next(a for a in range(guide.game.num_distinct_actions)
                   if a not in guide.state.legal_actions())
    refused = guide.act(illegal)
    assert not refused.done and refused.why  # the engine's reason, not a crash


def test_a_lesson_whose_expected_action_cannot_happen_names_lesson_and_step(tmp_path: Path) -> None:
    """As after a deck change: the second step asks for a play the table can never offer
    (a Death on a negative Character at the very first turn) and has no free play."""
    text = Path(shipped_lessons()["gloom"]).read_text(encoding="utf-8")
    broken = text.replace('id = "misery"', 'id = "too-soon"').replace(
        'expect = { kind = "play", card = "modifier", target = "own", points = "negative" }',
        'expect = { kind = "play", card = "untimely_death", negative_target = true }')
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    guide = Guide(load_lesson(path))
    guide.act(guide.fitting()[0])  # the family
    with pytest.raises(LessonError, match=r"lesson 'gloom', step 'too-soon' \(3\)"):
        guide.next()


def test_a_bad_lesson_file_names_the_file_the_step_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[lesson]\nid = "x"\ngame = "gloom"\ntitle = "t"\nseed = 1\nbots = ["easy"]\n'
                    'end = "e"\n[[step]]\nid = "a"\nsay = "s"\nexpect = { kind = "juggle" }\n',
                    encoding="utf-8")
    with pytest.raises(LessonError, match=r"bad\.toml: step 'a' \(1\), field expect\.kind"):
        load_lesson(path)
    path.write_text("[lesson\n", encoding="utf-8")
    with pytest.raises(LessonError, match="not valid TOML"):
        load_lesson(path)


@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_text_is_translated(name: str) -> None:
    lesson = lesson_for(name)
    for lang in LANGUAGES:
        if lang == "en":
            continue
        tr = translator(lang)
        untranslated = [t for t in lesson.texts() if tr.gettext(t) == t]
        assert not untranslated, f"{lang}: {untranslated[:2]}"


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", LESSONS)
def test_gloom_learn_auto_completes(name: str, lang: str) -> None:
    out = subprocess.run([*GLOOM, "learn", "--auto", "--game", name, "--lang", lang],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lesson = lesson_for(name)
    last = translator(lang).gettext(lesson.end)
    assert last.split(".")[0] in out.stdout
    assert f"{len(lesson.steps)}" in out.stdout
    assert "Traceback" not in out.stderr
    assert LEARNER == 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_reference_draws_stacks_by_the_cardinal_rule(lang: str) -> None:
    """R-G4 in the terminal's rules: the happy Modifier's +10 covers the sad one's -10,
    so the drawn stack shows +10/-5 and is worth +5; the duck below still shows."""
    from gloomtable.games.gloom.hooks.rules_pictures import stack_examples

    tr = translator(lang)
    text = stack_examples(tr)
    assert tr.gettext("Stacks, drawn") in text
    assert tr.gettext("Self-Worth {n}").format(n="+5") in text
    assert "+10/-5/·" in text and tr.gettext("duck") in text
    assert text.count(tr.gettext("Self-Worth {n}").format(n="-10")) == 2


WEB_WORDS = {"en": ("zoom", "highlighted"), "es": ("amplía", "resaltad"), "ru": ("увеличьте", "подсвечен")}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_terminal_lessons_wrap_words_speak_of_the_terminal_and_group_choices(lang: str) -> None:
    """Issue 30 (14): at a 50-column terminal no line is longer than 50 and no word is cut
    across lines; the steps say nothing of zooming or highlights; the play step lists
    each card once (its targets asked next), not one line per card and target."""
    width = 50
    # family 1, read step 2, then card 3 of the grouped list and its first target, then quit
    keys = "1\n\n3\n1\nq\n"
    out = subprocess.run([*GLOOM, "learn", "--game", "gloom", "--lang", lang], input=keys,
                         capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "COLUMNS": str(width)})
    assert "Traceback" not in out.stderr, out.stderr
    tr = translator(lang).gettext
    stdout = out.stdout
    for prompt in ("Choose (q to quit): ", "Target (b to go back): ", "Press Enter to go on. "):
        stdout = stdout.replace(tr(prompt), "\n")  # piped input echoes no newline after a prompt
    lines = stdout.splitlines()
    assert lines and max(len(x) for x in lines) <= width, max(lines, key=len)
    text = out.stdout.lower()
    for word in WEB_WORDS[lang]:
        assert word not in text, word
    # words are whole: every word of step 2's text shows unbroken
    say = tr(lesson_for("gloom").steps[1].say_terminal or "")
    assert say
    flat = " ".join(x.strip() for x in lines)
    assert say in flat or " ".join(say.split()) in flat
    # the play step's choices: a numbered line per card, far fewer than card x target
    guide = Guide(lesson_for("gloom"))
    guide.act(guide.auto_action())
    guide.next()
    step3 = next(i for i, x in enumerate(lines) if tr("Step {n} of {total}").format(n=3, total=10) in x)
    on_which = next(i for i, x in enumerate(lines) if i > step3 and x.rstrip().endswith("?"))
    numbered = [x for x in lines[step3:on_which] if x.lstrip(" *")[:3].strip().rstrip(".").isdigit()]
    assert len(guide.state.legal_actions()) > 15
    assert 2 <= len(numbered) <= 8, numbered
    assert any("*" in x[:3] for x in numbered)
