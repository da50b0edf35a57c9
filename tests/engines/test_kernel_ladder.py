"""The ladder reader of the compiled kernel: chases that work, and ladder breakers that spoil them."""

from __future__ import annotations

import pytest

from miai.core.go import Rules, new_game
from miai.engines.kernel.convert import KernelPosition, from_state
from miai.engines.kernel.jit import wide
from miai.engines.kernel.ladder import atari_caught_by_ladder, caught_by_ladder, new_work
from miai.engines.kernel.layout import HEAD, padded
from miai.formats.ascii import parse_diagram

# White's E5 stone is in atari (its liberty is E4); running to E4 leaves it two liberties, D4 and E3.
RUNNING_STONE = """
 9 . . . . . . . . .
 8 . . . . . . . . .
 7 . . . . . . . . .
 6 . . . . X . . . .
 5 . . . X O X . . .
 4 . . . . . X . . .
 3 . . . . . . . . .
 2 . . . . . . . . .
 1 . . . . . . . . .
   A B C D E F G H J
"""


def _position(diagram_text: str, to_move: int) -> tuple[KernelPosition, int]:
    diagram = parse_diagram(diagram_text)
    state = new_game(diagram.size, Rules(), setup=diagram.stones, to_move=to_move)
    return from_state(state), diagram.size


def _head(position: KernelPosition, size: int, vertex: str, diagram_text: str) -> int:
    point = parse_diagram(diagram_text).point(vertex)
    return wide(position.b[HEAD + padded(point, size)])


def _caught(diagram_text: str) -> bool:
    position, size = _position(diagram_text, to_move=1)
    work, work_hz = new_work()
    tmp = position.b[:8].copy()
    head = _head(position, size, "E5", diagram_text)
    return bool(caught_by_ladder(position.b, position.zob, head, 0, work, work_hz, tmp))


def _with(diagram_text: str, vertex: str, stone: str) -> str:
    """The diagram with one more stone at `vertex`."""
    lines = diagram_text.splitlines()
    letters = "ABCDEFGHJ"
    col = letters.index(vertex[0])
    row = int(vertex[1:])
    out = []
    for line in lines:
        parts = line.split()
        if parts and parts[0] == str(row):
            cells = parts[1:]
            cells[col] = stone
            out.append(" " + " ".join([parts[0], *cells]))
        else:
            out.append(line)
    return "\n".join(out)


def test_a_ladder_on_an_open_board_catches_the_runner() -> None:
    assert _caught(RUNNING_STONE)


@pytest.mark.parametrize("breaker", ["C3", "B2", "D2"])
def test_a_ladder_breaker_on_the_diagonal_lets_it_escape(breaker: str) -> None:
    assert not _caught(_with(RUNNING_STONE, breaker, "O"))


def test_an_attacker_stone_on_the_diagonal_helps_the_ladder() -> None:
    assert _caught(_with(RUNNING_STONE, "C3", "X"))


def test_a_pursuer_in_atari_is_captured_instead() -> None:
    # White stones at C5 and D6 leave Black's D5 stone one liberty (D4): White takes it instead of running.
    weak = _with(_with(RUNNING_STONE, "C5", "O"), "D6", "O")
    assert not _caught(weak)


def test_white_stones_beside_the_first_step_spoil_the_ladder() -> None:
    # After White E4 the chase must go through D4 or E3; White stones at C4 and D3 flank both.
    assert _caught(RUNNING_STONE)
    spoiled = _with(_with(RUNNING_STONE, "C4", "O"), "D3", "O")
    assert not _caught(spoiled)


def test_reading_leaves_the_board_untouched() -> None:
    position, size = _position(RUNNING_STONE, to_move=1)
    before = position.b.copy()
    work, work_hz = new_work()
    tmp = before[:8].copy()
    head = _head(position, size, "E5", RUNNING_STONE)
    caught_by_ladder(position.b, position.zob, head, 0, work, work_hz, tmp)
    assert (position.b == before).all()


def test_an_atari_that_starts_a_working_ladder() -> None:
    # White E5 has two liberties (E4 and F5); Black's atari from F5 chases it to the lower left.
    two_liberties = _with(RUNNING_STONE, "F5", ".")
    two_liberties = _with(two_liberties, "F4", ".")
    two_liberties = _with(two_liberties, "F4", "X")
    two_liberties = _with(two_liberties, "G7", "O")  # breaks the ladder running to the upper right
    position, size = _position(two_liberties, to_move=0)
    work, work_hz = new_work()
    tmp = position.b[:8].copy()
    head = _head(position, size, "E5", two_liberties)
    diagram = parse_diagram(two_liberties)
    f5 = padded(diagram.point("F5"), size)
    e4 = padded(diagram.point("E4"), size)
    assert atari_caught_by_ladder(position.b, position.zob, 0, f5, head, work, work_hz, tmp)
    # From the other side White runs towards G7 and escapes.
    assert not atari_caught_by_ladder(position.b, position.zob, 0, e4, head, work, work_hz, tmp)
