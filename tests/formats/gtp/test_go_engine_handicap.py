"""Handicap commands of the Go GTP engine: fixed (GTP layout), free placement by Miai, free placement set."""

from __future__ import annotations

import pytest

from miai.formats.gtp import GtpEngine
from miai.formats.gtp.go_engine import build_go_engine
from miai.formats.gtp.go_session import free_handicap_points
from miai.formats.gtp.protocol import GtpError
from tests.formats.gtp.go_helpers import fails, ok, stones


def engine(size: int) -> GtpEngine:
    gtp = build_go_engine("chinese")
    ok(gtp, f"boardsize {size}")
    return gtp


@pytest.mark.parametrize(
    ("size", "count", "expected"),
    [
        (19, 2, {"D4", "Q16"}),
        (19, 3, {"D4", "Q16", "D16"}),  # GTP: the third stone at the upper left
        (19, 4, {"D4", "Q16", "D16", "Q4"}),
        (19, 5, {"D4", "Q16", "D16", "Q4", "K10"}),
        (19, 9, {"D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"}),
        (9, 3, {"C3", "G7", "C7"}),
        (13, 6, {"D4", "K10", "D10", "K4", "D7", "K7"}),
        (7, 4, {"C3", "E5", "C5", "E3"}),
    ],
)
def test_fixed_handicap_follows_the_gtp_layout(size: int, count: int, expected: set[str]) -> None:
    gtp = engine(size)
    assert set(ok(gtp, f"fixed_handicap {count}").split()) == expected
    assert stones(gtp, "black") == expected


@pytest.mark.parametrize(("size", "count"), [(19, 1), (19, 10), (10, 5), (5, 2), (9, 0), (19, -2)])
def test_fixed_handicap_refuses_impossible_counts(size: int, count: int) -> None:
    gtp = engine(size)
    assert fails(gtp, f"fixed_handicap {count}") == "invalid handicap"
    assert stones(gtp, "black") == set()


def test_handicap_needs_an_empty_board() -> None:
    gtp = engine(19)
    ok(gtp, "play w k10")
    for line in ("fixed_handicap 2", "place_free_handicap 2", "set_free_handicap d4 q16"):
        assert fails(gtp, line) == "board not empty"
    assert fails(engine(19), "fixed_handicap two") == "handicap not an integer"


def test_after_handicap_the_game_goes_on_and_undo_stops_at_the_stones() -> None:
    gtp = engine(9)
    ok(gtp, "fixed_handicap 2")
    ok(gtp, "play w e5")
    ok(gtp, "undo")
    assert fails(gtp, "undo") == "cannot undo"
    assert stones(gtp, "black") == {"C3", "G7"}
    ok(gtp, "clear_board")
    assert stones(gtp, "black") == set()


@pytest.mark.parametrize(("size", "count"), [(19, 2), (19, 9), (19, 30), (9, 9), (9, 20), (13, 12), (5, 7),
                                             (2, 2), (10, 12)])
def test_place_free_handicap_places_distinct_stones(size: int, count: int) -> None:
    gtp = engine(size)
    placed = ok(gtp, f"place_free_handicap {count}").split()
    assert len(placed) == len(set(placed)) == min(count, (size * size + 1) // 2)
    assert stones(gtp, "black") == set(placed)  # the engine refuses positions with chains without liberties


def test_place_free_handicap_uses_the_fixed_layout_first() -> None:
    gtp = engine(19)
    assert set(ok(gtp, "place_free_handicap 4").split()) == {"D4", "Q16", "D16", "Q4"}


def test_place_free_handicap_refuses_bad_counts() -> None:
    gtp = engine(9)
    assert fails(gtp, "place_free_handicap 1") == "invalid number of stones"
    assert fails(gtp, "place_free_handicap 81") == "invalid number of stones"
    assert fails(gtp, "place_free_handicap x") == "handicap not an integer"


def test_free_handicap_points_never_touch_on_large_counts() -> None:
    points = free_handicap_points(19, 150)
    assert len(points) == len(set(points)) == 150
    with pytest.raises(GtpError):
        free_handicap_points(19, 361)


def test_set_free_handicap() -> None:
    gtp = engine(9)
    ok(gtp, "set_free_handicap c3 g7 e5")
    assert stones(gtp, "black") == {"C3", "G7", "E5"}
    ok(gtp, "play w d4")
    ok(gtp, "clear_board")
    assert fails(gtp, "set_free_handicap c3 c3") == "repeated vertex"
    assert fails(gtp, "set_free_handicap c3") == "invalid handicap"
    assert fails(gtp, "set_free_handicap c3 pass").startswith("invalid handicap")
    assert fails(gtp, "set_free_handicap c3 z9") == "vertex Z9 is off a 9x9 board"
    assert stones(gtp, "black") == set()


def test_set_free_handicap_refuses_stones_without_liberties() -> None:
    gtp = engine(2)
    assert fails(gtp, "set_free_handicap a1 a2 b1 b2") == "invalid handicap"


def test_handicap_bonus_survives_komi_and_rules_changes() -> None:
    gtp = build_go_engine("aga")
    ok(gtp, "boardsize 9")
    ok(gtp, "fixed_handicap 4")
    ok(gtp, "komi 0")
    # Area: all 81 points are Black's; AGA gives White one point per handicap stone after the first.
    assert ok(gtp, "final_score") == "B+78.0"
    ok(gtp, "play w e5")
    ok(gtp, "undo")
    ok(gtp, "kgs-rules chinese")  # Chinese: one point per handicap stone
    assert ok(gtp, "final_score") == "B+77.0"
    assert fails(gtp, "undo") == "cannot undo"
