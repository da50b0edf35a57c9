"""The dead-stone estimator on SPEC's dame examples and on textbook positions (seki: test_seki.py).

Diagrams: X Black (colour 0), O White (1), R the third colour.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from miai.core.go import GoState, KoRule, Rules, Scoring, preset
from miai.core.go.rules import DeadStones
from miai.engines.estimator import Judgement, estimate, judged_ownership, score_with_estimate
from miai.formats.ascii import Diagram, parse_diagram
from tests.core.go.helpers import from_diagram

PLAYOUTS = 600

DEAD_INSIDE = """
 9 . . . . X O . O .
 8 . . . . X O O O O
 7 . . O . X O . O .
 6 . . . . X O O O O
 5 . . . . X O . . .
 4 X X X X X O . X .
 3 . X . X X O . . .
 2 X X X X X O . . .
 1 . X . X X O . . .
   A B C D E F G H J
"""

FALSE_EYE = """
 6 . . . . . .
 5 . . . . . .
 4 O O O O O .
 3 X X X X O .
 2 X . X O O .
 1 X X . X O .
   A B C D E F
"""

DAME = """
 5 . X . O .
 4 X X . O O
 3 . X . O .
 2 X X . O O
 1 . X . O .
   A B C D E
"""


def auto_rules(size: int, colours: int = 2, **options: Any) -> Rules:
    """Rules that judge dead stones, with no komi and the diagram's board size allowed."""
    ko = KoRule.SIMPLE if colours == 2 else KoRule.POSITIONAL
    rules = Rules(ko=ko, dead_stones=DeadStones.AUTO, komi=(0.0,) * colours, allowed_sizes=(size,))
    return replace(rules, **options)


def position(text: str, colours: int = 2, **options: Any) -> tuple[GoState, Diagram]:
    size = parse_diagram(text).size
    return from_diagram(text, auto_rules(size, colours, **options), colours=colours)


def points(diagram: Diagram, vertices: str) -> frozenset[int]:
    return frozenset(diagram.point(v) for v in vertices.split())


def stones_of(state: GoState, colour: int) -> frozenset[int]:
    return frozenset(state.stones(colour))


def check_invariants(state: GoState, judgement: Judgement) -> None:
    """What every verdict must satisfy, whatever the position."""
    stones = set(state.stones())
    assert judgement.dead <= stones
    assert judgement.seki <= stones
    assert not judgement.dead & judgement.seki
    assert not judgement.dead & judgement.alive_certain
    for p in judgement.dead | judgement.seki:  # a chain shares one verdict
        chain = set(state.chain_points(p))
        assert chain <= judgement.dead or not chain & judgement.dead
        assert chain <= judgement.seki or not chain & judgement.seki
    owner, neutral = judged_ownership(state, judgement.dead, judgement.seki)
    assert judgement.owner == owner
    assert judgement.neutral == neutral


# ---------------------------------------------------------------- seki eyes


def test_seki_eyes_are_neutral_only_when_the_rules_say_so() -> None:
    """A seki with one eye each: the eyes are territory under area scoring, nobody's under Japanese rules."""
    text = """
     7 . . . . . . .
     6 . . . . . . .
     5 X X X X X X X
     4 O O O O O O X
     3 O X X X X O X
     2 O O X . X O X
     1 . O X X . O X
       A B C D E F G
    """
    area_state, diagram = position(text, scoring=Scoring.AREA)
    area = estimate(area_state, PLAYOUTS)
    check_invariants(area_state, area)
    assert not area.dead
    assert area.seki == stones_of(area_state, 1) | points(diagram, "B3 C3 D3 E3 C2 E2 C1 D1")
    assert area.owner[diagram.point("A1")] == 1 and area.owner[diagram.point("D2")] == 0
    assert area.owner[diagram.point("E1")] is None
    japanese = preset("japanese", 9)
    territory_state, _ = position(text, scoring=Scoring.TERRITORY, seki_territory=japanese.seki_territory)
    territory = estimate(territory_state, PLAYOUTS)
    check_invariants(territory_state, territory)
    assert territory.seki == area.seki
    assert points(diagram, "A1 D2 E1") <= territory.neutral
    result = score_with_estimate(territory_state, PLAYOUTS)
    assert [s.territory for s in result.scores] == [14, 0]


# ---------------------------------------------------------------- dead stones, false eyes, dame


