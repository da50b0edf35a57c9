"""Every worked example of SPEC.md §1.11, as diagrams before and after."""

from __future__ import annotations

import pytest

from miai.core.errors import IllegalMove, IllegalReason, InvalidRules
from miai.core.go import PASS, KoRule, Place, Rules, Scoring, score
from tests.core.go.helpers import from_diagram, same_board

X, O, R = 0, 1, 2  # noqa: E741  (the SPEC's own letters)
KO_RULES = [KoRule.SIMPLE, KoRule.POSITIONAL, KoRule.SITUATIONAL]


@pytest.mark.parametrize("ko", KO_RULES)
def test_snapback_is_not_a_ko(ko: KoRule) -> None:
    """§1.11.1: throw-in, capture of one stone, recapture of five."""
    state, d = from_diagram(
        """
        5 . . . . .
        4 . . . . .
        3 O O O O .
        2 X X X O .
        1 X . . O .
          A B C D E
        """,
        Rules(ko=ko, allowed_sizes=(5,)),
        to_move=O,
    )
    state = state.play(Place(d.point("B1")))  # White throws in: self-atari, but legal
    state = state.play(Place(d.point("C1")))  # Black takes the one stone
    same_board(
        state,
        """
        5 . . . . .
        4 . . . . .
        3 O O O O .
        2 X X X O .
        1 X . X O .
          A B C D E
        """,
    )
    state = state.play(Place(d.point("B1")))  # White recaptures five stones: a new board, so legal
    same_board(
        state,
        """
        5 . . . . .
        4 . . . . .
        3 O O O O .
        2 . . . O .
        1 . O . O .
          A B C D E
        """,
    )
    assert state.captured_by == (1, 5)


def test_suicide_exception_when_the_play_captures() -> None:
    """§1.11.2 left: White A1 has no liberty of its own but captures A2 and B1."""
    state, d = from_diagram(
        """
        5 . . . . .
        4 . . . . .
        3 O . . . .
        2 X O . . .
        1 . X O . .
          A B C D E
        """,
        to_move=O,
    )
    state = state.play(Place(d.point("A1")))
    same_board(
        state,
        """
        5 . . . . .
        4 . . . . .
        3 O . . . .
        2 . O . . .
        1 O . O . .
          A B C D E
        """,
    )


def test_suicide_is_illegal() -> None:
    """§1.11.2 right: White A1 captures nothing, so it is suicide."""
    state, d = from_diagram(
        """
        5 . . . . .
        4 . . . . .
        3 . . . . .
        2 X . . . .
        1 . X . . .
          A B C D E
        """,
        to_move=O,
    )
    analysis = state.analyze(Place(d.point("A1")))
    assert not analysis.legal
    assert analysis.reason is IllegalReason.SUICIDE
    with pytest.raises(IllegalMove) as err:
        state.play(Place(d.point("A1")))
    assert err.value.reason is IllegalReason.SUICIDE
    assert state.colour_at(d.point("A1")) is None  # nothing was committed


def test_multi_colour_capture_is_simultaneous() -> None:
    """§1.11.3 / G1: X B2 removes O (1 stone) and R (2 stones) together; X gets 3 capture points."""
    rules = Rules(capture_points=True, komi=(0, 0, 0), allowed_sizes=(5,))
    state, d = from_diagram(
        """
        5 . . . . .
        4 . . . . .
        3 . X X . .
        2 X . R X .
        1 X O R X .
          A B C D E
        """,
        rules,
        colours=3,
    )
    state = state.play(Place(d.point("B2")))
    same_board(
        state,
        """
        5 . . . . .
        4 . . . . .
        3 . X X . .
        2 X X . X .
        1 X . . X .
          A B C D E
        """,
    )
    assert state.captured_by == (3, 0, 0)
    assert state.lost == (0, 1, 2)
    assert score(state)[X].captures == 3


@pytest.mark.parametrize("ko", KO_RULES)
def test_basic_ko_retake_is_illegal(ko: KoRule) -> None:
    """§1.11.4 left: X takes the ko at C3; O may not retake at B3 at once under any ko rule."""
    state, d = from_diagram(
        """
        5 . . . . .
        4 . X O . .
        3 X O . O .
        2 . X O . .
        1 . . . . .
          A B C D E
        """,
        Rules(ko=ko, allowed_sizes=(5,)),
    )
    state = state.play(Place(d.point("C3")))
    same_board(
        state,
        """
        5 . . . . .
        4 . X O . .
        3 X . X O .
        2 . X O . .
        1 . . . . .
          A B C D E
        """,
    )
    analysis = state.analyze(Place(d.point("B3")))
    assert not analysis.legal
    assert analysis.reason is (IllegalReason.KO if ko is KoRule.SIMPLE else IllegalReason.SUPERKO)
    # After a move elsewhere by each side the retake is legal again.
    state = state.play(Place(d.point("E1"))).play(Place(d.point("A5")))
    assert state.is_legal(Place(d.point("B3")))


THREE_COLOUR_KO = """
    5 . . . . .
    4 . X R . .
    3 X R . R .
    2 . X R . .
    1 . . . . .
      A B C D E
"""


