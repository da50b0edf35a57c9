"""What a search reports: the move it chose and the statistics behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

MoveT = TypeVar("MoveT")


@dataclass(frozen=True)
class MoveStats(Generic[MoveT]):
    """One candidate at the root: how often it was explored and the mover's mean reward there."""

    move: MoveT
    visits: int
    win_rate: float


@dataclass(frozen=True)
class SearchResult(Generic[MoveT]):
    """The chosen move, its statistics, the expected continuation and the effort spent."""

    move: MoveT
    visits: int  # visits of the chosen move
    win_rate: float  # mean reward of the mover after the chosen move (0..1)
    playouts: int  # simulations run by this search (reused ones not counted)
    seconds: float  # as measured by the injected clock
    principal_variation: list[MoveT] = field(default_factory=list)  # starts with `move`
    children: list[MoveStats[MoveT]] = field(default_factory=list)  # most visited first
    reused: int = 0  # visits of the root inherited from the previous search (tree reuse)

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0
