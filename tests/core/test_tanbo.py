"""Tanbo (SPEC §4, T1-T3, T5): the start, the worked examples T1-T3 as diagrams, perft and properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.core import tanbo
from miai.core.errors import IllegalMove, IllegalReason
from miai.core.go.vertex import format_point, parse_point
from miai.core.tanbo import BLACK, WHITE, new_game, parse_move
from miai.core.twoplayer import RESIGN, TIMEOUT, EndReason, Outcome, Place
from tests.core.diagrams import marked, same_board, tanbo_position
from tests.core.perft import check_perft, check_same_moves
from tests.core.reference_tanbo import RefTanbo


def fmt(state: tanbo.TanboState, move: tanbo.TanboMove) -> str:
    return tanbo.format_move(move, state.size)


def reference(state: tanbo.TanboState) -> RefTanbo:
    board = tuple(sorted(((p % state.size, p // state.size), c - 1) for p, c in enumerate(state.cells) if c))
    return RefTanbo(state.size, board, state.to_move, state.plies, state.cap, state.is_over)


def vertices(points: list[int] | tuple[int, ...], size: int = 5) -> list[str]:
    return sorted(format_point(p, size) for p in points)


# --- §4.1 the start


START = """
    19 X . . . . . O . . . . . X . . . . . O
    18 . . . . . . . . . . . . . . . . . . .
    17 . . . . . . . . . . . . . . . . . . .
    16 . . . . . . . . . . . . . . . . . . .
    15 . . . . . . . . . . . . . . . . . . .
    14 . . . . . . . . . . . . . . . . . . .
    13 O . . . . . X . . . . . O . . . . . X
    12 . . . . . . . . . . . . . . . . . . .
    11 . . . . . . . . . . . . . . . . . . .
    10 . . . . . . . . . . . . . . . . . . .
     9 . . . . . . . . . . . . . . . . . . .
     8 . . . . . . . . . . . . . . . . . . .
     7 X . . . . . O . . . . . X . . . . . O
     6 . . . . . . . . . . . . . . . . . . .
     5 . . . . . . . . . . . . . . . . . . .
     4 . . . . . . . . . . . . . . . . . . .
     3 . . . . . . . . . . . . . . . . . . .
     2 . . . . . . . . . . . . . . . . . . .
     1 O . . . . . X . . . . . O . . . . . X
       A B C D E F G H J K L M N O P Q R S T
"""


def test_the_start_is_the_8_plus_8_layout_with_a19_black_and_black_first() -> None:
    state = new_game()
    same_board(state, START)
    assert state.to_move == BLACK and state.counts == (8, 8)
    assert vertices(state.stones(BLACK), 19) == sorted(["A19", "N19", "G13", "T13", "A7", "N7", "G1", "T1"])
    assert vertices(state.stones(WHITE), 19) == sorted(["G19", "T19", "A13", "N13", "G7", "T7", "A1", "N1"])


def test_each_side_has_24_legal_first_moves() -> None:
    state = new_game()
    assert len(state.legal_moves()) == 24
    assert len(state.legal_points(WHITE)) == 24
    assert "B19" in {fmt(state, m) for m in state.legal_moves()}


def test_a_half_turn_keeps_the_start_but_a_mirror_swaps_the_colours() -> None:
    position = tanbo.start_position()
    n = 19
    turned = {n * n - 1 - p: c for p, c in position.items()}
    mirrored = {(p // n) * n + (n - 1 - p % n): c for p, c in position.items()}
    assert turned == position
    assert mirrored == {p: 1 - c for p, c in position.items()}


def test_the_giles_lattice_rule_gives_the_standard_start_and_the_small_layouts() -> None:
    lattice = {(6 * i) * 19 + 6 * j: BLACK if (i + j) % 2 else WHITE for i in range(4) for j in range(4)}
    assert lattice == tanbo.start_position(19)
    nine = new_game(9)
    assert vertices(nine.stones(WHITE), 9) == ["B2", "H8"] and vertices(nine.stones(BLACK), 9) == ["B8", "H2"]
    thirteen = new_game(13)
    assert thirteen.counts == (8, 8) and format_point(thirteen.stones(WHITE)[0], 13) == "A1"
    with pytest.raises(ValueError, match="start layouts for sizes 19, 9, 13"):
        new_game(11)


# --- §4.5 worked examples


T1_BEFORE = """
    5 . + . O O
    4 + X O O .
    3 . + * X .
    2 . O + X X
    1 . . . . X
      A B C D E
