"""`miai gtp` against GNU Go through the match tool: complete games without a protocol error, and records
that GNU Go itself loads into the same final position."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from miai.formats.gtp import GtpController, find_gnugo, gnugo_channel
from miai.formats.gtp.match import MatchSettings, play_match
from tests.conftest import need

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def vertices(points: list[int], size: int) -> set[tuple[int, int]]:
    return {(p % size, p // size) for p in points}


def play_against_gnugo(size: int, tmp_path: Path) -> None:
    gnugo = find_gnugo()
    need(gnugo is not None, "GNU Go not installed")
    assert gnugo is not None
    settings = MatchSettings(
        black="{python} -m miai gtp --level 1 --seed 11",
        white=f"{shlex.quote(gnugo)} --mode gtp --level 1",
        size=size,
        komi=7.5,
        sgf_dir=tmp_path,
        timeout=120,
    )
    report, finals = play_match(settings)
    (game,) = report.games
    assert game.fault is None, game.fault
    assert game.reason in ("passes", "resignation")
    assert report.names[1].startswith("GNU Go")
    assert all(score and not score.startswith("?") for score in game.engine_scores)
    final = finals[0]
    assert game.sgf is not None
    with GtpController(gnugo_channel(level=1)) as controller:
        assert controller.loadsgf(game.sgf) in ("b", "w")
        controller.size = size
        assert controller.list_stones("black") == vertices(final.stones(0), size)
        assert controller.list_stones("white") == vertices(final.stones(1), size)


@pytest.mark.gnugo
def test_a_9x9_game_against_gnugo(tmp_path: Path) -> None:
    play_against_gnugo(9, tmp_path)


@pytest.mark.gnugo
@pytest.mark.slow
def test_a_19x19_game_against_gnugo(tmp_path: Path) -> None:
    play_against_gnugo(19, tmp_path)
