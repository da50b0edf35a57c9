"""Small life-and-death and capture problems, as SPEC-style diagrams (X = Black, O = White).

The rest of each board is settled (solid walls with real eyes), and the komi is chosen so that the problem
decides the game: with the right move the side to play wins, with any other it loses. `answers` lists the
points that solve it (a snapback has two mirror-image throw-ins).
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.core.go import GoState, Rules, new_game
from miai.core.go.rules import DeadStones, KoRule
from miai.formats.ascii import parse_diagram


@dataclass(frozen=True)
class Problem:
    name: str
    diagram: str
    to_move: int
    komi: tuple[float, float]
    answers: tuple[str, ...]

    def state(self) -> GoState:
        diagram = parse_diagram(self.diagram)
        rules = Rules(ko=KoRule.SIMPLE, dead_stones=DeadStones.AUTO, komi=self.komi)
        return new_game(diagram.size, rules, setup=diagram.stones, to_move=self.to_move)

    def answer_points(self) -> set[int]:
        diagram = parse_diagram(self.diagram)
        return {diagram.point(v) for v in self.answers}


PROBLEMS = (
    Problem(
        "kill: vital point of a straight three",
        """
         7 X X X X X X X
         6 X . X X . X X
         5 X X X X X X X
         4 X X X X X X X
         3 X X X X X X X
         2 O O O O O X X
         1 O . . . O X .
           A B C D E F G
        """,
        0,
        (0.0, 35.5),  # White alive: 10 + 35.5 > 39; White dead: 35.5 < 49
        ("C1",),
    ),
    Problem(
        "live: take the vital point of one's own straight three",
        """
         7 O O O O O O O
         6 O . O O . O O
         5 O O O O O O O
         4 O O O O O O O
         3 O O O O O O O
         2 X X X X X O O
         1 X . . . X O .
           A B C D E F G
        """,
        0,
        (35.5, 0.0),
        ("C1",),
    ),
    Problem(
        "save a group in atari by connecting it home",
        """
         7 O O O O O O O
         6 O . O O . O O
         5 O O O O O O O
         4 O O X X O O O
         3 O O . O O O O
         2 X X X X X X X
         1 X . . . . . X
           A B C D E F G
        """,
        0,
        (17.5, 0.0),  # saved: 17 + 17.5 > 32; captured: 14 + 17.5 < 35
        ("C3",),
    ),
    Problem(
        "capturing race: take the last liberty first",
        """
         7 X X X X O O O
         6 X . X X O . O
         5 X X X O X O O
         4 X . X O X O O
         3 X X X O X O O
         2 X . X . . O .
         1 X X X X O O O
           A B C D E F G
        """,
        0,
        (0.0, 3.5),
        ("D2",),
    ),
    Problem(
        "connect a one-eyed group to a living one",
        """
         7 O O O O O O O
         6 O . O O . O O
         5 O O O O O O O
         4 X X O X X O O
         3 . X . X . X O
         2 X X O X X X O
         1 O O O X . X O
           A B C D E F G
        """,
        0,
        (14.5, 0.0),  # connected: 22 + 14.5 > 27; cut: 11 + 14.5 < 38
        ("C3",),
    ),
    Problem(
        "capture two stones in atari (they decide the count)",
        """
         7 O O O O O O O
         6 O . O O . O O
         5 O O O O O O O
         4 X X O X X O O
         3 . X . X . X O
         2 X X O X X X O
         1 . X O X . X O
           A B C D E F G
        """,
        0,
        (7.5, 0.0),  # captured: 22 + 7.5 > 27; saved by White C3: 19 + 7.5 < 30
        ("C3",),
    ),
    Problem(
        "kill: vital point of a bent three",
        """
         7 X X X X X X X
         6 X . X X . X X
         5 X X X X X X X
         4 O O O X X X X
         3 . . O X X X X
         2 O . O X X X X
         1 O O O X X X .
           A B C D E F G
        """,
        0,
        (0.0, 38.5),
        ("B3",),
    ),
    Problem(
        "snapback: throw in, let it be taken, take back more",
        """
         7 O O O O O O O
         6 O . O O . O O
         5 O O O O O O O
         4 O O O O O O O
         3 X X X X . O O
         2 O O O X . O O
         1 . . O X O O .
           A B C D E F G
        """,
        0,
        (30.5, 0.0),
        ("A1", "B1"),
    ),
)


# Three colours, R (colour 2) to move. X's four stones at B5-C6 have one liberty, D5. If R takes them the
# enclosed points are R's and R wins (R 23, O 20, X 11 with O's komi of 6); if R plays anything else, X cannot
# help and O captures at D5 next, and then O wins (O 21, R 18).
THREE_COLOUR_CAPTURE = """
 7 R R R R O O O
 6 R X X R O . O
 5 R X X . O O O
 4 R R R O O X X
 3 R . R O X X .
 2 R R R O X . X
 1 . R . O X X X
   A B C D E F G
"""


def three_colour_capture() -> tuple[GoState, int]:
    """The position above and the one point that wins it for R."""
    diagram = parse_diagram(THREE_COLOUR_CAPTURE)
    rules = Rules(dead_stones=DeadStones.ALL_ALIVE, komi=(0.0, 6.0, 0.0))
    state = new_game(diagram.size, rules, colours=3, setup=diagram.stones, to_move=2)
    return state, diagram.point("D5")
