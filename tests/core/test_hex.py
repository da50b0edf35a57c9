"""Hex (SPEC §3, H1-H3): the worked examples as diagrams, adjacency, opening rules, perft, properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.core import hex
from miai.core.errors import IllegalMove, IllegalReason
from miai.core.hex import FIRST, SECOND, SWAP, Opening, new_game, parse_cell, parse_move
from miai.core.twoplayer import RESIGN, TIMEOUT, EndReason, Place
from tests.core.diagrams import board_text, hex_setup, read_grid, same_board
from tests.core.perft import check_perft, check_same_moves
from tests.core.reference_hex import RefHex, connects


def fmt(state: hex.HexState, move: hex.HexMove) -> str:
    return hex.format_move(move, state.size)


def cell(text: str, size: int = 5) -> Place:
    return Place(parse_cell(text, size))


def position(text: str, to_move: int = FIRST, opening: str = "none") -> hex.HexState:
    size, setup = hex_setup(text)
    return new_game(size, opening, setup, to_move)


# --- §3.1 board, coordinates and adjacency


def test_adjacency_counts_of_corners_edges_and_inner_cells() -> None:
    size = 5
    around = hex.neighbours(size)
    counts = {hex.format_cell(p, size): len(around[p]) for p in range(size * size)}
    assert counts["a1"] == 2 and counts["e5"] == 2  # the acute corners
    assert counts["e1"] == 3 and counts["a5"] == 3  # the obtuse corners
    assert all(counts[c] == 6 for c in ("b2", "c3", "d4", "b4", "d2"))
    assert all(counts[c] == 4 for c in ("c1", "a3", "e3", "c5"))
    assert sorted(hex.format_cell(p, size) for p in around[parse_cell("a1", size)]) == ["a2", "b1"]
    assert sorted(hex.format_cell(p, size) for p in around[parse_cell("c3", size)]) == [
        "b3", "b4", "c2", "c4", "d2", "d3",
    ]  # fmt: skip
    assert all(q in around[p] for p in range(size * size) for q in around[p]) and all(
        p in around[q] for p in range(size * size) for q in around[p]
    )


def test_hexwiki_coordinates_include_i_and_count_rows_from_the_top() -> None:
    assert parse_cell("a1", 11) == 0
    assert parse_cell("K1", 11) == 10  # top right
    assert parse_cell("i5", 11) == 4 * 11 + 8  # i is the ninth column
    assert parse_cell(" k11 ", 11) == 120
    assert [hex.format_cell(p, 11) for p in (0, 10, 52, 120)] == ["a1", "k1", "i5", "k11"]
    for bad, words in [
        ("l1", "off the 11x11"),
        ("a12", "off the 11x11"),
        ("a0", "off"),
        ("11", "not a Hex cell"),
    ]:
        with pytest.raises(ValueError, match=words):
            parse_cell(bad, 11)
    with pytest.raises(ValueError, match="no passing"):
        parse_move("pass", 11)
    assert parse_move("Swap", 11) is SWAP and parse_move("swap-pieces", 11) is SWAP
    assert parse_move("resign", 11) == RESIGN


# --- §3.2 play and win: the chain examples


CHAIN_BEFORE = """
      a b c d e
    1 . . X . O
    2  . . X . O
    3   . X . . .
    4    . X . O O
    5     . . . . .
"""
CHAIN_AFTER = """
      a b c d e
    1 . . X . O
    2  . . X . O
    3   . X . . .
    4    . X . O O
    5     X . . . .
"""


def test_c1_c2_b3_b4_a5_is_a_winning_vertical_chain() -> None:
    before = position(CHAIN_BEFORE)
    assert not before.is_over and not before.connects(FIRST)
    after = before.play(cell("a5"))
    same_board(before, CHAIN_BEFORE)
    same_board(after, CHAIN_AFTER)
    assert (after.winner, after.reason) == (FIRST, EndReason.CONNECTION)
    assert after.legal_moves() == [] and after.rewards() == (1.0, 0.0)


BROKEN_BEFORE = """
      a b c d e
    1 . . X . O
    2  . . X . O
    3   . . . X .
    4    O O . X .
    5     . . . . .
