"""Amazons (SPEC §2, A1, A2): the worked examples of §2.1 as diagrams, notation, endings, and perft."""

from __future__ import annotations

import random

import pytest

from miai.core import amazons
from miai.core.amazons import BLACK, WHITE, QueenMove, new_game, parse_move, parse_square
from miai.core.errors import IllegalMove, IllegalReason
from miai.core.twoplayer import RESIGN, TIMEOUT, EndReason
from tests.core.diagrams import amazons_position, same_board
from tests.core.perft import check_perft, check_same_moves
from tests.core.reference_amazons import RefAmazons

START = """
    10 . . . B . . B . . .
     9 . . . . . . . . . .
     8 . . . . . . . . . .
     7 B . . . . . . . . B
     6 . . . . . . . . . .
     5 . . . . . . . . . .
     4 W . . . . . . . . W
     3 . . . . . . . . . .
     2 . . . . . . . . . .
     1 . . . W . . W . . .
       a b c d e f g h i j
"""


def fmt(state: amazons.AmazonsState, move: amazons.AmazonsMove) -> str:
    return amazons.format_move(move, state.size)


def test_the_start_is_the_spec_diagram_and_white_moves_first() -> None:
    state = new_game()
    same_board(state, START)
    assert state.to_move == WHITE
    assert state.queens(WHITE) == sorted(parse_square(s) for s in ("a4", "d1", "g1", "j4"))
    assert state.queens(BLACK) == sorted(parse_square(s) for s in ("a7", "d10", "g10", "j7"))


def test_white_has_2176_first_moves_all_different() -> None:
    moves = new_game().legal_moves()
    assert len(moves) == 2176
    assert len(set(moves)) == 2176


LEGAL = {
    "a4-d4/d7": """
        10 . . . B . . B . . .
         9 . . . . . . . . . .
         8 . . . . . . . . . .
         7 B . . x . . . . . B
         6 . . . . . . . . . .
         5 . . . . . . . . . .
         4 . . . W . . . . . W
         3 . . . . . . . . . .
         2 . . . . . . . . . .
         1 . . . W . . W . . .
           a b c d e f g h i j
    """,
    "d1-d5/g8": """
        10 . . . B . . B . . .
         9 . . . . . . . . . .
         8 . . . . . . x . . .
         7 B . . . . . . . . B
         6 . . . . . . . . . .
         5 . . . W . . . . . .
         4 W . . . . . . . . W
         3 . . . . . . . . . .
         2 . . . . . . . . . .
         1 . . . . . . W . . .
           a b c d e f g h i j
    """,
    "d1-d4/d1": """
        10 . . . B . . B . . .
         9 . . . . . . . . . .
         8 . . . . . . . . . .
         7 B . . . . . . . . B
         6 . . . . . . . . . .
         5 . . . . . . . . . .
         4 W . . W . . . . . W
         3 . . . . . . . . . .
         2 . . . . . . . . . .
         1 . . . x . . W . . .
           a b c d e f g h i j
    """,
}


@pytest.mark.parametrize("text", list(LEGAL))
def test_legal_examples_of_the_spec(text: str) -> None:
    before = new_game()
    move = parse_move(text)
    assert before.analyze(move) is None
    assert move in before.legal_moves()
    after = before.play(move)
    same_board(before, START)  # unchanged
    same_board(after, LEGAL[text])
    assert after.to_move == BLACK
    assert after.moves() == [(WHITE, move)]


@pytest.mark.parametrize(
    ("text", "reason", "words"),
    [
        ("g1-g9/g10", IllegalReason.OCCUPIED, "cannot land on g10"),  # the arrow hits Black's queen
        ("a4-a8/a9", IllegalReason.NOT_ALLOWED, "blocked at a7"),  # the queen cannot jump over a7
        ("a7-a6/a5", IllegalReason.NOT_ALLOWED, "does not hold one of White's queens"),
        ("a4-b6/b7", IllegalReason.NOT_ALLOWED, "not a queen line"),
        ("a4-a4/a5", IllegalReason.NOT_ALLOWED, "not a queen line"),
        ("d1-d4/e6", IllegalReason.NOT_ALLOWED, "not a queen line"),
        ("d1-d4/d4", IllegalReason.NOT_ALLOWED, "not a queen line"),
        ("j4-j6/j8", IllegalReason.NOT_ALLOWED, "blocked at j7"),
    ],
)
def test_illegal_examples_leave_the_board_unchanged(text: str, reason: IllegalReason, words: str) -> None:
    state = new_game()
    move = parse_move(text)
    assert move not in state.legal_moves()
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    assert caught.value.reason is reason
    assert words in str(caught.value)
    same_board(state, START)


@pytest.mark.parametrize(
    "text", ["a4-d4/d7", "A4-D4/D7", " a4 - d4 / d7 ", "a4-d4,d7", "A4-D4, D7", "a4–d4,d7", "\ta4-d4/d7\n"]
)
def test_notation_variants_read_the_same_move(text: str) -> None:
    assert parse_move(text) == QueenMove(parse_square("a4"), parse_square("d4"), parse_square("d7"))