"""
T1_AFTER = """
    5 . . . O O
    4 . X O O .
    3 . . . . .
    2 . O . . .
    1 . . . . .
      A B C D E
"""


def test_t1_a_bounded_current_root_is_removed_alone() -> None:
    before = tanbo_position(T1_BEFORE, BLACK)
    assert vertices(before.legal_points()) == marked(T1_BEFORE, "+", "*")
    after = before.play(parse_move("C3", 5))
    same_board(before, T1_BEFORE)
    same_board(after, T1_AFTER)
    assert after.current_root_removed
    assert vertices(after.removed) == ["C3", "D2", "D3", "E1", "E2"]
    white_root = after.root(parse_point("C4", 5))
    assert vertices(white_root) == ["C4", "D4", "D5", "E5"]
    assert parse_point("C3", 5) in after.legal_points(WHITE)  # the White root has C3 back as a liberty
    assert not after.is_over and after.to_move == WHITE and after.counts == (1, 5)


T2_BEFORE = """
    5 . X . + .
    4 X X X O +
    3 X + * O +
    2 O O + X .
    1 O . . . .
      A B C D E
"""
T2_AFTER = """
    5 . . . . .
    4 . . . O .
    3 . . O O .
    2 . . . X .
    1 . . . . .
      A B C D E
"""


def test_t2_a_free_current_root_removes_every_bounded_root_of_both_colours() -> None:
    before = tanbo_position(T2_BEFORE, WHITE)
    assert vertices(before.legal_points()) == marked(T2_BEFORE, "+", "*")
    after = before.play(parse_move("c3", 5))
    same_board(after, T2_AFTER)
    assert not after.current_root_removed
    assert vertices(after.removed) == ["A1", "A2", "A3", "A4", "B2", "B4", "B5", "C4"]
    assert vertices(after.root(parse_point("C3", 5))) == ["C3", "D3", "D4"]
    assert not after.is_over and after.counts == (1, 3)


T3_BEFORE = """
    5 X O . . .
    4 + O . . .
    3 O O O . .
    2 . O . . .
    1 O O . . .
      A B C D E
"""
T3_AFTER = """
    5 . O . . .
    4 . O . . .
    3 O O O . .
    2 . O . . .
    1 O O . . .
      A B C D E
