"""The interface every game implements, and the registry of game kinds.

The server, the search and the UI treat all games alike through it: adding a game means one core module
that provides a `GameKind`, a renderer in the UI and an entry in `KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

MoveT = TypeVar("MoveT")
StateT = TypeVar("StateT", bound="GameState[Any]")


class GameState(Protocol[MoveT]):
    """An immutable position of some game. Players are ints 0..players-1."""

    @property
    def players(self) -> int: ...

    @property
    def to_move(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def legal_moves(self) -> Sequence[MoveT]:
        """Every legal move of the player to move (empty when the game is over)."""
        ...

    def play(self, move: MoveT) -> GameState[MoveT]:
        """The state after the move; raises IllegalMove (a ValueError) and leaves `self` unchanged."""
        ...

    def rewards(self) -> tuple[float, ...]:
        """Per player, 1 for a win, 0 for a loss, shares for ties; only meaningful once the game is over."""
        ...


@dataclass(frozen=True)
class GameKind:
    """A game the server offers: how to start it and how to read and write its moves."""

    key: str  # stable id used by the API and the database ("go", "amazons", "hex", "tanbo")
    title: str
    new_game: Callable[[Mapping[str, Any]], Any]  # options -> initial state; raises ValueError on bad options
    parse_move: Callable[[Any, str], Any]  # (state, text) -> move; raises ValueError with a clear message
    format_move: Callable[[Any, Any], str]  # (state, move) -> canonical text
    default_options: Mapping[str, Any] = field(default_factory=dict)


KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    if kind.key in KINDS:
        raise ValueError(f"game kind {kind.key!r} is registered twice")
    KINDS[kind.key] = kind
    return kind


def kind(key: str) -> GameKind:
    try:
        return KINDS[key]
    except KeyError:
        raise ValueError(f"unknown game {key!r}; known: {', '.join(sorted(KINDS))}") from None