def test_dead_stones_in_opponent_territory_are_removed() -> None:
    state, diagram = position(DEAD_INSIDE)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert judgement.dead == points(diagram, "C7 H4")
    assert judgement.owner[diagram.point("C7")] == 0 and judgement.owner[diagram.point("H4")] == 1
    assert judgement.owner.count(0) == 45 and judgement.owner.count(1) == 36
    assert "C7" in judgement.explain() and "H4" in judgement.explain()
    result = score_with_estimate(state, PLAYOUTS)
    assert [s.total for s in result.scores] == [45, 36]
    assert [s.dead for s in result.scores] == [1, 1]


def test_a_group_of_chains_around_an_eye_shares_one_verdict() -> None:
    """Four White stones around an empty point inside Black's area stand or fall together: they fall."""
    text = """
     9 . . . . X O . . .
     8 . X O X X O . . .
     7 . O . O X O . . .
     6 . X O X X O . . .
     5 . . . . X O . . .
     4 X X X X X O . . .
     3 . X . X X O . . .
     2 X X X X X O . . .
     1 . X . X X O . . .
       A B C D E F G H J
    """
    state, diagram = position(text)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert judgement.dead == points(diagram, "C8 B7 D7 C6")
    assert judgement.owner.count(0) == 45


def test_a_group_with_a_false_eye_dies() -> None:
    state, diagram = position(FALSE_EYE)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert judgement.dead == stones_of(state, 0), "one real eye and a false one (C1) make a dead group"
    assert not judgement.alive_certain & stones_of(state, 0)
    assert judgement.owner[diagram.point("C1")] == 1 and judgement.owner[diagram.point("B2")] == 1


def test_dame_count_for_nobody() -> None:
    state, diagram = position(DAME)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert not judgement.dead and not judgement.seki
    assert judgement.alive_certain == frozenset(state.stones()), "three single-point eyes on each side"
    assert judgement.neutral == points(diagram, "C1 C2 C3 C4 C5")
    result = score_with_estimate(state, PLAYOUTS)
    assert [s.total for s in result.scores] == [10, 10]


def test_all_alive_rules_ignore_the_verdict() -> None:
    state, diagram = from_diagram(DEAD_INSIDE, preset("tromp-taylor", 9))
    result = score_with_estimate(state, PLAYOUTS)
    assert not result.dead
    assert result.owner[diagram.point("A9")] is None, "this region touches the White stone C7, alive here"
    assert [s.total for s in result.scores] == [22 + 4, 18 + 4 + 7.5]  # stones and eyes only


# ---------------------------------------------------------------- SPEC §1.11.8 and more colours


def test_spec_multi_colour_territory_under_dipgo() -> None:
    text = """
     5 . X . O .
     4 X X . O O
     3 . . . . .
     2 R R . . .
     1 . R . . .
       A B C D E
    """
    state, _ = from_diagram(text, preset("dipgo", 5, colours=3), colours=3)
    result = score_with_estimate(state, PLAYOUTS)
    assert [s.total for s in result.scores] == [4, 4, 4]
    assert result.owner.count(None) == 13


THREE_AREAS = """
 9 . . X O . O R . .
 8 . . X O . O R . .
 7 . . X O . O R . .
 6 . . X O . O R . .
 5 R . X O . O R . .
 4 . . X O . O R . .
 3 . . X O . O R . .
 2 . . X O . O R . .
 1 . . X O . O R . .
   A B C D E F G H J
"""


def test_three_colours_each_keep_their_area_and_a_dead_red_stone_goes() -> None:
    state, diagram = position(THREE_AREAS, colours=3)
    judgement = estimate(state, PLAYOUTS)
    check_invariants(state, judgement)
    assert judgement.dead == points(diagram, "A5")
    assert [judgement.owner.count(colour) for colour in range(3)] == [27, 27, 27]
    assert judgement.owner[diagram.point("A5")] == 0


# ---------------------------------------------------------------- determinism and bad input


def test_the_verdict_is_deterministic_for_a_seed() -> None:
    state, _ = position(DEAD_INSIDE)
    first = estimate(state, 200, seed=7)
    assert estimate(state, 200, seed=7) == first
    assert first.playouts == 200 and first.seed == 7


@pytest.mark.parametrize("playouts", [0, -3])
def test_playouts_must_be_positive(playouts: int) -> None:
    state, _ = position(DAME)
    with pytest.raises(ValueError, match="at least one playout"):
        estimate(state, playouts)


def test_an_empty_board_has_nothing_dead() -> None:
    state, _ = position("""
     5 . . . . .
     4 . . . . .
     3 . . . . .
     2 . . . . .
     1 . . . . .
       A B C D E
    """)
    judgement = estimate(state, 50)
    assert not judgement.dead and not judgement.seki and not judgement.alive_certain
    assert judgement.owner == (None,) * 25 and len(judgement.neutral) == 25
    assert "No stone is dead." in judgement.explain()
