"""Go for 2..16 colours: board, rules options, presets, handicap, play and scoring."""

from miai.core.go.game import GoState, new_game
from miai.core.go.moves import PASS, RESIGN, TIMEOUT, Move, Pass, Place, Resign, Timeout
from miai.core.go.presets import PRESETS, preset
from miai.core.go.rules import DeadStones, HandicapBonus, KoRule, Rules, Scoring, Suicide
from miai.core.go.scoring import Result, Score, outcome, score

__all__ = [
    "PASS",
    "PRESETS",
    "RESIGN",
    "TIMEOUT",
    "DeadStones",
    "GoState",
    "HandicapBonus",
    "KoRule",
    "Move",
    "Pass",
    "Place",
    "Resign",
    "Result",
    "Rules",
    "Score",
    "Scoring",
    "Suicide",
    "Timeout",
    "new_game",
    "outcome",
    "preset",
    "score",
]
