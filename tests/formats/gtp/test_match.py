"""The match tool: complete games between GTP engines, refereed by the core; faults end a game, never
the match."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from miai.formats.gtp.match import MatchSettings, engine_argv, play_match
from miai.formats.sgf.go import load_go

SCRIPTED = f"{{python}} {Path(__file__).with_name('scripted_go_engine.py')}"
MIAI = "{python} -m miai gtp --level simple --seed"


def scripted(*options: str) -> str:
    return " ".join([SCRIPTED, *options])


def test_engine_argv() -> None:
    assert engine_argv("{python} -m miai gtp") == [sys.executable, "-m", "miai", "gtp"]
    assert engine_argv("gnugo --mode 'gtp'") == ["gnugo", "--mode", "gtp"]
    with pytest.raises(ValueError, match="empty"):
        engine_argv("   ")
    with pytest.raises(ValueError):
        engine_argv("gnugo 'unbalanced")


def test_two_miai_engines_play_complete_games(tmp_path: Path) -> None:
    messages: list[str] = []
    settings = MatchSettings(f"{MIAI} 1", f"{MIAI} 2", size=7, games=2, komi=0.5, alternate=True,
                             sgf_dir=tmp_path)
    report, finals = play_match(settings, messages.append)
    assert [game.black for game in report.games] == [0, 1]
    assert report.faults == 0
    assert report.wins(0) + report.wins(1) == 2  # komi 0.5: no draws
    for game, final in zip(report.games, finals, strict=True):
        assert game.reason == "passes"
        assert game.moves == final.plies > 2
        assert game.margin is not None and game.result == f"{'BW'[game.winner or 0]}+{abs(game.margin):g}"
        # Miai's final_score agrees with the referee: both count every stone as alive by area.
        assert game.engine_scores == (game.result, game.result)
        assert game.sgf is not None
        record = load_go(game.sgf.read_bytes())
        assert record.state.position() == final.position()
        assert record.info["PB"].startswith("Miai") and record.info["RE"] == game.result
    assert any("game 2/2" in message for message in messages)
    summary = report.summary()
    assert "A = Miai" in summary and "faults: 0" in summary


def test_an_illegal_move_loses_the_game_and_the_match_goes_on(tmp_path: Path) -> None:
    settings = MatchSettings(scripted("--moves", "C3,C3"), f"{MIAI} 3", size=9, games=2, sgf_dir=tmp_path)
    report, _ = play_match(settings)
    first, second = report.games
    assert first.reason == "fault" and first.result == "W+F"
    assert first.fault is not None and "engine A" in first.fault and "illegal move Black C3" in first.fault
    assert first.moves == 2  # C3, then White's answer; the second C3 is refused
    assert first.sgf is not None and "RE[W+F]" in first.sgf.read_text()
    assert second.reason == "passes"  # the scripted engine passes from then on
    assert report.faults == 1


@pytest.mark.parametrize(
    ("black", "white", "faulty", "fault"),
    [
        (scripted("--moves", "Z99"), f"{MIAI} 1", 0, "genmove answered 'Z99'"),
        (scripted("--moves", "hello"), f"{MIAI} 1", 0, "genmove answered 'hello'"),
        (f"{MIAI} 1", scripted("--refuse-play"), 1, "refused 'play b"),
        (scripted("--die-at-genmove", "2"), f"{MIAI} 1", 0, "exited with code 3"),
        ("/no/such/engine", f"{MIAI} 1", 0, "cannot start engine"),
    ],
)
def test_protocol_errors_are_faults(black: str, white: str, faulty: int, fault: str) -> None:
    report, _ = play_match(MatchSettings(black, white, size=5, games=1, timeout=30))
    (game,) = report.games
    assert game.reason == "fault"
    assert game.fault is not None and fault in game.fault and game.fault.startswith(f"engine {'AB'[faulty]}")
    assert game.winning_engine == 1 - faulty


def test_a_dead_engine_is_restarted_for_the_next_game() -> None:
    settings = MatchSettings(scripted("--die-at-genmove", "1"), f"{MIAI} 4", size=5, games=2)
    report, _ = play_match(settings)
    assert [game.reason for game in report.games] == ["fault", "fault"]  # dies again after its restart
    assert all(game.winning_engine == 1 for game in report.games)


def test_resignation() -> None:
    report, finals = play_match(MatchSettings(f"{MIAI} 5", scripted("--moves", "D4,resign"), size=9))
    (game,) = report.games
    assert game.reason == "resignation" and game.result == "B+R" and game.winning_engine == 0
    assert finals[0].plies == 3


def test_move_limit_ends_and_scores_the_game() -> None:
    report, finals = play_match(MatchSettings(f"{MIAI} 6", f"{MIAI} 7", size=9, komi=7.5, max_moves=10))
    (game,) = report.games
    assert game.reason == "move limit" and game.moves == 10 == finals[0].plies
    assert game.margin is not None
