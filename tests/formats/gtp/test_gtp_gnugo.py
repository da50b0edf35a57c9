"""The GTP layer against a real engine: GNU Go (skipped when absent, unless CI=true)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from miai.formats.gtp import GtpCommandFailed, GtpController, find_gnugo, gnugo_channel
from miai.formats.gtp.gnugo import DEBIAN_GNUGO
from tests.conftest import need


def require_gnugo() -> None:
    """Skip without GNU Go, except on CI, where a missing engine must not pass silently."""
    need(find_gnugo() is not None, "GNU Go not installed")


@pytest.fixture
def gnugo() -> Iterator[GtpController]:
    require_gnugo()
    with GtpController(gnugo_channel(level=1, timeout=60.0)) as controller:
        yield controller


@pytest.mark.gnugo
def test_game_against_gnugo(gnugo: GtpController) -> None:
    assert gnugo.command("protocol_version") == "2"
    assert gnugo.command("name") == "GNU Go"
    gnugo.boardsize(9)
    gnugo.clear_board()
    gnugo.komi(6.5)
    gnugo.play("b", (2, 2))  # C3
    gnugo.play("white", (6, 6))  # G7
    gnugo.play("B", (7, 0))  # H1: the column letter after H is J, so this checks the skipped I
    gnugo.play("w", (8, 8))  # J9
    gnugo.play("b", None)
    assert gnugo.list_stones("b") == {(2, 2), (7, 0)}
    assert gnugo.list_stones("w") == {(6, 6), (8, 8)}
    assert not gnugo.is_legal("w", (2, 2))
    assert gnugo.is_legal("w", (4, 4))
    with pytest.raises(GtpCommandFailed):
        gnugo.play("w", (2, 2))  # occupied
    gnugo.undo()  # takes back the pass
    move = gnugo.genmove("b")
    assert move is None or move == "resign" or (isinstance(move, tuple) and move not in {(2, 2), (6, 6)})
    if isinstance(move, tuple):
        assert move in gnugo.list_stones("b")
    score = gnugo.final_score()
    assert score == "0" or score[:2] in {"B+", "W+"}
    board = gnugo.showboard()
    assert "A B C D E F G H J" in board


@pytest.mark.gnugo
def test_loadsgf_with_gnugo(gnugo: GtpController, tmp_path: Path) -> None:
    sgf = tmp_path / "game.sgf"
    sgf.write_text("(;GM[1]FF[4]SZ[9];B[cc];W[gg];B[dd])\n")
    assert gnugo.loadsgf(sgf) == "w"
    assert gnugo.list_stones("b") == {(2, 6), (3, 5)}  # SGF rows count from the top
    assert gnugo.loadsgf(sgf, 2) == "w"
    assert gnugo.list_stones("b") == {(2, 6)}
    with pytest.raises(GtpCommandFailed, match="cannot open or parse"):
        gnugo.loadsgf(tmp_path / "missing.sgf")


def test_find_gnugo_prefers_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "my-gnugo"
    monkeypatch.setenv("MIAI_GNUGO", str(fake))
    assert find_gnugo() == str(fake)  # returned even if wrong, so misconfiguration is visible


def test_find_gnugo_falls_back_to_debian_location(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MIAI_GNUGO", raising=False)
    monkeypatch.setenv("PATH", "")
    expected = DEBIAN_GNUGO if os.access(DEBIAN_GNUGO, os.X_OK) else None
    assert find_gnugo() == expected


def test_gnugo_channel_without_gnugo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("miai.formats.gtp.gnugo.find_gnugo", lambda: None)
    with pytest.raises(FileNotFoundError, match="MIAI_GNUGO"):
        gnugo_channel()


def test_gnugo_channel_rejects_negative_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("miai.formats.gtp.gnugo.find_gnugo", lambda: "/bin/true")
    with pytest.raises(ValueError, match="level"):
        gnugo_channel(level=-1)


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_missing_gnugo_skips_except_on_ci(
    monkeypatch: pytest.MonkeyPatch, ci: str, outcome: type[BaseException]
) -> None:
    monkeypatch.setitem(globals(), "find_gnugo", lambda: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="GNU Go"):
        require_gnugo()
