"""Seki judged right both ways (SPEC §1.11.6): true sekis stay alive, shapes that only look like seki die.

Every two-colour position here was checked by hand with GNU Go 3.8 (`loadsgf`, `final_status_list dead`
and `seki`, `final_score` under --chinese-rules with komi 7.5 and --japanese-rules with komi 6.5, or komi
0 where given); the expected dead stones, seki stones and results below are its answers unless a comment
says otherwise. Diagrams: X Black (colour 0), O White (1), R a third colour.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from miai.core.go import GoState, Result, preset
from miai.engines.estimator import estimate, reading, score_judged
from miai.engines.estimator.chains import Chains
from miai.engines.estimator.reading import Budget, LocalReading, Verdict
from miai.formats.ascii import Diagram
from tests.core.go.helpers import from_diagram
from tests.engines.test_estimator import check_invariants, points, position

PLAYOUTS = 600

# SPEC §1.11.6 (a): one eye each (A1 Black's, E1 White's), C1 shared.
SPEC_SEKI = """
 9 . . O X . . . . .
 8 . . O X . . . . .
 7 . . O X . . . . .
 6 . . O X . . . . .
 5 . . O X . . . . .
 4 . . O X . . . . .
 3 O O O X X X X . .
 2 X X X O O O X . .
 1 . X . O . O X . .
   A B C D E F G H J
"""

# SPEC §1.11.6 (b), given as a seki until 2026-11-25: Black A1, White C1 takes two, Black B1, White A1
# takes one, Black B1 takes all seven White stones.
SPEC_NOT_SEKI = """
 5 . . . . .
 4 . . . . .
 3 X X X X X
 2 O O O O X
 1 . X . O X
   A B C D E
"""

# Issue #24: straight three D1 E1 F1 with Black on its vital point E1. Black D1, White F1 takes two,
# Black throws in again: one eye.
STRAIGHT_THREE = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 O O O O O O O O O
 5 X X X X X X X X X
 4 . . . . . . . . .
 3 X X X X X X X X X
 2 . X O O O O O X .
 1 . X O . X . O X .
   A B C D E F G H J
"""

# Bent three D1 E1 E2 with Black on its vital point E1.
BENT_THREE = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 O O O O O O O O O
 6 X X X X X X X X X
 5 . . . . . . . . .
 4 X X X X X X X X X
 3 . X X O O O X . .
 2 . X O O . O X . .
 1 . X O . X O X . .
   A B C D E F G H J
"""

# Straight four D1..G1 with Black E1 F1 inside: filling D1 or G1 lets White take three and leaves it a
# straight three with Black to play, so White dies.
FOUR_WITH_TWO_INSIDE = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 O O O O O O O O O
 5 X X X X X X X X X
 4 . . . . . . . . .
 3 X X X X X X X X X
 2 . X O O O O O O X
 1 . X O . X X . O X
   A B C D E F G H J
"""

# Eyeless: Black B1 C1 D1 and White's A2..F2 F1 share A1 and E1. Whoever fills one is captured, and the
# capture leaves the other a straight four: alive.
EYELESS_SEKI = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 O O O O O O O O O
 5 X X X X X X X X X
 4 . . . . . . . . .
 3 X X X X X X X X X
 2 O O O O O O X . .
 1 . X X X . O X . .
   A B C D E F G H J
"""

# Eyeless, sharing an eye: the two-point space C2 D2 touches Black's B1 B2 C1 D1 E1 E2 and White's chain
# around it; neither can fill it.
SHARED_EYE_SEKI = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 O O O O O O O O O
 6 X X X X X X X X X
 5 . . . . . . . . .
 4 X X X X X X X X X
 3 O O O O O O X . .
 2 O X . . X O X . .
 1 O X X X X O X . .
   A B C D E F G H J
"""

# Straight five C1..G1 with Black D1 E1 F1 inside: filling C1 or G1 lets White take four, a straight four,
# which lives; so it is a seki.
FIVE_WITH_THREE_INSIDE = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 O O O O O O O O O
 5 X X X X X X X X X
 4 . . . . . . . . .
 3 X X X X X X X X X
 2 X O O O O O O O X
 1 X O . X X X . O X
   A B C D E F G H J