"""


def test_t3_forced_self_elimination_loses_on_the_players_own_move() -> None:
    before = tanbo_position(T3_BEFORE, BLACK)
    assert [fmt(before, m) for m in before.legal_moves()] == marked(T3_BEFORE, "+") == ["A4"]
    after = before.play(before.legal_moves()[0])
    same_board(after, T3_AFTER)
    assert after.current_root_removed and after.counts == (0, 8)
    assert (after.winner, after.reason) == (WHITE, EndReason.ELIMINATED)
    assert after.is_over and after.legal_moves() == [] and after.rewards() == (0.0, 1.0)


# --- placement rule, notation, endings


@pytest.mark.parametrize(
    ("vertex", "reason", "words"),
    [
        ("C1", IllegalReason.NOT_ALLOWED, "touches 0 Black stones"),
        ("E3", IllegalReason.NOT_ALLOWED, "touches 2 Black stones"),
        ("D1", IllegalReason.NOT_ALLOWED, "touches 2 Black stones"),
        ("D3", IllegalReason.OCCUPIED, "D3 is already occupied"),
    ],
)
def test_a_stone_must_touch_exactly_one_friendly_stone(
    vertex: str, reason: IllegalReason, words: str
) -> None:
    state = tanbo_position(T1_BEFORE, BLACK)
    with pytest.raises(IllegalMove) as caught:
        state.play(parse_move(vertex, 5))
    assert caught.value.reason is reason and words in str(caught.value)
    same_board(state, T1_BEFORE)


def test_notation_is_go_style_without_pass() -> None:
    assert parse_move(" k10 ") == Place(parse_point("K10", 19))
    assert fmt(new_game(), Place(parse_point("T19", 19))) == "T19"
    assert parse_move("RESIGN") == RESIGN
    with pytest.raises(ValueError, match="no passing"):
        parse_move("pass")
    with pytest.raises(ValueError, match="off a 19x19 board"):
        parse_move("U1")
    with pytest.raises(ValueError, match="not a vertex"):
        parse_move("I5")


def test_the_safety_cap_gives_the_win_to_more_stones_or_a_draw() -> None:
    one = new_game(9, cap=1).play(Place(parse_point("H3", 9)))
    assert (one.winner, one.reason) == (BLACK, EndReason.CAP) and one.counts == (3, 2)
    two = new_game(9, cap=2).play(Place(parse_point("H3", 9))).play(Place(parse_point("B3", 9)))
    assert (two.winner, two.reason) == (None, EndReason.CAP) and two.rewards() == (0.5, 0.5)
    assert new_game().cap == 2000
    with pytest.raises(ValueError, match="ply cap"):
        new_game(cap=0)


def test_resignation_timeout_and_bad_set_ups() -> None:
    state = new_game()
    assert (state.play(RESIGN).winner, state.play(RESIGN).reason) == (WHITE, EndReason.RESIGN)
    assert state.leave(WHITE, TIMEOUT).outcome == Outcome(BLACK, EndReason.TIMEOUT)
    with pytest.raises(ValueError, match="bounded root at A1"):
        new_game(3, {0: BLACK, 1: WHITE, 3: WHITE})
    with pytest.raises(ValueError, match="no stones"):
        new_game(5, {})
    lone = new_game(5, {0: WHITE})
    assert (lone.winner, lone.reason) == (WHITE, EndReason.ELIMINATED)


# --- perft and differential games against the naive reference


@pytest.mark.parametrize(
    ("start", "depth"),
    [("nine", 4), ("thirteen", 2), ("T1", 3), ("T2", 3), ("T3", 2)],
)
def test_perft(start: str, depth: int) -> None:
    state = {
        "nine": lambda: new_game(9),
        "thirteen": lambda: new_game(13),
        "T1": lambda: tanbo_position(T1_BEFORE, BLACK),
        "T2": lambda: tanbo_position(T2_BEFORE, WHITE),
        "T3": lambda: tanbo_position(T3_BEFORE, BLACK),
    }[start]()
    check_perft(state, reference(state), depth, fmt)


def test_perft_from_positions_along_random_9x9_games() -> None:
    """Removals and eliminations are rare near the start, so also count from the middle of games."""
    rng = random.Random(3)
    for _ in range(3):
        state = new_game(9)
        while not state.is_over:
            if state.plies % 15 == 7:
                check_perft(state, reference(state), 2, fmt)
            state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(("size", "games", "every"), [(9, 4, 1), (13, 1, 5), (19, 1, 40)])
def test_random_games_give_the_same_boards_as_the_reference(size: int, games: int, every: int) -> None:
    """Each child of every (or every n-th) position: same move list, same board, same ending."""
    rng = random.Random(size)
    for _ in range(games):
        state = new_game(size)
        while not state.is_over:
            if state.plies % every == 0:
                ours, theirs = check_same_moves(state, reference(state), fmt)
                for key, child in ours.items():
                    assert reference(child) == theirs[key], f"{key} after {state.moves()[-1:]}"
            state = state.play(rng.choice(state.legal_moves()))


# --- properties


@st.composite
def games(draw: st.DrawFn) -> list[tanbo.TanboState]:
    state = new_game(draw(st.sampled_from([9, 13])))
    states = [state]
    while not state.is_over and len(states) < 150:
        moves = state.legal_moves()
        state = state.play(moves[draw(st.integers(0, len(moves) - 1))])
        states.append(state)
    return states


@settings(max_examples=15, deadline=None)
@given(games())
def test_no_bounded_root_survives_any_move(states: list[tanbo.TanboState]) -> None:
    for state in states:
        assert tanbo.bounded_roots(state.cells, state.size) == [], state.diagram()
        assert state.counts == (state.cells.count(1), state.cells.count(2))
        if not state.is_over:
            assert state.legal_moves(), "a player with stones always has a move"


def test_after_removing_the_current_root_a_recheck_never_finds_anything() -> None:
    """§4.3: when the current root is bounded, every other root the move bounded gets its liberty back."""
    rng = random.Random(11)
    seen = 0
    for size in (9, 13, 19):
        for _ in range(6):
            state = new_game(size)
            while not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
                if state.current_root_removed:
                    seen += 1
                    assert tanbo.bounded_roots(state.cells, state.size) == [], state.diagram()
    assert seen > 20  # the branch really happens in random games
