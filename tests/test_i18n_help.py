"""Issue 32: ``gloom --lang es|ru --help`` and every subcommand's ``--help`` show none
of our English texts, nor typer's frame words around them ("Usage:", "Options",
"[default: …]", "Show this message and exit.").

The language is chosen once, from the command line, when the program starts, so each
language's pages come from a process started as ``gloom --lang LANG``: one process per
language prints every command's ``--help`` (through the same app, with the same prog
name and width), instead of one process per page."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys

import pytest

from gloomtable.games import registry

GLOOM = [sys.executable, "-m", "gloomtable.cli.main"]
PAGES = """
import json, sys
from typer.testing import CliRunner
from gloomtable.cli.main import app
lang, cmds = sys.argv[2], json.loads(sys.stdin.read())
out = {}
for cmd in cmds:
    r = CliRunner().invoke(app, ["--lang", lang, *cmd, "--help"], prog_name="python -m gloomtable.cli.main",
                           env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"}, catch_exceptions=False)
    assert r.exit_code == 0, (cmd, r.output[-2000:])
    out[" ".join(cmd)] = r.stdout
print(json.dumps(out))
"""
"""Started as ``python -c PAGES --lang LANG`` (what the program reads at start), it
prints the help page of every command it is given, as JSON."""
COMMANDS = [[], ["play"], ["simulate"], ["replay"], ["rules"], ["balance"], ["bench"], ["learn"],
            ["tournament"], ["deck"], ["deck", "check"], ["deck", "schema"], ["deck", "new"],
            ["deck", "gallery"], ["db"], ["db", "copy"], ["db", "backup"], ["db", "restore"]]
SAME_IN_EVERY_LANGUAGE = {
    # names: the program, its commands and option values, games, file formats, tools
    "gloom", "gloomier", "gloomtable", "creatures", "classic", "play", "simulate", "replay", "rules",
    "balance", "bench", "serve", "learn", "tournament", "deck", "check", "schema", "new", "gallery",
    "copy", "backup", "restore", "dump", "random", "easy", "medium", "hard", "local", "narrate", "record",
    "paths", "json", "html", "toml", "sqlite", "postgresql", "url", "cpu", "elo", "ray", "rlcard",
    "pettingzoo", "ismcts", "playouts", "per", "call", "baselines", "workers", "lang", "python", "main",
    "cli", "git",
    # typer's notation for what the usage line takes, and argument names
    "options", "command", "args", "name", "path",
    # the same word in Spanish
    "final", "terminal", "bot", "bots", "editor", "error", "variables",
    # gloom serve's operator terms: protocols, HTTP names, programs, message names, option values
    # (log levels and formats), units; loanwords a server's operator reads as they are
    "http", "tcp", "ipv", "get", "post", "content", "host", "keep", "cookie", "localhost", "redis",
    "uvicorn", "hello", "sync", "websocket", "websockets", "socket", "sockets", "token", "proxy",
    "proxies", "debug", "info", "warning", "text", "bytes", "bits", "megabytes", "mib",
    # every registered game's id is a value of --game, the same in every language
    *registry.names(),
}


@functools.cache
def _pages(lang: str) -> dict[str, str]:
    """Every command's help page in ``lang``, from one process started with ``--lang lang``."""
    env = {**os.environ, "COLUMNS": "200", "TERMINAL_WIDTH": "200"}
    proc = subprocess.run([sys.executable, "-c", PAGES, "--lang", lang],
                          input=json.dumps([*COMMANDS, ["serve"]]), capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    pages: dict[str, str] = json.loads(proc.stdout)
    return pages


def _help(lang: str, cmd: list[str]) -> str:
    return _pages(lang)[" ".join(cmd)]


def _help_alone(lang: str, cmd: list[str]) -> str:
    """One page from its own ``gloom --lang LANG CMD --help`` process."""
    env = {**os.environ, "COLUMNS": "200", "TERMINAL_WIDTH": "200"}
    proc = subprocess.run([*GLOOM, "--lang", lang, *cmd, "--help"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _words(text: str) -> set[str]:
    """Words of a help page, without flags, types (<int>), ranges ([x>=1]), paths, URLs,
    identifiers (RLIMIT_AS), URL paths (/api/tables) and rates (20/minute)."""
    text = re.sub(r"<[^>]*>|--?[\w-]+|\S+\.(?:md|db|html|json)\b|\S+://\S*|\[x?[<>=\d.x ]+\]"
                  r"|\b\w*_\w*\b|(?<![\w/])/[a-z][\w/]*|\b\d+/\d*[a-z]+\b", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


@pytest.mark.parametrize("lang", ["es", "ru"])
@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: " ".join(c) or "gloom")
def test_help_shows_no_english_words_of_ours(lang: str, cmd: list[str]) -> None:
    english = _words(_help("en", cmd))
    shown = _help(lang, cmd)
    left = sorted((english & _words(shown)) - SAME_IN_EVERY_LANGUAGE)
    assert not left, f"gloom --lang {lang} {' '.join(cmd)} --help shows English: {left}\n{shown}"


@pytest.mark.parametrize(("lang", "words"), [
    ("es", ("Uso:", "Opciones", "Muestra esta ayuda y sale.", "[por defecto:", "«Las locas criaturas»")),
    ("ru", ("Вызов:", "Параметры", "Показать эту справку и выйти.", "[по умолчанию:", "Безумных тварях"))])
def test_the_frame_and_the_lesson_title_are_translated(lang: str, words: tuple[str, ...]) -> None:
    """The words typer puts around our texts, and the lesson's game by its translated title
    (it said "Crazy Creatures" where everything else says its name in the language)."""
    shown = _help(lang, []) + _help(lang, ["play"])
    for word in words:
        assert word in shown, f"{lang}: {word!r} missing"
    assert "Crazy Creatures" not in shown


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_serve_help_shows_no_english_words_of_ours(lang: str) -> None:
    english = _words(_help("en", ["serve"]))
    shown = _help(lang, ["serve"])
    left = sorted((english & _words(shown)) - SAME_IN_EVERY_LANGUAGE)
    assert not left, f"gloom --lang {lang} serve --help shows English: {left}\n{shown}"


@pytest.mark.slow  # four processes of their own
@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_page_of_its_own_process_is_the_page_above(lang: str) -> None:
    """The pages above come from one process per language; a page of its own
    ``gloom --lang LANG … --help`` process is the same, frame and all."""
    for cmd in (["play"], ["db", "copy"]):
        assert _help_alone(lang, cmd) == _help(lang, cmd)
