"""Typed errors of the rules core. All subclass ValueError so callers can catch them broadly."""

from __future__ import annotations

from enum import StrEnum


class IllegalReason(StrEnum):
    """Why a move was refused. The string values are stable: the API and the database use them."""

    OFF_BOARD = "off_board"
    OCCUPIED = "occupied"
    SUICIDE = "suicide"
    KO = "ko"
    SUPERKO = "superko"
    GAME_OVER = "game_over"
    NOT_ON_TURN = "not_on_turn"
    INACTIVE_COLOUR = "inactive_colour"
    NOT_ALLOWED = "not_allowed"


REASON_TEXT = {
    IllegalReason.OFF_BOARD: "that point is not on the board",
    IllegalReason.OCCUPIED: "that point is already occupied",
    IllegalReason.SUICIDE: "the stone would have no liberties (suicide)",
    IllegalReason.KO: "the play would retake the ko at once (basic ko rule)",
    IllegalReason.SUPERKO: "the play would repeat an earlier whole-board position (superko)",
    IllegalReason.GAME_OVER: "the game is over",
    IllegalReason.NOT_ON_TURN: "it is not that colour's turn",
    IllegalReason.INACTIVE_COLOUR: "that colour is no longer in the game",
    IllegalReason.NOT_ALLOWED: "that move is not allowed here",
}


class IllegalMove(ValueError):
    """A move that the rules refuse; `reason` says why. The state it was tried on is unchanged."""

    def __init__(self, reason: IllegalReason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(detail or REASON_TEXT[reason])


class InvalidRules(ValueError):
    """A combination of rule options, board size and colours that cannot be played."""


class ScoringNeedsJudgement(ValueError):
    """Scoring under `dead_stones=auto` was asked for without the estimator's verdict."""