"""
BROKEN_AFTER = """
      a b c d e
    1 . . X . O
    2  . . X . O
    3   . . . X .
    4    O O . X .
    5     . . . . X
"""


def test_c1_c2_d3_d4_e5_is_not_connected_because_c2_and_d3_are_not_neighbours() -> None:
    after = position(BROKEN_BEFORE).play(cell("e5"))
    same_board(after, BROKEN_AFTER)
    assert not after.is_over and not after.connects(FIRST)
    assert parse_cell("d3", 5) not in hex.neighbours(5)[parse_cell("c2", 5)]


HORIZONTAL_BEFORE = """
      a b c d e
    1 X X . . .
    2  . . . . O
    3   O O O . .
    4    X . . . .
    5     X . . . .
"""


def test_the_second_player_wins_by_joining_column_a_to_the_last_column() -> None:
    before = position(HORIZONTAL_BEFORE, to_move=SECOND)
    after = before.play(cell("d3"))  # d3 joins c3 and, as (c+1, r-1), e2
    assert (after.winner, after.reason) == (SECOND, EndReason.CONNECTION)
    assert after.connects(SECOND) and not after.connects(FIRST)


# --- §3.3 opening rules


def test_swap_mirrors_c2_to_b3_and_the_first_player_moves_again() -> None:
    state = new_game(5).play(cell("c2"))
    same_board(state, """
          a b c d e
        1 . . . . .
        2  . . X . .
        3   . . . . .
        4    . . . . .
        5     . . . . .
    """)  # fmt: skip
    assert state.swap_available and state.legal_moves()[-1] is SWAP and len(state.legal_moves()) == 25
    swapped = state.play(SWAP)
    same_board(swapped, """
          a b c d e
        1 . . . . .
        2  . . . . .
        3   . O . . .
        4    . . . . .
        5     . . . . .
    """)  # fmt: skip
    assert swapped.to_move == FIRST and not swapped.swap_available
    assert swapped.moves() == [(FIRST, cell("c2")), (SECOND, SWAP)]
    with pytest.raises(IllegalMove, match="only allowed as the second move"):
        swapped.play(SWAP)


def test_swap_is_only_the_second_move_and_only_under_the_swap_rule() -> None:
    fresh = new_game(5)
    assert SWAP not in fresh.legal_moves()
    with pytest.raises(IllegalMove) as caught:
        fresh.play(SWAP)
    assert caught.value.reason is IllegalReason.NOT_ALLOWED
    third = fresh.play(cell("a1")).play(cell("b1"))
    assert SWAP not in third.legal_moves() and not third.swap_available
    unswappable = new_game(5, "none").play(cell("c2"))
    assert SWAP not in unswappable.legal_moves()
    with pytest.raises(IllegalMove, match="opening rule is none"):
        unswappable.play(SWAP)
    diagonal = new_game(5).play(cell("c3")).play(SWAP)
    assert diagonal.stones(SECOND) == [parse_cell("c3", 5)] and diagonal.stones(FIRST) == []


@pytest.mark.parametrize("size", [5, 11, 13, 19])
def test_centre_row_ban_forbids_only_the_first_stone_on_row_n_plus_1_over_2(size: int) -> None:
    state = new_game(size, Opening.CENTRE_ROW_BAN)
    middle = (size + 1) // 2
    banned = [Place(parse_cell(f"{letter}{middle}", size)) for letter in hex.LETTERS[:size]]
    moves = state.legal_moves()
    assert len(moves) == size * size - size and not set(banned) & set(moves)
    with pytest.raises(IllegalMove, match=f"centre row \\(row {middle}\\)"):
        state.play(banned[0])
    second = state.play(Place(0))
    assert set(banned) <= set(second.legal_moves())  # the second player may use the centre row
    third = second.play(banned[1])
    assert banned[2] in third.legal_moves()  # and so may the first player later


FIRST_STONES_UNDER_THE_BAN = """
      a b c d e
    1 + + + + +
    2  + + + + +
    3   . . . . .
    4    + + + + +
    5     + + + + +
