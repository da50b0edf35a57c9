"""The light playout policy's tactics: two-liberty fights, fill-board and the refusal of big self-ataris."""

from __future__ import annotations

import numpy as np

from miai.core.go import Rules, new_game
from miai.engines.kernel.convert import KernelPosition, from_state
from miai.engines.kernel.ladder import new_work
from miai.engines.kernel.layout import H_LAST, padded
from miai.engines.kernel.playout import (
    fill_board_move,
    new_rng,
    refused_self_atari,
    stones_joined,
    two_liberty_moves,
)
from miai.formats.ascii import parse_diagram


def _position(diagram_text: str, to_move: int, last: str | None = None) -> tuple[KernelPosition, int]:
    diagram = parse_diagram(diagram_text)
    position = from_state(new_game(diagram.size, Rules(), setup=diagram.stones, to_move=to_move))
    if last is not None:
        position.b[H_LAST] = _q(diagram_text, last)
    return position, diagram.size


def _q(diagram_text: str, vertex: str) -> int:
    diagram = parse_diagram(diagram_text)
    return padded(diagram.point(vertex), diagram.size)


def _two_liberty_answers(diagram_text: str, to_move: int, last: str) -> set[int]:
    position, _ = _position(diagram_text, to_move, last)
    cands = np.zeros(64, dtype=np.int32)
    tmp = np.zeros(8, dtype=np.int32)
    work, work_hz = new_work()
    n = two_liberty_moves(position.b, to_move, position.b[H_LAST], cands, tmp, position.zob, work, work_hz)
    return {int(q) for q in cands[:n]}


# White's D5 stone (just played) has two liberties, C5 and D6. An atari from D6 leaves it C5, where it
# would have a single liberty (C6): caught. An atari from C5 lets it run to D6 with three liberties.
WHITE_JUST_PLAYED = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . . . . .
 5 . X . O X . . . .
 4 . . X X . . . . .
 3 . . . . . . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
   A B C D E F G H J
"""


def test_atari_on_the_chain_just_played_when_it_cannot_escape() -> None:
    answers = _two_liberty_answers(WHITE_JUST_PLAYED, to_move=0, last="D5")
    assert _q(WHITE_JUST_PLAYED, "D6") in answers
    assert _q(WHITE_JUST_PLAYED, "C5") not in answers


# Black's E5-E4 chain has two liberties after White's F4 (F5 and E3... D5 and D4 are White's): Black gives
# it a third by extending where the extension has room.
BLACK_SHORT_OF_LIBERTIES = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . O . . . .
 5 . . . O X . . . .
 4 . . . O X O . . .
 3 . . . . . . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
   A B C D E F G H J
"""


def test_extends_an_own_chain_left_with_two_liberties() -> None:
    answers = _two_liberty_answers(BLACK_SHORT_OF_LIBERTIES, to_move=0, last="F4")
    assert answers == {_q(BLACK_SHORT_OF_LIBERTIES, "F5"), _q(BLACK_SHORT_OF_LIBERTIES, "E3")}


def test_no_two_liberty_answer_in_a_quiet_position() -> None:
    quiet = WHITE_JUST_PLAYED.replace(" 5 . X", " 5 . .").replace(" 4 . . X", " 4 . . .")
    assert _two_liberty_answers(quiet, to_move=0, last="D5") == set()


CHEQUERED = "\n".join(
    f"{row} " + " ".join("X" if (row + col) % 3 == 0 else "." for col in range(9)) for row in range(9, 0, -1)
) + "\n  A B C D E F G H J\n"


def test_fill_board_only_finds_points_in_empty_areas() -> None:
    empty, _ = _position(WHITE_JUST_PLAYED.replace("O", ".").replace("X", "."), 0)
    rng = new_rng(3)
    q = fill_board_move(empty.b, rng, 10)
    assert q > 0
    row, col = divmod(q, 27)
    assert 2 <= row <= 8 and 2 <= col <= 8  # never on the first line: a neighbour would be off the board
    full, _ = _position(CHEQUERED, 0)
    assert fill_board_move(full.b, rng, 50) == -1


# Black's three stones C2-D2-E2 have two liberties, B2 and C1: B2 would leave the four of them in atari.
# H1 would be a lone black stone in atari (a throw-in, possibly a nakade).
SELF_ATARIS = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . . . . . .
 5 . . . . . . . . .
 4 . . . . . . . . .
 3 . O O O O . . . .
 2 O . X X X O . O .
 1 . O . O O . O . .
   A B C D E F G H J
"""


def test_stones_joined_counts_the_chain_a_move_would_make() -> None:
    position, _ = _position(SELF_ATARIS, 0)
    assert stones_joined(position.b, 0, _q(SELF_ATARIS, "B2")) == 4
    assert stones_joined(position.b, 0, _q(SELF_ATARIS, "H1")) == 1
    assert stones_joined(position.b, 1, _q(SELF_ATARIS, "B2")) == 7  # White's A2, B1 and B3-E3 join it


def test_a_big_self_atari_is_always_refused_and_a_lone_one_sometimes() -> None:
    position, _ = _position(SELF_ATARIS, 0)
    tmp = np.zeros(8, dtype=np.int32)
    rng = new_rng(5)
    big = _q(SELF_ATARIS, "B2")
    lone = _q(SELF_ATARIS, "H1")
    assert all(refused_self_atari(position.b, 0, big, rng, 0.0, True, tmp) for _ in range(50))
    assert not any(refused_self_atari(position.b, 0, big, rng, 0.0, False, tmp) for _ in range(50))
    refusals = sum(refused_self_atari(position.b, 0, lone, rng, 0.5, True, tmp) for _ in range(400))
    assert 120 < refusals < 280
    assert not refused_self_atari(position.b, 0, _q(SELF_ATARIS, "G5"), rng, 1.0, True, tmp)
