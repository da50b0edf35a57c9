"""Unconditional life (Benson's algorithm) on textbook positions, for two and more colours."""

from __future__ import annotations

from miai.core.go import GoState, KoRule, Rules, Suicide
from miai.engines.estimator.benson import unconditionally_alive
from miai.formats.ascii import Diagram, parse_diagram
from tests.core.go.helpers import from_diagram
from tests.engines.test_estimator import FALSE_EYE


def position(text: str, colours: int = 2, suicide: Suicide = Suicide.FORBIDDEN) -> tuple[GoState, Diagram]:
    ko = KoRule.SIMPLE if colours == 2 else KoRule.POSITIONAL
    size = parse_diagram(text).size
    rules = Rules(ko=ko, suicide=suicide, komi=(0.0,) * colours, allowed_sizes=(size,))
    return from_diagram(text, rules, colours=colours)


def alive_black(text: str, colours: int = 2, suicide: Suicide = Suicide.FORBIDDEN) -> bool:
    state, _ = position(text, colours, suicide)
    black = set(state.stones(0))
    alive = unconditionally_alive(state)
    assert not (alive & black) or black <= alive, "these diagrams have one Black chain"
    return black <= alive


def test_two_true_eyes_are_unconditionally_alive() -> None:
    assert alive_black("""
     6 . . . . . .
     5 . . . . O .
     4 X X X X . .
     3 X . X X . .
     2 X X . X . .
     1 . X X X . .
       A B C D E F
    """)


def test_one_eye_is_not_enough() -> None:
    assert not alive_black("""
     6 . . . . . .
     5 . . . . O .
     4 X X X X . .
     3 X . X X . .
     2 X X X X . .
     1 . . . . . .
       A B C D E F
    """)


def test_a_small_enclosed_region_is_as_good_as_an_eye() -> None:
    """Every point of A1-C1 is a liberty: the opponent can never fill it, so with B3 the chain lives."""
    assert alive_black("""
     6 . . . . . .
     5 . . . . O .
     4 X X X X . .
     3 X . X X . .
     2 X X X X . .
     1 . . . X . .
       A B C D E F
    """)


def test_a_false_eye_is_not_an_eye() -> None:
    """C1 touches the main chain and the lone stone D1, which White can take: one real eye only."""
    state, diagram = position(FALSE_EYE)  # the estimator's own false-eye example
    assert not unconditionally_alive(state) & set(state.stones(0))
    assert diagram.point("B2") not in unconditionally_alive(state)


def test_two_chains_sharing_two_eyes_live_together() -> None:
    """Neither chain has two eyes of its own, but each eye touches both and both eyes are safe."""
    state, _ = position("""
     6 . . . . . O
     5 . . . . . .
     4 . . X X . .
     3 . X X . X .
     2 . X . X X .
     1 . . X X . .
       A B C D E F
    """)
    alive = unconditionally_alive(state)
    assert len({tuple(state.chain_points(p)) for p in state.stones(0)}) == 2
    assert set(state.stones(0)) <= alive
    assert not alive & set(state.stones(1))


def test_the_white_group_of_the_spec_not_seki_diagram_is_not_unconditionally_alive() -> None:
    """SPEC §1.11.6 (b): the White group only looks like a seki; it is dead."""
    state, _ = position("""
     5 . . . . .
     4 . . . . .
     3 X X X X X
     2 O O O O X
     1 . X . O X
       A B C D E
    """)
    assert not unconditionally_alive(state)


# With two colours an eye holding an opponent's stone away from the chain is still an eye (Benson's own
# condition); with more colours one opponent can capture another's stone there and so empty a point
# that is no liberty, and with multi-stone suicide allowed an opponent can do that to itself.
EYE_WITH_A_STONE = """
 7 . . . . . . .
 6 . . . . . . .
 5 X X X X . . .
 4 X . X X . . .
 3 X X X X . . .
 2 . . X X . . .
 1 O . X X . . .
   A B C D E F G
"""


def test_an_eye_with_an_opponent_stone_counts_with_two_colours() -> None:
    assert alive_black(EYE_WITH_A_STONE)


def test_an_eye_with_an_opponent_stone_does_not_count_with_three_colours() -> None:
    assert not alive_black(EYE_WITH_A_STONE, colours=3)


def test_an_eye_with_an_opponent_stone_does_not_count_when_suicide_is_allowed() -> None:
    assert not alive_black(EYE_WITH_A_STONE, suicide=Suicide.ALLOWED)


def test_every_colour_is_judged() -> None:
    state, _ = position("""
     7 X X X . R R R
     6 X . X . R . R
     5 X X X . R R R
     4 X . X . R . R
     3 X X X . R R R
     2 . . . . . . .
     1 O O O O O O O
       A B C D E F G
    """, colours=3)
    alive = unconditionally_alive(state)
    assert set(state.stones(0)) <= alive and set(state.stones(2)) <= alive
    assert not alive & set(state.stones(1))
