"""Replaying the main line of a Go record: setup nodes, moves and events applied to a `GoState`.

`flatten_main_line` turns the nodes into setup and event items (cut where `upto` says); `Replay` applies
them. Real records break rules in many small ways, so no move stops the replay: a ko violation is
replayed with `check_ko=False`, an occupied point or a suicide is skipped, and each becomes a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from miai.core.errors import IllegalMove, IllegalReason, InvalidRules
from miai.core.go.board import geometry
from miai.core.go.game import GoState, new_game
from miai.core.go.moves import Move, Pass, Place, Resign, Timeout
from miai.core.go.rules import Rules
from miai.core.go.vertex import format_point, parse_point
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.go_nodes import ROOT_ONLY, Event, move_text, node_events, node_setup, node_to_move
from miai.formats.sgf.limits import Budget
from miai.formats.sgf.tree import GameTree


@dataclass
class _Setup:
    """A node's setup: stone changes (point, colour or None), and the colour it says is to move."""

    changes: list[tuple[int, int | None]]
    to_move: int | None
    node: int  # index of the node on the main line (0 = root)


@dataclass
class _Numbered:
    event: Event
    number: int | None  # the move number, for moves and passes
    node: int


Item = _Setup | _Numbered


@dataclass
class Stop:
    colour: int  # the colour of the move the replay stopped before
    what: str


def flatten_main_line(
    tree: GameTree, size: int, colours: int, upto: int | str | None, problems: list[str], budget: Budget
) -> tuple[list[Item], Stop | None]:
    """The main line as setup and event items, cut before the move `upto` names."""
    until_number, until_point = _parse_upto(upto, size)
    items: list[Item] = []
    number = 0
    for index, node in enumerate(tree.main_line()):
        misplaced = sorted(ROOT_ONLY.intersection(node.properties)) if index else []
        if misplaced:
            problems.append(f"node {index}: {', '.join(misplaced)} only count in the root node; ignored")
        changes = node_setup(node, size, colours, problems, budget)
        to_move = node_to_move(node, colours, problems)
        events = node_events(node, size, colours, budget)
        # Stones first, then the moves, then PL: the player to move at this node, i.e. after its moves.
        if changes or (to_move is not None and not events):
            items.append(_Setup(changes, to_move if not events else None, index))
        for event in events:
            numbered = None
            if event.numbered:
                number += 1
                numbered = number
                move = event.move
                at_point = isinstance(move, Place) and move.point == until_point
                if number == until_number or at_point:
                    return items, Stop(event.colour, move_text(event.colour, move, size))
            items.append(_Numbered(event, numbered, index))
        if events and to_move is not None:
            items.append(_Setup([], to_move, index))
    if until_number is not None and until_number > number + 1:  # number + 1: the position after the last
        problems.append(f"move {until_number} was asked for, but the main line has {number} moves")
    elif until_point is not None:
        problems.append(f"no move at {format_point(until_point, size)} on the main line; loaded to the end")
    return items, None


def _parse_upto(upto: int | str | None, size: int) -> tuple[int | None, int | None]:
    if upto is None:
        return None, None
    if isinstance(upto, str) and upto.strip().isdigit():
        upto = int(upto.strip())
    if isinstance(upto, int):
        if upto < 1:
            raise ValueError(f"moves are numbered from 1; cannot load up to move {upto}")
        return upto, None
    return None, parse_point(upto, size)


# ---------------------------------------------------------------- replay