def test_three_colour_ko_hole_is_closed_by_superko() -> None:
    """§1.11.4 right: X takes, O passes, R's retake would bring back P0: illegal under positional superko."""
    state, d = from_diagram(THREE_COLOUR_KO, Rules(komi=(0, 0, 0), allowed_sizes=(5,)), colours=3)
    state = state.play(Place(d.point("C3")))  # X captures R at B3 (P0 -> P1)
    state = state.play(PASS)  # O passes
    assert state.to_move == R
    analysis = state.analyze(Place(d.point("B3")))
    assert analysis.reason is IllegalReason.SUPERKO


def test_basic_ko_is_refused_with_more_than_two_colours() -> None:
    """G2: the basic ko rule cannot be chosen for a 3-colour game (it would allow the retake above)."""
    with pytest.raises(InvalidRules, match="positional superko"):
        from_diagram(THREE_COLOUR_KO, Rules(ko=KoRule.SIMPLE, komi=(0, 0, 0), allowed_sizes=(5,)), colours=3)


TRIPLE_KO = """
    9 . X O . . . X O .
    8 X . X O . X . X O
    7 . X O . . . X O .
    6 . . . . . . . . .
    5 . . . . . . . . .
    4 . X O . . . . . .
    3 X O . O . . . . .
    2 . X O . . . . . .
    1 . . . . . . . . .
      A B C D E F G H J
"""


@pytest.mark.parametrize("ko", KO_RULES)
def test_triple_ko_cycle(ko: KoRule) -> None:
    """§1.11.5: six plays bring back the start; the basic rule allows it, superko forbids move 6."""
    state, d = from_diagram(TRIPLE_KO, Rules(ko=ko, allowed_sizes=(9,)), to_move=O)
    start = state.position()
    for vertex in ["B8", "C3", "G8", "C8", "B3"]:
        state = state.play(Place(d.point(vertex)))
    last = Place(d.point("H8"))
    if ko is KoRule.SIMPLE:
        state = state.play(last)
        assert state.position() == start
    else:
        assert state.analyze(last).reason is IllegalReason.SUPERKO


NOT_A_SEKI = """  # SPEC §1.11.6 (b): only looks like a seki; the core counts what is on the board
    5 . . . . .
    4 . . . . .
    3 X X X X X
    2 O O O O X
    1 . X . O X
      A B C D E
"""


@pytest.mark.parametrize("scoring", [Scoring.AREA, Scoring.DIPGO])
def test_every_stone_counts_in_the_false_seki_under_area_scoring(scoring: KoRule) -> None:
    """§1.11.6 (b) with every stone alive (the estimator judges White dead, tests/engines/test_seki.py):
    X = 8 stones + 10 territory = 18, O = 5 stones; A1 and C1 are neutral."""
    state, d = from_diagram(NOT_A_SEKI, Rules(scoring=scoring, allowed_sizes=(5,)))
    x, o = score(state)
    assert (x.stones, x.territory, x.total) == (8, 10, 18)
    assert (o.stones, o.territory, o.total) == (5, 0, 5)
    for vertex in ["A1", "C1"]:
        for colour in (X, O):  # either play is self-atari: the opponent then captures
            after = state.play_as(colour, Place(d.point(vertex)))
            other = "C1" if vertex == "A1" else "A1"
            assert after.is_legal(Place(d.point(other)), 1 - colour)


def test_every_stone_counts_in_the_false_seki_under_territory_scoring() -> None:
    """§1.11.6 (b) with every stone alive: under itsyourturn territory counting X gets 10, O gets 0."""
    state, _ = from_diagram(NOT_A_SEKI, Rules(scoring=Scoring.TERRITORY, allowed_sizes=(5,)))
    x, o = score(state)
    assert (x.total, o.total) == (10, 0)


AREA_EXAMPLE = """
    9 X . X . . X O . O
    8 . X . X . X O O .
    7 O . X . X X O . O
    6 . X . X . X O O .
    5 X . X . X O O . O
    4 . X . O X O O . O
    3 X . X . X O . O O
    2 . X . X X O O . O
    1 X . X X O O . O .
      A B C D E F G H J
"""


def test_area_scoring_arithmetic() -> None:
    """§1.11.7: Black 26 stones + 20 area + 2 dead White = 48; White 23 + 10 = 33; 48 − 33 − 6.5 = +8.5."""
    state, d = from_diagram(AREA_EXAMPLE, Rules(komi=(0, 6.5), allowed_sizes=(9,)))
    dead = {d.point("A7"), d.point("D4")}
    black, white = score(state, dead)
    assert (black.stones, black.territory, black.total) == (26, 22, 48)
    assert (white.stones, white.territory, white.dead) == (23, 10, 2)
    assert white.total == 33 + 6.5
    assert black.total - white.total == 8.5


def test_multi_colour_territory() -> None:
    """§1.11.8: A5 is X's, E5 is O's, A1 is R's; the central region touches all three and is neutral."""
    state, _ = from_diagram(
        """
        5 . X . O .
        4 X X . O O
        3 . . . . .
        2 R R . . .
        1 . R . . .
          A B C D E
        """,
        Rules(komi=(0, 0, 0), allowed_sizes=(5,)),
        colours=3,
    )
    scores = score(state)
    assert [s.total for s in scores] == [4, 4, 4]
    assert [s.territory for s in scores] == [1, 1, 1]
