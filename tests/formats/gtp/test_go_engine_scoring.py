"""final_score and final_status_list: every stone alive without an estimator, the estimator's verdict
with one, and seki eyes that are no territory under territory scoring."""

from __future__ import annotations

from dataclasses import dataclass

from miai.core.go import GoState
from miai.formats.gtp import GtpEngine
from miai.formats.gtp.go_engine import build_go_engine
from miai.formats.gtp.go_players import Judgement
from tests.formats.gtp.go_helpers import fails, ok

COLUMNS = "ABCDEFGHJ"


def point(vertex: str, size: int) -> int:
    return (int(vertex[1:]) - 1) * size + COLUMNS.index(vertex[0])


@dataclass
class FixedEstimator:
    dead: tuple[str, ...] = ()
    seki: tuple[str, ...] = ()
    judged: int = 0

    def judge(self, state: GoState) -> Judgement:
        self.judged += 1
        size = state.size
        dead = frozenset(point(v, size) for v in self.dead)
        return Judgement(dead, frozenset(point(v, size) for v in self.seki))


# Black owns the left, White the right; a white stone sits inside Black's area at A1.
POSITION = ("play b b5", "play b b4", "play b b3", "play b b2", "play b b1",
            "play w c5", "play w c4", "play w c3", "play w c2", "play w c1", "play w a1")


def engine(preset: str, estimator: FixedEstimator | None = None) -> GtpEngine:
    gtp = build_go_engine(preset, estimator=estimator)
    ok(gtp, "boardsize 5")
    ok(gtp, "komi 0.5")
    for line in POSITION:
        ok(gtp, line)
    return gtp


def test_without_an_estimator_every_stone_is_alive() -> None:
    gtp = engine("chinese")
    # A1's stone lives, so A2..A5 touch both colours: neutral. Black 5 stones; White 6 stones + the D and
    # E files = 16, plus komi 0.5.
    assert ok(gtp, "final_score") == "W+11.5"
    assert ok(gtp, "final_status_list dead") == ""
    assert ok(gtp, "final_status_list seki") == ""
    alive = ok(gtp, "final_status_list alive").split("\n")
    assert alive == ["B5 B4 B3 B2 B1", "C5 C4 C3 C2 C1", "A1"]  # one chain per line, top chain first


def test_the_estimators_dead_stones_count_for_the_other_side() -> None:
    estimator = FixedEstimator(dead=("A1",))
    gtp = engine("chinese", estimator)
    # Black: 5 stones + 5 points of A (A1 under the dead stone included) = 10; White 5 + 10 = 15.
    assert ok(gtp, "final_score") == "W+5.5"
    assert ok(gtp, "final_status_list dead") == "A1"
    assert "A1" not in ok(gtp, "final_status_list alive")
    assert estimator.judged == 3


def test_territory_scoring_with_the_estimator() -> None:
    gtp = engine("japanese", FixedEstimator(dead=("A1",)))
    # Black: territory A1..A5 = 5 (the point under the dead stone included). White: territory on the D
    # and E files = 10, minus its dead stone = 9, plus komi 0.5.
    assert ok(gtp, "final_score") == "W+4.5"


SEKI = ("play b a4", "play b b4", "play b b5", "play w c5", "play w c4", "play w c3", "play w b3",
        "play w a3")


def seki_engine(preset: str, estimator: FixedEstimator | None) -> GtpEngine:
    gtp = build_go_engine(preset, estimator=estimator)
    ok(gtp, "boardsize 5")
    ok(gtp, "komi 0")
    for line in SEKI:
        ok(gtp, line)
    return gtp


def test_eyes_of_stones_in_seki_are_no_territory_under_territory_scoring() -> None:
    plain = seki_engine("japanese", None)
    judged = seki_engine("japanese", FixedEstimator(seki=("A4", "B4", "B5")))
    # White's territory: rows 1-2 and the D and E files of rows 3-5 = 16. Without the verdict Black's eye
    # A5 is a point of territory; in seki it is not.
    assert ok(plain, "final_score") == "W+15.0"
    assert ok(judged, "final_score") == "W+16.0"
    assert ok(judged, "final_status_list seki") == "B5 A4 B4"
    assert "A4" not in ok(judged, "final_status_list alive")


def test_area_scoring_counts_seki_eyes() -> None:
    plain = seki_engine("chinese", None)
    judged = seki_engine("chinese", FixedEstimator(seki=("A4", "B4", "B5")))
    assert ok(plain, "final_score") == ok(judged, "final_score")


def test_final_status_list_refuses_unknown_statuses() -> None:
    gtp = build_go_engine()
    assert fails(gtp, "final_status_list unknown") == "invalid status"
    assert fails(gtp, "final_status_list").startswith("wrong number of arguments")
    assert ok(gtp, "final_status_list ALIVE") == ""
