"""The live territory estimate (the "Area" view), and the estimator behind GTP's final_score and
final_status_list.
"""

from __future__ import annotations

import pytest

from miai.core.go import new_game
from miai.engines.estimator import GtpEstimator, area_estimate, decode_area
from miai.formats.gtp.go_engine import build_go_engine
from tests.engines.test_estimator import DAME, DEAD_INSIDE, THREE_AREAS, position
from tests.formats.gtp.go_helpers import ok


def test_two_colours_give_black_minus_white_per_point() -> None:
    state, diagram = position(DAME)
    area = area_estimate(state, 300, seed=1)
    assert len(area) == 25 and all(-1.0 <= value <= 1.0 for value in area)
    assert area[diagram.point("A1")] == 1.0 and area[diagram.point("B3")] == 1.0, "Black's eye and stone"
    assert area[diagram.point("E1")] == -1.0 and area[diagram.point("D3")] == -1.0
    assert all(-1.0 < area[diagram.point(f"C{row}")] < 1.0 for row in range(1, 6)), "the dame are open"
    assert area_estimate(state, 300, seed=1) == area


def test_dead_stones_count_for_the_colour_around_them() -> None:
    state, diagram = position(DEAD_INSIDE)
    area = area_estimate(state, 300)
    assert area[diagram.point("C7")] > 0 and area[diagram.point("H4")] < 0


def test_an_empty_board_is_open_for_both() -> None:
    area = area_estimate(new_game(9), 200)
    assert max(abs(value) for value in area) < 0.5


def test_more_colours_give_the_likely_colour_and_its_confidence() -> None:
    state, diagram = position(THREE_AREAS, colours=3)
    area = area_estimate(state, 300)
    for vertex, colour in (("A1", 0), ("E5", 1), ("J9", 2), ("A5", 0)):
        owner, confidence = decode_area(area[diagram.point(vertex)])
        assert owner == colour and 0.5 < confidence <= 1.0, vertex


def test_decoding_nobody() -> None:
    assert decode_area(-1.0) == (None, 0.0)
    assert decode_area(2.25) == (2, 0.5)


def test_playouts_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least one playout"):
        area_estimate(new_game(9), 0)


# ---------------------------------------------------------------- the GTP engine's estimator


def test_gtp_final_status_and_score_use_the_estimator() -> None:
    """SPEC §1.11.6 (b), a shape that only looks like a seki: GNU Go 3.8 also says White dead, B+25.0."""
    engine = build_go_engine("chinese", estimator=GtpEstimator(playouts=400))
    ok(engine, "boardsize 5")
    ok(engine, "komi 0")
    for vertex in ("A3", "B3", "C3", "D3", "E3", "E2", "E1", "B1"):
        ok(engine, f"play black {vertex}")
    for vertex in ("A2", "B2", "C2", "D2", "D1"):
        ok(engine, f"play white {vertex}")
    assert set(ok(engine, "final_status_list dead").split()) == {"A2", "B2", "C2", "D2", "D1"}
    assert ok(engine, "final_status_list seki") == ""
    assert ok(engine, "final_score") == "B+25.0"


def test_gtp_final_status_lists_a_true_seki() -> None:
    """SPEC §1.11.6 (a): GNU Go 3.8 gives the same seki stones and B+18.5."""
    engine = build_go_engine("chinese", estimator=GtpEstimator(playouts=400))
    ok(engine, "boardsize 9")
    ok(engine, "komi 7.5")
    black = ["D9", "D8", "D7", "D6", "D5", "D4", "D3", "E3", "F3", "G3", "A2", "B2", "C2", "G2", "B1", "G1"]
    white = ["C9", "C8", "C7", "C6", "C5", "C4", "A3", "B3", "C3", "D2", "E2", "F2", "D1", "F1"]
    for vertex in black:
        ok(engine, f"play black {vertex}")
    for vertex in white:
        ok(engine, f"play white {vertex}")
    assert ok(engine, "final_status_list dead") == ""
    seki = set(ok(engine, "final_status_list seki").split())
    assert seki == {"A2", "B2", "C2", "B1", "D2", "E2", "F2", "D1", "F1"}
    assert ok(engine, "final_score") == "B+18.5"


def test_gtp_estimator_reports_dead_stones() -> None:
    state, _ = position(DEAD_INSIDE)
    judgement = GtpEstimator(playouts=400, seed=3).judge(state)
    assert {state.colour_at(p) for p in judgement.dead} == {0, 1}
    assert not judgement.seki