"""


def test_centre_row_ban_diagram_on_5x5() -> None:
    state = new_game(5, "centre_row_ban")
    allowed = read_grid(FIRST_STONES_UNDER_THE_BAN).where("+")
    assert sorted(fmt(state, m) for m in state.legal_moves()) == sorted(
        f"{hex.LETTERS[col]}{row}" for col, row in allowed
    )


def test_centre_row_ban_needs_an_odd_size_and_sizes_are_checked() -> None:
    with pytest.raises(ValueError, match="odd board size"):
        new_game(6, "centre_row_ban")
    with pytest.raises(ValueError, match="unknown Hex opening rule 'pie'"):
        new_game(11, "pie")
    with pytest.raises(ValueError, match="cells wide"):
        new_game(27)


def test_occupied_cells_resignation_and_timeout() -> None:
    state = new_game(5).play(cell("c3"))
    with pytest.raises(IllegalMove) as caught:
        state.play(cell("c3"))
    assert caught.value.reason is IllegalReason.OCCUPIED
    resigned = state.play(RESIGN)
    assert (resigned.winner, resigned.reason) == (FIRST, EndReason.RESIGN)
    timed_out = state.leave(FIRST, TIMEOUT)
    assert (timed_out.winner, timed_out.reason) == (SECOND, EndReason.TIMEOUT)


# --- perft against the naive reference


@pytest.mark.parametrize(
    ("size", "depth", "rule"),
    [
        (2, 4, "swap"), (2, 4, "none"),  # wins at ply 3 cut the tree
        (3, 5, "swap"), (3, 6, "none"), (3, 5, "centre_row_ban"),
        (4, 3, "swap"), (4, 3, "none"),
        (5, 3, "swap"), (5, 3, "centre_row_ban"),
    ],
)  # fmt: skip
def test_perft(size: int, depth: int, rule: str) -> None:
    check_perft(new_game(size, rule), RefHex(size, rule, (), 0), depth, fmt)


def test_random_games_agree_with_the_reference_until_the_winning_stone() -> None:
    rng = random.Random(7)
    for size, rule in [(5, "swap"), (6, "swap"), (7, "none"), (5, "centre_row_ban")]:
        for _ in range(4):
            state, ref = new_game(size, rule), RefHex(size, rule, (), 0)
            while not state.is_over:
                ours, theirs = check_same_moves(state, ref, fmt)
                key = rng.choice(sorted(ours))
                state, ref = ours[key], theirs[key]
            assert ref.over and not ref.children()
            assert connects(size, dict(ref.board), state.winner or 0)
            assert state.parent is not None and not state.parent.is_over


# --- properties


@st.composite
def full_boards(draw: st.DrawFn) -> tuple[int, list[int]]:
    size = draw(st.integers(2, 11))
    return size, draw(st.lists(st.integers(0, 1), min_size=size * size, max_size=size * size))


@settings(max_examples=150, deadline=None)
@given(full_boards())
def test_on_every_full_board_exactly_one_player_has_a_winning_chain(board: tuple[int, list[int]]) -> None:
    size, owners = board
    state = new_game(size, "none", dict(enumerate(owners)))
    winners = [player for player in (FIRST, SECOND) if state.connects(player)]
    assert len(winners) == 1, board_text(state.diagram())
    assert (state.winner, state.reason) == (winners[0], EndReason.CONNECTION)
    reference = {(p % size, p // size): owner for p, owner in enumerate(owners)}
    assert [player for player in (0, 1) if connects(size, reference, player)] == winners