class Replay:
    """Applies flattened items to a game that starts empty; `state` and `moves_played` are the result."""

    def __init__(
        self, size: int, colours: int, seats: tuple[int, ...], rules: Rules, handicap: int,
        problems: list[str], budget: Budget,
    ) -> None:
        self.budget = budget
        self.size = size
        self.colours = colours
        self.seats = seats
        self.rules = rules
        self.handicap = handicap if colours == 2 and handicap >= 2 else 0
        self.problems = problems
        self.moves_played = 0
        self.black_setup: list[int] = []  # AB points before the first move: handicap candidates
        self.start_to_move: int | None = None
        self.fresh = True  # no event since the game (re)started: a setup node still edits the start
        self.handicap_points: list[int] = []
        self.state = self._start({}, None)

    def run(self, items: Sequence[Item], stop: Stop | None) -> GoState:
        i = 0
        while i < len(items):
            item = items[i]
            self.budget.position(self.size)  # each item makes at most one new position to keep
            if isinstance(item, _Setup):
                self._setup(item)
                i += 1
                continue
            autos: list[_Numbered] = []
            j = i + 1
            while j < len(items) and isinstance(nxt := items[j], _Numbered) and nxt.event.auto:
                autos.append(nxt)
                j += 1
            i += 1 + self._event(item, autos)
        if self.fresh:
            self._check_handicap()
        if stop is not None and stop.colour >= 0 and self.state.to_move != stop.colour:
            self._restart(f"the record stops before {stop.what}", stop.colour)
        return self.state

    # ------------------------------------------------------------ setup

    def _setup(self, item: _Setup) -> None:
        if self.fresh:
            position = dict(self.state.position())
            for point, colour in item.changes:
                if colour == 0:
                    self.black_setup.append(point)
                self._change(position, point, colour)
            if item.to_move is not None:
                self.start_to_move = item.to_move
            self.state = self._start(position, self.start_to_move)
            return
        position = dict(self.state.position())
        for point, colour in item.changes:
            self._change(position, point, colour)
        to_move = self.state.to_move if item.to_move is None else item.to_move
        if position != self.state.position():
            self._restart(f"node {item.node} adds or removes stones in mid-game", to_move, position)
        elif to_move != self.state.to_move:
            self._restart(f"node {item.node} changes the player to move", to_move)

    @staticmethod
    def _change(position: dict[int, int], point: int, colour: int | None) -> None:
        if colour is None:
            position.pop(point, None)
        else:
            position[point] = colour

    def _restart(self, why: str, to_move: int, position: dict[int, int] | None = None) -> None:
        """Start a new game from the current (or given) position: GoState has no mid-game setup."""
        self.problems.append(f"{why}: the game restarts from that position with {_name(to_move)} to move; "
                             "earlier moves and captures are not kept")
        self.state = self._start(dict(self.state.position()) if position is None else position, to_move)

    def _start(self, position: dict[int, int], to_move: int | None) -> GoState:
        handicap_points = self._handicap_points(position)
        if to_move is None:
            to_move = 1 if self.handicap else 0
        setup = {p: c for p, c in position.items() if p not in handicap_points}
        try:
            return self._new_game(setup, handicap_points, to_move)
        except InvalidRules as err:
            if "without liberties" not in str(err):
                raise SgfError(f"cannot set up this game: {err}") from None
        removed = _chains_without_liberties(position, self.size)
        self.problems.append(
            "the setup leaves stones without liberties; removed: "
            + " ".join(format_point(p, self.size) for p in sorted(removed))
        )
        setup = {p: c for p, c in setup.items() if p not in removed}
        handicap_points = [p for p in handicap_points if p not in removed]
        if len(handicap_points) < 2:
            setup.update(dict.fromkeys(handicap_points, 0))
            handicap_points = []
        return self._new_game(setup, handicap_points, to_move)

    def _new_game(self, setup: dict[int, int], handicap_points: list[int], to_move: int) -> GoState:
        try:
            return new_game(
                self.size, self.rules, self.colours, seats=self.seats,
                handicap_points=handicap_points or None, setup=setup, to_move=to_move,
            )
        except InvalidRules as err:
            if "without liberties" in str(err):
                raise
            raise SgfError(f"cannot set up this game under these rules: {err}") from None

    def _handicap_points(self, position: dict[int, int]) -> list[int]:
        """HA[n] with n >= 2: the first n black setup stones (of the start, or still on the board)."""
        if not self.handicap:
            return []
        candidates = self.handicap_points if not self.fresh else self.black_setup
        points = list(dict.fromkeys(p for p in candidates if position.get(p) == 0))[: self.handicap]
        if len(points) < 2:
            return []
        if self.fresh:
            self.handicap_points = points
        return points

    # ------------------------------------------------------------ events

    def _event(self, item: _Numbered, autos: list[_Numbered]) -> int:
        """Apply one event; returns how many of the automatic passes after it were consumed with it."""
        if self.fresh:
            self._check_handicap()
            self.fresh = False
        event = item.event
        label = self._label(item)
        if event.error is not None:
            self.problems.append(f"{label}: {event.error}; skipped")
            return 0
        state = self.state
        move = event.move
        if move is None:  # agreed draw
            if state.ended is not None:
                self.problems.append(f"{label}: the game is already over; skipped")
                return 0
            self.state = state.agreed_draw()
            return 0
        colour = event.colour
        if colour >= self.colours or not state.active[colour]:
            self.problems.append(f"{label}: that colour is not in play; skipped")
            return 0
        if isinstance(move, Resign | Timeout):
            return self._leave(label, colour, move, autos)
        if event.auto:  # a marked automatic pass that no earlier move produced
            self.problems.append(f"{label}: marked as an automatic pass, but the rules would not pass "
                                 "automatically here; replayed as an ordinary pass")
        if state.ended is None and colour == state.to_move:
            consumed = self._play_in_turn(move, autos)
            if consumed is not None:
                return consumed
        self._play_as(label, colour, move)
        return 0

    def _play_in_turn(self, move: Move, autos: list[_Numbered]) -> int | None:
        """Replay a move in turn with `play`, as Miai played it, when the record marks the automatic passes
        (G6) that `play` then makes; None means: replay it with `play_as` instead."""
        try:
            after = self.state.play(move)
        except IllegalMove:
            return None
        made = self._auto_passes(after)
        if made != [a.event.colour for a in autos[: len(made)]]:
            return None
        self.state = after
        self.moves_played += 1 + len(made)
        return len(made)

    def _auto_passes(self, after: GoState) -> list[int]:
        made = []
        for state in after.lineage():
            if state is self.state:
                break
            if state.auto_pass:
                made.append(state.last_colour)
        return made[::-1]

    def _leave(self, label: str, colour: int, move: Resign | Timeout, autos: list[_Numbered]) -> int:
        state = self.state
        if state.ended is not None or colour != state.to_move:
            self.problems.append(f"{label}: only the colour to move can leave a game in progress; skipped")
            return 0
        # Only play() resigns; it may pass automatically for the colours after, as the rules require.
        after = state.play(move)
        made = self._auto_passes(after)
        self.state = after
        self.moves_played += len(made)
        if made != [a.event.colour for a in autos[: len(made)]]:
            self.problems.append(f"{label}: the rules passed automatically for "
                                 + ", ".join(_name(c) for c in made) + "; the record does not say so")
            return 0
        return len(made)

    def _play_as(self, label: str, colour: int, move: Place | Pass) -> None:
        try:
            self.state = self.state.play_as(colour, move)
        except IllegalMove as err:
            if err.reason not in (IllegalReason.KO, IllegalReason.SUPERKO):
                self.problems.append(f"{label}: {err}; skipped")
                return
            self.problems.append(f"{label}: {err}; replayed anyway")
            self.state = self.state.play_as(colour, move, check_ko=False)
        self.moves_played += 1

    def _check_handicap(self) -> None:
        if self.handicap and len(self.handicap_points) != self.handicap:
            self.problems.append(f"HA[{self.handicap}] but {len(self.handicap_points)} handicap stones "
                                 "were set up; the stones on the board count")

    def _label(self, item: _Numbered) -> str:
        what = move_text(item.event.colour, item.event.move, self.size) if item.event.error is None else ""
        if item.number is not None:
            return f"move {item.number}" + (f" ({what})" if what else "")
        return f"node {item.node}" + (f" ({what})" if what else "")


def _name(colour: int) -> str:
    return "Black" if colour == 0 else "White" if colour == 1 else f"colour {colour}"


def _chains_without_liberties(position: dict[int, int], size: int) -> set[int]:
    neighbours = geometry(size).neighbours
    dead: set[int] = set()
    seen: set[int] = set()
    for start, colour in position.items():
        if start in seen:
            continue
        chain, frontier, free = {start}, [start], False
        while frontier:
            p = frontier.pop()
            for n in neighbours[p]:
                if n not in position:
                    free = True
                elif position[n] == colour and n not in chain:
                    chain.add(n)
                    frontier.append(n)
        seen |= chain
        if not free:
            dead |= chain
    return dead
