"""What the server needs to know about a game's kind, bound to one game's options: a `Table`.

The game commands (lobby.py, moves.py), snapshots, computer players and the SGF download talk to a game only
through its table. Go has one of its own (`GoTable`: passes, captures, scores, dead stones, agreed draws);
every other kind in `miai.core.registry.KINDS` is served by `KindTable` from its registration alone (its
`Board`, `player_names` and `offers`, and the `RecordedState` interface of its states), so a new kind needs
no server code.

Teams are numbered from 1 here (core players from 0). Inside a team the seats take the team's turns in join
order; Go's core tracks that itself, for the other kinds it follows from how many moves the team has made.
"""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from miai.core.clock import TeamClock
from miai.core.errors import IllegalMove, IllegalReason
from miai.core.go import TIMEOUT, GoState, KoRule, Move, Place, Resign, Timeout
from miai.core.go.vertex import format_move, parse_move
from miai.core.registry import Board, GameKind, RecordedState
from miai.formats.sgf.times import TimeLeft, TimeSystem
from miai.server.errors import BadInput
from miai.server.game_options import GoOptions, KindOptions, load_options
from miai.server.move_texts import AGREED_DRAW, AUTO_PASS
from miai.server.play.judging import Judge
from miai.server.play.views import final_result, move_text, position_view

log = logging.getLogger(__name__)
# Go's colours as the UI's classic palette names them; more teams than names are "Team N".
GO_TEAM_NAMES = ("Black", "White", "Red", "Blue", "Green", "Yellow", "Purple", "Orange")
LEVELS = range(1, 11)  # Miai's own levels; external engines play Go only


@dataclass(frozen=True)
class Step:
    """One stored event between two states: the state after it, who made it and its record text."""

    state: Any
    team: int  # from 1; 0 for an agreed draw
    seat: int
    text: str
    left: str | None = None  # "resign" or "timeout" when the mover left the game
    clocked: bool = True  # whether the mover's clock is charged (not for automatic passes or leaving)