"""


@dataclass(frozen=True)
class Case:
    name: str
    diagram: str
    dead: str  # vertices, "" for none
    seki: str
    chinese: str  # final_score, komi 7.5 (or `komi`)
    japanese: str  # final_score, komi 6.5 (or `komi`)
    komi: float | None = None


CASES = [
    # GNU Go gives B+16.5 under Japanese rules here: it counts G7, inside Black's wall, as dame. Black 36,
    # White 12 + 6.5 is B+17.5, as SPEC §1.11.6 says.
    Case("spec seki", SPEC_SEKI, "", "A2 B2 C2 B1 D2 E2 F2 D1 F1", "B+18.5", "B+17.5"),
    Case("spec not seki", SPEC_NOT_SEKI, "A2 B2 C2 D2 D1", "", "B+25", "B+22", komi=0),
    Case("straight three", STRAIGHT_THREE, "C2 D2 E2 F2 G2 C1 G1", "", "B+1.5", "W+4.5"),
    Case("bent three", BENT_THREE, "D3 E3 F3 C2 D2 F2 C1 F1", "", "B+19.5", "B+11.5"),
    Case("four with two inside", FOUR_WITH_TWO_INSIDE, "C2 D2 E2 F2 G2 H2 C1 H1", "", "B+1.5", "W+4.5"),
    Case("eyeless seki", EYELESS_SEKI, "", "A2 B2 C2 D2 E2 F2 F1 B1 C1 D1", "W+14.5", "W+20.5"),
    Case(
        "seki sharing an eye",
        SHARED_EYE_SEKI,
        "",
        "A3 B3 C3 D3 E3 F3 A2 F2 A1 F1 B2 E2 B1 C1 D1 E1",
        "W+2.5",
        "W+9.5",
    ),
    Case(
        "five with three inside",
        FIVE_WITH_THREE_INSIDE,
        "",
        "B2 C2 D2 E2 F2 G2 H2 B1 H1 D1 E1 F1",
        "W+18.5",
        "W+24.5",
    ),
]


def game(text: str, rules_key: str, komi: float | None = None) -> tuple[GoState, Diagram]:
    size = int(text.split(maxsplit=1)[0])
    rules = preset(rules_key, size, komi=komi)
    return from_diagram(text, replace(rules, allowed_sizes=(size,)))


def margin(result: Result) -> str:
    black, white = (score.total for score in result.scores)
    return f"B+{black - white:g}" if black > white else f"W+{white - black:g}"


def vertices(diagram: Diagram, text: str) -> frozenset[int]:
    return points(diagram, text) if text else frozenset()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@pytest.mark.parametrize("rules_key", ["chinese", "japanese"])
def test_dead_stones_seki_and_result_agree_with_gnugo(case: Case, rules_key: str) -> None:
    state, diagram = game(case.diagram, rules_key, case.komi)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert judgement.dead == vertices(diagram, case.dead)
    assert judgement.seki == vertices(diagram, case.seki)
    assert margin(score_judged(state, judgement)) == getattr(case, rules_key)


# ---------------------------------------------------------------- SPEC §1.11.6 in detail


def test_spec_seki_counts_as_the_spec_says() -> None:
    state, diagram = game(SPEC_SEKI, "chinese")
    result = score_judged(state, estimate(state, PLAYOUTS))
    assert [s.total for s in result.scores] == [53, 34.5]  # 16 + 36 + eye A1; 14 + 12 + eye E1 + 7.5
    assert result.owner[diagram.point("A1")] == 0 and result.owner[diagram.point("E1")] == 1
    assert result.owner[diagram.point("C1")] is None

    state, diagram = game(SPEC_SEKI, "japanese")
    judgement = estimate(state, PLAYOUTS)
    result = score_judged(state, judgement)
    assert [s.territory for s in result.scores] == [36, 12]
    assert [s.total for s in result.scores] == [36, 18.5]
    assert points(diagram, "A1 C1 E1") <= judgement.neutral, "eyes in seki and the shared liberty"


def test_spec_not_seki_is_a_dead_white_group() -> None:
    state, _ = game(SPEC_NOT_SEKI, "chinese", komi=0)
    judgement = estimate(state, PLAYOUTS)
    assert judgement.dead == frozenset(state.stones(1)), "a naive seki rule would spare the White group"
    assert not judgement.seki
    result = score_judged(state, judgement)
    assert [s.total for s in result.scores] == [25, 0]  # 8 stones + 17 points
    assert any(line.startswith("Dead: White") and "read out" in line for line in judgement.reasons)


def test_spec_not_seki_under_all_alive_counts_every_stone() -> None:
    state, diagram = game(SPEC_NOT_SEKI, "tromp-taylor", komi=0)
    result = score_judged(state, estimate(state, PLAYOUTS))
    assert [s.total for s in result.scores] == [18, 5]
    assert result.owner[diagram.point("A1")] is None and result.owner[diagram.point("C1")] is None


def test_issue_24_straight_three_flips_the_winner() -> None:
    """Miai used to call this a seki and give White the game 50.5 to 36."""
    state, _ = game(STRAIGHT_THREE, "chinese")
    result = score_judged(state, estimate(state, PLAYOUTS))
    assert [s.total for s in result.scores] == [45, 43.5]
    assert result.winners == (0,)


# ---------------------------------------------------------------- more colours


def test_seki_between_two_colours_inside_a_third_colours_wall() -> None:
    """SPEC (a)'s inner groups walled in by Red, which cannot play A1, C1 or E1 (suicide)."""
    text = """
     7 . . . . . . .
     6 . . . . . . .
     5 . . . . . . .
     4 . . . . . . .
     3 R R R R R R R
     2 X X X O O O R
     1 . X . O . O R
       A B C D E F G
    """
    state, diagram = position(text, colours=3)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert not judgement.dead
    assert judgement.seki == points(diagram, "A2 B2 C2 B1 D2 E2 F2 D1 F1")
    assert diagram.point("C1") in judgement.neutral
    assert judgement.owner[diagram.point("A1")] == 0 and judgement.owner[diagram.point("E1")] == 1
    assert judgement.owner.count(2) == 37  # 9 stones and rows 4-7