def test_canonical_notation_round_trips_every_first_move() -> None:
    state = new_game()
    texts = [amazons.format_move(m) for m in state.legal_moves()]
    assert "a4-d4/d7" in texts
    assert all(parse_move(t) == m for t, m in zip(texts, state.legal_moves(), strict=True))
    assert amazons.format_move(RESIGN) == "resign"
    assert parse_move(" Resign ") == RESIGN


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a4-d4", "not an Amazons move"),
        ("a4d4d7", "not an Amazons move"),
        ("", "not an Amazons move"),
        ("pass", "not an Amazons move"),
        ("a4-d4/k7", "off the 10x10 board"),
        ("a0-d4/d7", "off the 10x10 board"),
        ("a4-d11/d7", "off the 10x10 board"),
    ],
)
def test_bad_notation_gets_a_clear_message(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_move(text)


def test_partial_move_helpers_for_the_ui() -> None:
    state = new_game()
    a4 = parse_square("a4")
    destinations = state.queen_destinations(a4)
    names = sorted(amazons.format_square(p) for p in destinations)
    # Up to a6 (a7 is Black), right to i4 (j4 is White), down to a1, and the two diagonals.
    expected = ["a1", "a2", "a3", "a5", "a6"] + [f"{f}4" for f in "bcdefghi"]
    expected += ["b5", "c6", "d7", "e8", "f9", "g10"][:5] + ["b3", "c2", "d1"][:2]
    assert names == sorted(expected)
    arrows = state.arrow_targets(parse_square("d1"), parse_square("d4"))
    assert parse_square("d1") in arrows  # the square just left is free for the arrow
    assert state.arrow_targets(a4, parse_square("a8")) == []  # not a legal queen move
    assert state.queen_destinations(parse_square("a7")) == []  # not White's queen
    total = sum(
        len(state.arrow_targets(q, to)) for q in state.queens(WHITE) for to in state.queen_destinations(q)
    )
    assert total == 2176


CORNERED_BEFORE = """
    4 W x . .
    3 x . . .
    2 . . . B
    1 . . . .
      a b c d
"""
CORNERED_AFTER = """
    4 W x . .
    3 x x . .
    2 . . B .
    1 . . . .
      a b c d
"""


def test_the_player_to_move_with_no_move_loses() -> None:
    before = amazons_position(CORNERED_BEFORE, to_move=BLACK)
    assert not before.is_over
    after = before.play(parse_move("d2-c2/b3", 4))
    same_board(after, CORNERED_AFTER)
    assert after.is_over and after.legal_moves() == []
    assert (after.winner, after.reason) == (BLACK, EndReason.NO_MOVES)
    assert after.rewards() == (0.0, 1.0)
    with pytest.raises(IllegalMove) as caught:
        after.play(parse_move("a4-a3/a2", 4))
    assert caught.value.reason is IllegalReason.GAME_OVER


def test_a_set_up_position_without_moves_is_already_lost() -> None:
    state = amazons_position(CORNERED_AFTER, to_move=WHITE)
    assert (state.winner, state.reason) == (BLACK, EndReason.NO_MOVES)


def test_resignation_and_timeout_end_the_game_for_either_player() -> None:
    state = new_game()
    resigned = state.play(RESIGN)
    assert (resigned.winner, resigned.reason) == (BLACK, EndReason.RESIGN)
    assert resigned.moves() == [(WHITE, RESIGN)]
    timed_out = state.leave(BLACK, TIMEOUT)
    assert (timed_out.winner, timed_out.reason) == (WHITE, EndReason.TIMEOUT)
    assert timed_out.rewards() == (1.0, 0.0)
    with pytest.raises(IllegalMove):
        timed_out.play(RESIGN)
    with pytest.raises(ValueError, match="no player 2"):
        state.leave(2, RESIGN)


def test_bad_set_ups_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="10x10"):
        new_game(8)
    with pytest.raises(ValueError, match="given twice"):
        new_game(4, [0], [0])
    with pytest.raises(ValueError, match="not on the 4x4 board"):
        new_game(4, [16], [0])
    with pytest.raises(ValueError, match="squares wide"):
        new_game(27)


def test_can_move_agrees_with_move_generation_along_random_games() -> None:
    rng = random.Random(5)
    for _ in range(3):
        state = new_game()
        while not state.is_over:
            for player in (WHITE, BLACK):
                generated = amazons.AmazonsState(state.size, state.cells, player).legal_moves()
                assert state.can_move(player) == bool(generated)
            state = state.play(rng.choice(state.legal_moves()))


# --- perft against the naive reference


SMALL_BOARDS = [
    (4, ["a1", "d1"], ["a4", "d4"], ["b2", "c3"], 3),  # games that end inside the tree
    (4, ["a1"], ["d4"], ["b3"], 3),
    (5, ["c1"], ["c5"], ["c3", "b2", "d4", "a4"], 3),
    (6, ["a3", "d1"], ["c6", "f4"], ["c3", "d4"], 2),
]


@pytest.mark.parametrize(("size", "white", "black", "arrows", "depth"), SMALL_BOARDS)
def test_perft_on_small_boards(
    size: int, white: list[str], black: list[str], arrows: list[str], depth: int
) -> None:
    def sq(names: list[str]) -> list[int]:
        return [parse_square(s, size) for s in names]

    state = new_game(size, sq(white), sq(black), sq(arrows))
    check_perft(state, RefAmazons.start(size, white, black, arrows, "W"), depth, fmt)


def test_perft_one_of_the_full_board_is_2176_in_both() -> None:
    ref = RefAmazons.start(10, ["a4", "d1", "g1", "j4"], ["a7", "d10", "g10", "j7"], [], "W")
    assert check_perft(new_game(), ref, 1, fmt) == 2176


def test_a_random_full_game_agrees_with_the_reference_move_by_move() -> None:
    """Depth 1 at every ply of a whole game (its ending included), depth 2 once the board has filled up."""
    rng = random.Random(1)
    state = new_game()
    ref = RefAmazons.start(10, ["a4", "d1", "g1", "j4"], ["a7", "d10", "g10", "j7"], [], "W")
    while True:
        ours, theirs = check_same_moves(state, ref, fmt)
        if not ours:
            assert state.is_over and state.winner == 1 - state.to_move
            break
        if state.plies == 60:
            check_perft(state, ref, 2, fmt)
        key = rng.choice(sorted(ours))
        state, ref = ours[key], theirs[key]