class Table(ABC):
    """One game's kind and options: how to start, replay, read, show and end it."""

    key: str
    title: str
    options: GoOptions | KindOptions
    draws = False  # agreed draws (Go with more than two colours)
    scored = False  # scored with dead stones: the score review and the territory estimate

    @abstractmethod
    def new_state(self) -> Any:
        """The start position (OptionsError when the options cannot start a game)."""

    @abstractmethod
    def team_names(self) -> list[str]: ...

    @abstractmethod
    def replay(self, state: Any, text: str, stored: bool = True) -> Any:
        """The state after a record text (`move` of a `GameMove`). `stored`: read back from this server's
        database, where a move its rules allowed when it was played stays playable; False for a record from
        outside (an upload), held to today's rules."""

    @abstractmethod
    def parse(self, state: Any, text: str) -> Any:
        """A move a player sent; ValueError with a clear message when it is not one."""

    @abstractmethod
    def format(self, state: Any, move: Any) -> str: ...

    @abstractmethod
    def turn(self, state: Any) -> tuple[int, int] | None:
        """(team, seat) on move, None once the game is over."""

    @abstractmethod
    def steps(self, before: Any, after: Any) -> list[Step]:
        """The events that lead from `before` to `after` (a state reached from it by playing)."""

    @abstractmethod
    def position(self, state: Any, event: bool = False) -> dict[str, Any]:
        """What a client draws, as JSON (`event`: for a stored move event, maybe without the legal moves)."""

    def started_event(
        self,
        state: Any,
        now: datetime,
        to_move: dict[str, Any] | None = None,
        deadline: datetime | None = None,
        clocks: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The `started` event's payload: a live game's (who is on move, the first deadline and clocks) and an
        uploaded record's (nobody on move, no clocks) alike."""
        return {
            "kind": self.key,
            "team_names": self.team_names(),
            "position": self.position(state),
            "to_move": to_move or {},
            "deadline": None if deadline is None else deadline.isoformat(),
            "turn_started_at": now.isoformat(),
            "clocks": clocks or {},
        }

    @abstractmethod
    async def result(self, state: Any, judge: Judge) -> dict[str, Any] | None:
        """The result of a finished game as JSON (Go's dead stones by `judge`, the caller's judging)."""

    @abstractmethod
    def rules(self) -> dict[str, Any]:
        """The effective rules for the snapshot."""

    @abstractmethod
    def sgf(
        self,
        state: Any,
        info: dict[str, str],
        players: Mapping[int, Sequence[str]],
        clocks: Mapping[int, tuple[int, TeamClock]] | None = None,
    ) -> bytes:
        """The record; `players` maps team -> its players' names in seat order, `clocks` maps a move's ply
        to its team and that team's clock after the move (the time left the record notes)."""

    def _record_times(
        self, info: dict[str, str], clocks: Mapping[int, tuple[int, TeamClock]] | None
    ) -> dict[int, TimeLeft]:
        """TM and OT into `info`, and each clocked move's time left by ply (colour = team - 1)."""
        system = TimeSystem.of(self.options.time_control())
        if system is None:
            return {}  # a per-move limit only: SGF has nothing for it
        info.update(system.properties())
        return {ply: system.time_left(team - 1, clock) for ply, (team, clock) in (clocks or {}).items()}

    def level(self, level: int | str) -> int | str:
        """A computer level this kind can be played at (BadInput otherwise)."""
        return level


def table_of(kind_key: str, data: Mapping[str, Any]) -> Table:
    """The table of a stored game (`Game.kind`, `Game.options`)."""
    return table_for(load_options(kind_key, data))


def table_for(options: GoOptions | KindOptions) -> Table:
    return GoTable(options) if isinstance(options, GoOptions) else KindTable(options)


# ----------------------------------------------------------------------------- Go


def _as_number(level: int | str) -> int | str:
    """A level written as ASCII digits ("7") is the number (`str.isdigit` also takes "²" and "٣")."""
    if isinstance(level, str) and re.fullmatch(r"[0-9]{1,9}", level.strip()):
        return int(level.strip())
    return level


def legal_under_old_situational_rule(state: GoState, move: Move, refusal: IllegalMove) -> bool:
    """Whether a stored move that today's rule refuses was legal when it was stored: situational superko
    counts the situation a pass creates only since issue 20 (SPEC G3). So the move passes only when the
    situation it repeats was made by passes alone; every other refusal (simple ko, positional superko, a
    situation some play had made) was a refusal then too."""
    if refusal.reason is not IllegalReason.SUPERKO or state.rules.ko is not KoRule.SITUATIONAL:
        return False
    mover = state.to_move
    repeated = state.play(move, check_ko=False).hash
    for earlier in state.lineage():
        if earlier.parent is None:  # the start, counted as made by the colour before the first mover
            made_by = (earlier.to_move - 1) % earlier.colours
        elif isinstance(earlier.last_move, Place):
            made_by = earlier.last_colour
        else:
            continue  # a pass (the one thing the old rule did not count), a resignation, a timeout
        if earlier.hash == repeated and made_by == mover:
            return False
    return True


class GoTable(Table):
    key = "go"
    title = "Go"
    draws = True
    scored = True

    def __init__(self, options: GoOptions) -> None:
        self.options = options
        self.go = options

    def new_state(self) -> GoState:
        return self.go.new_state()

    def team_names(self) -> list[str]:
        return [GO_TEAM_NAMES[t] if t < len(GO_TEAM_NAMES) else f"Team {t + 1}" for t in range(self.go.teams)]

    def level(self, level: int | str) -> int | str:
        """Miai's levels 1..10, or an external engine the operator configured, by name or level number.

        Anything else is refused here, before a game exists: an unknown engine would leave the game hanging.
        """
        from miai.engines.levels import external_engines

        level = _as_number(level)
        if isinstance(level, int) and level in LEVELS:
            return level
        try:
            engines = external_engines()
        except ValueError as err:  # MIAI_EXTERNAL_ENGINES is malformed: offer Miai's own levels only
            log.warning("external engines unavailable: %s", err)
            engines = []
        if any(level in (engine.name, engine.level) for engine in engines):
            return level
        names = [engine.name for engine in engines]
        offered = "1..10" + "".join(f", {name}" for name in names)
        raise BadInput(f"no computer level {level!r}: choose {offered}", available=[*LEVELS, *names])

    def replay(self, state: GoState, text: str, stored: bool = True) -> GoState:
        if text == AUTO_PASS:
            return state  # play() regenerates automatic passes itself
        if text == AGREED_DRAW:
            return state.agreed_draw()
        move = TIMEOUT if text == "timeout" else parse_move(text, state.size)
        try:
            return state.play(move)
        except IllegalMove as err:
            if not stored or not legal_under_old_situational_rule(state, move, err):
                raise
            log.warning("replaying %s, which the current ko rule refuses: %s", text, err)
            return state.play(move, check_ko=False)

    def parse(self, state: GoState, text: str) -> Any:
        return parse_move(text, state.size)

    def format(self, state: GoState, move: Any) -> str:
        return format_move(move, state.size)

    def turn(self, state: GoState) -> tuple[int, int] | None:
        return None if state.is_over else (state.to_move + 1, state.to_move_seat)

    def steps(self, before: GoState, after: GoState) -> list[Step]:
        new_states = []
        for s in after.lineage():
            if s is before:
                break
            new_states.append(s)
        out = []
        for s in reversed(new_states):
            if s.last_move is None:  # an agreed draw ends the game without a move (team 0 in storage)
                out.append(Step(s, 0, 0, AGREED_DRAW, clocked=False))
                continue
            team, seat = s.last_colour + 1, s.last_seat
            if isinstance(s.last_move, Resign | Timeout):
                text = "timeout" if isinstance(s.last_move, Timeout) else "resign"
                out.append(Step(s, team, seat, text, left=text, clocked=False))
            else:
                text = move_text(s, s.last_move, s.auto_pass)
                out.append(Step(s, team, seat, text, clocked=not s.auto_pass))
        return out

    def position(self, state: GoState, event: bool = False) -> dict[str, Any]:
        return position_view(state)

    async def result(self, state: GoState, judge: Judge) -> dict[str, Any] | None:
        verdict = await judge(state)
        return final_result(state, verdict.dead, verdict.neutral, verdict.judged, verdict.seki)

    def rules(self) -> dict[str, Any]:
        options = self.go
        rules = options.rules()
        return {
            "preset": options.preset_key,
            "ko": rules.ko.value,
            "scoring": rules.scoring.value,
            "suicide": rules.suicide.value,
            "dead_stones": rules.dead_stones.value,
            "komi": [rules.komi_of(c) for c in range(options.teams)],
            "capture_points": rules.capture_points,
            "remove_inactive_stones": rules.remove_inactive_stones,
            "move_limit_rounds": rules.move_limit_rounds,
            "handicap": options.handicap,
        }

    def sgf(
        self,
        state: GoState,
        info: dict[str, str],
        players: Mapping[int, Sequence[str]],
        clocks: Mapping[int, tuple[int, TeamClock]] | None = None,
    ) -> bytes:
        from miai.formats.sgf.go import dump_go

        times = self._record_times(info, clocks)
        colours = {team - 1: names for team, names in players.items()}
        return dump_go(state, info=info, rules_key=self.go.preset_key, times=times, players=colours)


# ----------------------------------------------------------------------------- every other kind


class KindTable(Table):
    """Any registered kind with a `Board` view, through the `RecordedState` interface of its states."""

    def __init__(self, options: KindOptions) -> None:
        self.options = self.own = options
        self.kind: GameKind = options.game_kind
        self.key = self.kind.key
        self.title = self.kind.title

    def new_state(self) -> RecordedState[Any]:
        state: RecordedState[Any] = self.own.new_state()
        return state

    def team_names(self) -> list[str]:
        return list(self.kind.player_names)

    def replay(self, state: RecordedState[Any], text: str, stored: bool = True) -> RecordedState[Any]:
        move = TIMEOUT if text == "timeout" else self.kind.parse_move(state, text)
        after: RecordedState[Any] = state.play(move)  # type: ignore[assignment]
        return after

    def parse(self, state: RecordedState[Any], text: str) -> Any:
        return self.kind.parse_move(state, text)

    def format(self, state: RecordedState[Any], move: Any) -> str:
        return self.kind.format_move(state, move)

    def _moves_by(self, state: RecordedState[Any], player: int) -> int:
        """How many moves `player` has made (only needed to rotate seats inside a team)."""
        if self.options.players_per_team == 1:
            return 0
        return sum(1 for p, _ in state.moves() if p == player)

    def turn(self, state: RecordedState[Any]) -> tuple[int, int] | None:
        if state.is_over:
            return None
        player = state.to_move
        return player + 1, self._moves_by(state, player) % self.options.players_per_team

    def steps(self, before: RecordedState[Any], after: RecordedState[Any]) -> list[Step]:
        chain = []
        state: RecordedState[Any] | None = after
        while state is not None and state is not before:
            chain.append(state)
            state = state.parent
        if state is None:
            raise ValueError("the new state does not follow from the stored one")
        per_team = self.options.players_per_team
        made = [self._moves_by(before, p) for p in range(before.players)]
        out = []
        for s in reversed(chain):
            player, move, parent = s.last_player, s.last_move, s.parent
            assert parent is not None
            seat = made[player] % per_team
            made[player] += 1
            if isinstance(move, Resign | Timeout):
                text = "timeout" if isinstance(move, Timeout) else "resign"
                out.append(Step(s, player + 1, seat, text, left=text, clocked=False))
            else:
                out.append(Step(s, player + 1, seat, self.kind.format_move(parent, move)))
        return out

    def position(self, state: RecordedState[Any], event: bool = False) -> dict[str, Any]:
        assert self.kind.board is not None
        board: Board = self.kind.board(state)
        turn = self.turn(state)
        last = None
        move, parent = state.last_move, state.parent
        if move is not None and parent is not None:
            player = state.last_player
            text = (
                type(move).__name__.lower()
                if isinstance(move, Resign | Timeout)
                else self.kind.format_move(parent, move)
            )
            last = {
                "team": player + 1,
                "seat": (self._moves_by(state, player) - 1) % self.options.players_per_team,
                "move": text,
                "points": list(board.changed),
                "removed": list(board.removed),
            }
        view: dict[str, Any] = {
            "kind": self.key,
            "size": board.size,
            "cells": list(board.cells),
            "to_move": None if turn is None else {"team": turn[0], "seat": turn[1]},
            "last": last,
            "plies": state.plies,
            "over": state.is_over,
        }
        if not event or self.kind.legal_in_events:
            view["legal"] = [self.kind.format_move(state, m) for m in state.legal_moves()]
        return view

    async def result(self, state: RecordedState[Any], judge: Judge) -> dict[str, Any] | None:
        if not state.is_over or state.reason is None:
            return None
        winner = state.winner
        teams = list(range(1, state.players + 1))
        ranking = [teams] if winner is None else [[winner + 1], [t for t in teams if t != winner + 1]]
        draw = winner is None
        left = []
        if isinstance(state.last_move, Resign | Timeout):  # the only way to leave ends the game
            player = state.last_player
            left.append(
                {
                    "team": player + 1,
                    "seat": (self._moves_by(state, player) - 1) % self.options.players_per_team,
                    "how": "timeout" if isinstance(state.last_move, Timeout) else "resign",
                    "ply": state.plies,
                    "team_out": True,
                }
            )
        return {
            "reason": str(state.reason),
            "winners": ranking[0],
            "ranking": ranking,
            "draw": draw,
            "left": left,
        }

    def rules(self) -> dict[str, Any]:
        return dict(self.own.game)

    def sgf(
        self,
        state: RecordedState[Any],
        info: dict[str, str],
        players: Mapping[int, Sequence[str]],
        clocks: Mapping[int, tuple[int, TeamClock]] | None = None,
    ) -> bytes:
        from miai.formats.sgf.games import PLAYER_LETTERS, dump_game

        letters = PLAYER_LETTERS.get(self.key, ())
        for team, names in players.items():
            if 1 <= team <= len(letters):
                info[f"P{letters[team - 1]}"] = ", ".join(names)
        times = self._record_times(info, clocks)
        return dump_game(self.key, state, info, times)  # type: ignore[arg-type]

    def level(self, level: int | str) -> int | str:
        level = _as_number(level)
        if isinstance(level, int) and level in LEVELS:
            return level
        raise BadInput(f"{self.title} is played by Miai's own levels 1..10 (external engines play Go only)")
