"""The interface every game implements, and the registry of game kinds.

The server, the search and the UI treat all games alike through it: adding a game means one core module
that provides a `GameKind`, a renderer in the UI and an entry in `KINDS`. Besides starting games and reading
moves, a kind tells the server what to show (`Board`: cells, the points the last move changed), what its
players are called and which options a game's creator may choose (`Offer`); Go has richer views of its own.
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


class RecordedState(GameState[MoveT], Protocol[MoveT]):
    """What a server needs besides `GameState` to host a kind through `GameKind.board`: the record as a
    chain of states (each knows the move that led to it and who made it) and why the game ended."""

    @property
    def size(self) -> int: ...

    @property
    def plies(self) -> int: ...

    @property
    def parent(self) -> RecordedState[MoveT] | None: ...

    @property
    def last_move(self) -> MoveT | None: ...

    @property
    def last_player(self) -> int: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def reason(self) -> str | None:
        """Why the game ended, a stable name ("connection", "resign", ...); None while it goes on."""
        ...

    def moves(self) -> Sequence[tuple[int, MoveT]]:
        """Every move from the start as (player, move)."""
        ...


@dataclass(frozen=True)
class Board:
    """What a client draws: per point `row * size + col` (row 0 = the first row of the game's notation),
    0 empty, player + 1 for a stone or piece, -1 for a neutral blocker (an Amazons arrow)."""

    size: int
    cells: tuple[int, ...]
    changed: tuple[int, ...] = ()  # the points the last move changed (removed ones included)
    removed: tuple[int, ...] = ()  # the points the last move emptied of stones


@dataclass(frozen=True)
class Offer:
    """An option a game's creator may choose on the server: its default and the values allowed."""

    name: str
    default: int | str
    values: tuple[int | str, ...] = ()  # the allowed values, when they are a list
    low: int | None = None  # else a range of whole numbers low..high
    high: int | None = None
    suggested: tuple[int | str, ...] = ()  # the values a form should show first

    def check(self, kind_key: str, value: object) -> int | str:
        """The value if it is allowed, else ValueError naming the option and what it may be."""
        if self.values:
            if value not in self.values or isinstance(value, bool):
                shown = ", ".join(map(str, self.values))
                raise ValueError(f"{kind_key} option {self.name} must be one of {shown}, not {value!r}")
            assert isinstance(value, int | str)
            return value
        low, high = self.low, self.high
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{kind_key} option {self.name} must be a whole number, not {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{kind_key} option {self.name} must be {low}..{high}, not {value}")
        return value

    def describe(self) -> dict[str, Any]:
        """The option as a create-game form needs it (JSON-ready)."""
        out: dict[str, Any] = {"name": self.name, "default": self.default}
        if self.values:
            out["values"] = list(self.values)
        else:
            out["min"], out["max"] = self.low, self.high
        if self.suggested:
            out["suggested"] = list(self.suggested)
        return out


@dataclass(frozen=True)
class GameKind:
    """A game the server offers: how to start it and how to read and write its moves."""

    key: str  # stable id used by the API and the database ("go", "amazons", "hex", "tanbo")
    title: str
    new_game: Callable[[Mapping[str, Any]], Any]  # options -> initial state; raises ValueError on bad options
    parse_move: Callable[[Any, str], Any]  # (state, text) -> move; raises ValueError with a clear message
    format_move: Callable[[Any, Any], str]  # (state, move) -> canonical text
    default_options: Mapping[str, Any] = field(default_factory=dict)
    player_names: tuple[str, ...] = ()  # players in turn order (two-player kinds; Go names its colours)
    board: Callable[[Any], Board] | None = None  # state -> what a client draws (all kinds but Go)
    offers: tuple[Offer, ...] = ()  # what a server game's creator may choose (all kinds but Go)
    # Move events leave out the legal moves when they are many (Amazons: 2,176 at the start); clients that
    # want them there generate them from the board, snapshots still list them.
    legal_in_events: bool = True


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