# ---------------------------------------------------------------- the reading itself


def fight_on_the_first_lines(text: str) -> tuple[Chains, list[int], LocalReading]:
    """The chains short of liberties along the first two lines, read as one fight."""
    state, diagram = game(text, "chinese")
    chains = Chains(state)
    low = {diagram.point(f"{col}{row}") for col in "ABCDEFGHJ" for row in (1, 2)}
    fight = [
        i for i, chain in enumerate(chains.chains) if chain.liberties & low and len(chain.liberties) <= 3
    ]
    return chains, fight, LocalReading(chains, set(fight))


def verdicts(text: str) -> list[Verdict]:
    chains, fight, local = fight_on_the_first_lines(text)
    found = [local.verdict(chains.chains[i].points, chains.chains[i].colour) for i in fight]
    return sorted(found, key=lambda verdict: verdict.value)


def test_a_nakade_behind_a_sacrifice_is_dead_and_the_killer_safe() -> None:
    assert verdicts(STRAIGHT_THREE) == [Verdict.DEAD, Verdict.SAFE]  # White's group; Black E1


def test_whoever_moves_first_decides_is_unsettled_not_dead() -> None:
    """Straight five with two Black stones inside: White F1 captures them, Black F1 makes the seki above."""
    text = FIVE_WITH_THREE_INSIDE.replace("1 X O . X X X . O X", "1 X O . X X . . O X")
    assert verdicts(text) == [Verdict.SAFE, Verdict.UNSETTLED]  # White's group; Black D1 E1


def test_a_search_cut_short_is_open_and_leaves_the_position_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chains, fight, local = fight_on_the_first_lines(STRAIGHT_THREE)
    white = next(chains.chains[i] for i in fight if chains.chains[i].colour == 1)
    monkeypatch.setattr(reading, "MAX_NODES", 3)
    assert local.verdict(white.points, 1) is Verdict.OPEN
    monkeypatch.undo()
    assert local.board == chains.board, "an abandoned line must not stay on the board"
    assert local.verdict(white.points, 1) is Verdict.DEAD


def test_the_budget_is_shared_and_runs_out() -> None:
    chains, fight, _ = fight_on_the_first_lines(STRAIGHT_THREE)
    white = next(chains.chains[i] for i in fight if chains.chains[i].colour == 1)
    budget = Budget(left=40)
    assert LocalReading(chains, set(fight), budget).verdict(white.points, 1) is Verdict.DEAD
    assert 0 < budget.left < 40
    budget.left = 0
    assert LocalReading(chains, set(fight), budget).verdict(white.points, 1) is Verdict.OPEN
