"""Levels 1..10, external engines as extra levels, and their configuration."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from miai.core.go import PASS, Place, Rules, new_game
from miai.engines import levels
from miai.engines.go_player import GoPlayer
from miai.engines.levels import (
    ExternalEngine,
    external_engines,
    make_move_generator,
    parse_engines,
    style,
)
from miai.engines.searchers import choose_move_any_game

GTP_TESTS = Path(__file__).resolve().parents[1] / "formats" / "gtp"
FAKE_ENGINE = str(GTP_TESTS / "fake_gtp_engine.py")  # answers genmove with garbage
SCRIPTED_ENGINE = str(GTP_TESTS / "scripted_go_engine.py")  # answers genmove with the --moves given


def test_levels_grow_in_budget_and_shrink_in_errors() -> None:
    styles = [style(level) for level in range(1, 10)]
    playouts = [s.playouts or 0 for s in styles]
    assert playouts == sorted(playouts) and len(set(playouts)) == 9
    assert playouts[0] <= 50  # a beginner thinks very little
    blunders = [s.blunder_rate for s in styles]
    assert blunders == sorted(blunders, reverse=True) and blunders[0] > 0.2 and blunders[-1] == 0
    caps = [s.seconds or 0 for s in styles]
    assert caps == sorted(caps)
    top = style(10, seconds=3.0)
    assert top.playouts is None and top.seconds == 3.0  # level 10 searches for the whole time budget
    assert style(10).seconds == levels.DEFAULT_SECONDS
    assert style(9, seconds=1.5).seconds == 1.5  # a shorter time caps a level


@pytest.mark.parametrize("bad", [0, 11.5, -1, True, "x" * 3])
def test_unknown_levels_are_refused_clearly(bad: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_EXTERNAL_ENGINES", "[]")
    monkeypatch.setenv("MIAI_GNUGO", "/nonexistent/gnugo")
    with pytest.raises(ValueError, match=r"level|engine"):
        make_move_generator(bad, seconds=1.0)  # type: ignore[arg-type]


def test_style_refuses_bad_times() -> None:
    for seconds in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="seconds"):
            style(10, seconds)


def test_internal_generator_plays_legal_moves() -> None:
    generator = make_move_generator(3, seconds=1.0, seed=4)
    assert isinstance(generator, GoPlayer)
    state = new_game(7, Rules(komi=(0.0, 7.5)))
    for _ in range(10):
        move = generator(state, state.to_move, None)
        assert move == PASS or state.is_legal(move)
        state = state.play(move)


def test_engines_from_json_and_toml(tmp_path: Path) -> None:
    text = json.dumps([{"name": "kata", "command": "katago gtp -config 'my cfg.cfg'", "level": 12}])
    assert parse_engines(text) == [ExternalEngine("kata", ("katago", "gtp", "-config", "my cfg.cfg"), 12)]
    toml = tmp_path / "engines.toml"
    toml.write_text(
        '[[engine]]\nname = "pachi"\ncommand = ["pachi", "-t", "=5000"]\n\n'
        '[[engine]]\nname = "leela"\ncommand = ["leelaz", "--gtp"]\nlevel = 14\n'
    )
    assert parse_engines(str(toml)) == [
        ExternalEngine("pachi", ("pachi", "-t", "=5000"), None),
        ExternalEngine("leela", ("leelaz", "--gtp"), 14),
    ]
    assert parse_engines("  ") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[{", "not valid JSON"),
        ('{"name": "x"}', "list of engines"),
        ('[{"name": "x"}]', "command"),
        ('[{"name": "x", "command": []}]', "command"),
        ('[{"name": "x y", "command": ["a"]}]', "name"),
        ('[{"name": "x", "command": ["a"], "level": 5}]', "above 10"),
        ('[{"name": "x", "command": ["a"], "speed": 5}]', "unknown field"),
        ('[{"name": "x", "command": ["a"]}, {"name": "x", "command": ["b"]}]', "name used twice"),
        (
            '[{"name": "x", "command": ["a"], "level": 12}, {"name": "y", "command": ["b"], "level": 12}]',
            "twice",
        ),
        ("/nonexistent/engines.toml", "cannot read"),
    ],
)
def test_bad_engine_configuration_is_explained(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_engines(text)


def test_gnugo_is_level_11_when_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "gnugo"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MIAI_GNUGO", str(fake))
    engines = external_engines({})
    assert engines == [ExternalEngine("gnugo", (str(fake), "--mode", "gtp", "--level", "10"), 11)]
    configured = external_engines(
        {"MIAI_EXTERNAL_ENGINES": '[{"name": "gnugo", "command": ["gg"], "level": 13}]'}
    )
    assert configured == [ExternalEngine("gnugo", ("gg",), 13)]  # the operator's entry replaces it


def test_external_engine_by_name_and_number(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each way of naming an external engine reaches that engine: its own answer is the move played."""
    records = [
        {"name": "corner", "command": [sys.executable, SCRIPTED_ENGINE, "--moves", "A1"], "level": 12},
        {"name": "other", "command": [sys.executable, SCRIPTED_ENGINE, "--moves", "B2"], "level": 13},
    ]
    monkeypatch.setenv("MIAI_EXTERNAL_ENGINES", json.dumps(records))
    state = new_game(7, Rules(komi=(0.0, 7.5)))
    # No search of Miai's own would open in the corner of an empty board.
    for level in ("corner", 12, "12"):
        assert make_move_generator(level, seconds=0.2)(state, 0, None) == Place(0), level
    for level in ("other", 13):
        assert make_move_generator(level, seconds=0.2)(state, 0, None) == Place(8), level


def test_external_engine_answering_garbage_falls_back_on_miai(monkeypatch: pytest.MonkeyPatch) -> None:
    record = [{"name": "fake", "command": [sys.executable, FAKE_ENGINE], "level": 12}]
    monkeypatch.setenv("MIAI_EXTERNAL_ENGINES", json.dumps(record))
    state = new_game(7, Rules(komi=(0.0, 7.5)))
    move = make_move_generator("fake", seconds=0.2)(state, 0, None)
    assert isinstance(move, Place) and state.is_legal(move)  # level 10 plays on, it does not pass


def test_any_game_levels() -> None:
    from miai.core import hex

    state = hex.new_game(5, opening="none")
    for level in (1, 4):
        move = choose_move_any_game(state, level, seed=2)
        assert move in state.legal_moves()
    assert choose_move_any_game(state, 3, seed=9) == choose_move_any_game(state, 3, seed=9)
    go = new_game(5, Rules(komi=(0.0, 0.5)))
    assert go.is_legal(choose_move_any_game(go, 2, seed=1))
    with pytest.raises(ValueError, match="levels"):
        choose_move_any_game(state, 11, seed=1)


def test_search_threads_follow_the_environment() -> None:
    assert levels.search_threads({"MIAI_SEARCH_THREADS": "3"}) == 3
    assert 1 <= levels.search_threads({}) <= 8
    for bad in ("0", "65", "two", "-1"):
        with pytest.raises(ValueError, match="MIAI_SEARCH_THREADS must be a whole number"):
            levels.search_threads({"MIAI_SEARCH_THREADS": bad})


def test_only_the_top_level_searches_on_several_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_SEARCH_THREADS", "2")
    assert style(10).threads == 2
    assert style(9).threads == 1
