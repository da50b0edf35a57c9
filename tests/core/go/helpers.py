"""Building Go states from SPEC-style ASCII diagrams."""

from __future__ import annotations

from miai.core.go import GoState, Rules, new_game
from miai.formats.ascii import Diagram, parse_diagram, render

# Three kos on one board: a cycle of captures that only superko stops.
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


def from_diagram(
    text: str, rules: Rules | None = None, colours: int = 2, to_move: int = 0
) -> tuple[GoState, Diagram]:
    diagram = parse_diagram(text)
    rules = rules or Rules(allowed_sizes=(diagram.size,))
    state = new_game(diagram.size, rules, colours=colours, setup=diagram.stones, to_move=to_move)
    return state, diagram


def same_board(state: GoState, expected: str) -> None:
    """Assert the state's board equals the diagram, showing both on failure."""
    want = parse_diagram(expected)
    assert state.position() == want.stones, f"\ngot:\n{render(state)}\nexpected:\n{expected}"
