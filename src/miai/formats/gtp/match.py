"""Complete games between two GTP engines, refereed by the Miai core.

The referee asks the side to move for `genmove`, checks the answer against the rules, and sends it to the
other engine with `play`. A game ends on two passes in a row, a resignation, the move limit, or a fault:
an illegal move, an answer that is not GTP, a refused command, a dead or silent engine. A fault ends the
game as a loss for the engine that made it and never stops the match; a dead engine is restarted for the
next game. At the end both engines are asked for `final_score`. The referee's own count is area scoring
with every stone alive (no engine's opinion on dead stones), under the ko and suicide rules of the chosen
preset; it decides games that end by passes or the move limit.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from miai.core.errors import IllegalMove
from miai.core.go import PASS, GoState, Pass, Place, new_game
from miai.core.go.rules import DeadStones, Rules, Scoring
from miai.core.go.scoring import ownership
from miai.formats.gtp.channels import GtpChannelError, SubprocessChannel
from miai.formats.gtp.go_session import gtp_rules
from miai.formats.gtp.protocol import COLUMNS, GtpError, format_command, parse_vertex
from miai.formats.sgf.go import dump_go

__all__ = [
    "EngineFault",
    "GameReport",
    "MatchReport",
    "MatchSettings",
    "engine_argv",
    "play_match",
    "referee_rules",
]

COLOUR_WORDS = ("b", "w")
COLOUR_NAMES = ("Black", "White")


@dataclass(frozen=True)
class MatchSettings:
    black: str  # command line of the engine that plays Black in game 1 ("engine A")
    white: str  # command line of engine B
    size: int = 19
    games: int = 1
    komi: float = 7.5
    rules: str = "chinese"
    alternate: bool = False  # swap colours every game
    sgf_dir: Path | None = None
    max_moves: int | None = None  # None: 3 * size * size, enough for any game that is not a loop
    timeout: float | None = 60.0  # seconds per command

    @property
    def move_limit(self) -> int:
        return self.max_moves if self.max_moves is not None else 3 * self.size * self.size


def engine_argv(command: str) -> list[str]:
    """Split an engine command like a shell; `{python}` stands for this Python interpreter."""
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the engine command is empty")
    return [word.replace("{python}", sys.executable) for word in argv]


def referee_rules(preset_key: str, size: int, komi: float) -> Rules:
    """The preset's ko and suicide rules; area scoring with every stone alive."""
    rules = gtp_rules(preset_key, size, komi)
    return replace(rules, scoring=Scoring.AREA, dead_stones=DeadStones.ALL_ALIVE)


class EngineFault(Exception):
    """An engine broke the rules or the protocol; `engine` is its index (0 = A, 1 = B)."""

    def __init__(self, engine: int, message: str) -> None:
        super().__init__(message)
        self.engine = engine


@dataclass
class GameReport:
    number: int
    black: int  # engine index (0 = A, 1 = B) playing Black
    moves: int = 0
    reason: str = ""  # "passes", "resignation", "move limit", "fault"
    winner: int | None = None  # colour, None for a draw
    margin: float | None = None  # the referee's area count, Black minus White with komi
    fault: str | None = None
    engine_scores: tuple[str, str] = ("", "")  # final_score of engine A and engine B
    sgf: Path | None = None

    @property
    def result(self) -> str:
        """As in SGF RE: B+R, W+12.5, B+F (forfeit), 0 (draw)."""
        if self.winner is None:
            return "0"
        side = "BW"[self.winner]
        if self.reason == "resignation":
            return f"{side}+R"
        if self.reason == "fault":
            return f"{side}+F"
        assert self.margin is not None
        return f"{side}+{abs(self.margin):g}"

    @property
    def winning_engine(self) -> int | None:
        if self.winner is None:
            return None
        return self.black if self.winner == 0 else 1 - self.black


@dataclass
class MatchReport:
    settings: MatchSettings
    names: tuple[str, str] = ("A", "B")
    games: list[GameReport] = field(default_factory=list)

    def wins(self, engine: int) -> int:
        return sum(1 for game in self.games if game.winning_engine == engine)

    @property
    def faults(self) -> int:
        return sum(1 for game in self.games if game.fault is not None)

    def summary(self) -> str:
        a, b = self.names
        lines = [
            f"{len(self.games)} games on {self.settings.size}x{self.settings.size}, komi "
            f"{self.settings.komi:g}, {self.settings.rules} rules (referee: area count, every stone alive)",
            f"A = {a}: {self.wins(0)} wins",
            f"B = {b}: {self.wins(1)} wins",
            f"draws: {sum(1 for g in self.games if g.winner is None)}, faults: {self.faults}",
        ]
        for game in self.games:
            black, white = ("A", "B") if game.black == 0 else ("B", "A")
            line = (
                f"game {game.number}: Black {black}, White {white}: {game.result} ({game.reason}, "
                f"{game.moves} moves); final_score A: {game.engine_scores[0] or '-'}, "
                f"B: {game.engine_scores[1] or '-'}"
            )
            if game.fault:
                line += f"; fault: {game.fault}"
            if game.sgf:
                line += f"; {game.sgf}"
            lines.append(line)
        return "\n".join(lines)


Log = Callable[[str], None]


class _Engine:
    """One engine process, restarted when it dies."""

    def __init__(self, index: int, command: str, timeout: float | None) -> None:
        self.index = index
        self.argv = engine_argv(command)
        self.timeout = timeout
        self.channel: SubprocessChannel | None = None
        self.name = command

    def start(self) -> None:
        if self.channel is None:
            try:
                self.channel = SubprocessChannel(self.argv, timeout=self.timeout)
            except GtpChannelError as err:
                raise EngineFault(self.index, str(err)) from None
            self.name = self._describe()

    def _describe(self) -> str:
        try:
            parts = [self.ask("name"), self.ask("version")]
        except EngineFault:
            return " ".join(self.argv)
        return " ".join(part for part in parts if part)

    def ask(self, name: str, *args: str) -> str:
        """Send one command; any failure becomes an EngineFault of this engine."""
        line = format_command(name, *args)
        if self.channel is None:
            raise EngineFault(self.index, f"engine {self.index} is not running")
        try:
            ok, text = self.channel.send(line)
        except GtpChannelError as err:
            self.close()
            raise EngineFault(self.index, str(err)) from None
        if not ok:
            raise EngineFault(self.index, f"refused {line!r}: {text}")
        return text.strip()

    def close(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None


def _vertex(point: int, size: int) -> str:
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{row + 1}"


def _area_margin(state: GoState) -> float:
    counts = [0, 0]
    for owner in ownership(state):
        if owner is not None:
            counts[owner] += 1
    rules = state.rules
    return counts[0] + rules.komi_of(0) - counts[1] - rules.komi_of(1)


class _Game:
    def __init__(self, report: GameReport, settings: MatchSettings, engines: list[_Engine], log: Log) -> None:
        self.report = report
        self.settings = settings
        self.engines = engines
        self.log = log
        self.state = new_game(settings.size, referee_rules(settings.rules, settings.size, settings.komi))

    def engine_of(self, colour: int) -> _Engine:
        black = self.report.black
        return self.engines[black if colour == 0 else 1 - black]

    def run(self) -> None:
        report = self.report
        try:
            for engine in self.engines:
                engine.start()
                engine.ask("boardsize", str(self.settings.size))
                engine.ask("clear_board")
                engine.ask("komi", repr(float(self.settings.komi)))
            self._moves()
        except EngineFault as fault:
            report.reason = "fault"
            report.fault = f"engine {'AB'[fault.engine]}: {fault}"
            black_faulted = fault.engine == report.black
            report.winner = 1 if black_faulted else 0
        report.moves = self.state.plies
        if report.reason in ("passes", "move limit"):
            report.margin = _area_margin(self.state)
            report.winner = None if report.margin == 0 else (0 if report.margin > 0 else 1)
        report.engine_scores = (self._final_score(0), self._final_score(1))

    def _moves(self) -> None:
        size = self.settings.size
        colour = 0
        passes = 0
        while True:
            if self.state.plies >= self.settings.move_limit:
                self.report.reason = "move limit"
                return
            mover = self.engine_of(colour)
            answer = mover.ask("genmove", COLOUR_WORDS[colour])
            if answer.lower() == "resign":
                self.report.reason = "resignation"
                self.report.winner = 1 - colour
                return
            try:
                vertex = parse_vertex(answer, size)
            except GtpError as err:
                raise EngineFault(mover.index, f"genmove answered {answer!r}: {err}") from None
            move: Place | Pass = PASS if vertex is None else Place(vertex[1] * size + vertex[0])
            try:
                self.state = self.state.play_as(colour, move)
            except IllegalMove as err:
                what = f"illegal move {COLOUR_NAMES[colour]} {answer}: {err}"
                raise EngineFault(mover.index, what) from None
            text = "pass" if isinstance(move, Pass) else _vertex(move.point, size)
            self.engine_of(1 - colour).ask("play", COLOUR_WORDS[colour], text)
            passes = passes + 1 if isinstance(move, Pass) else 0
            if self.state.plies % 50 == 0:
                self.log(f"game {self.report.number}: move {self.state.plies}")
            if passes >= 2:
                self.report.reason = "passes"
                return
            colour = 1 - colour

    def _final_score(self, index: int) -> str:
        engine = self.engines[index]
        if engine.channel is None:
            return ""
        try:
            return engine.ask("final_score")
        except EngineFault as fault:
            return f"? {fault}"


def _write_sgf(report: GameReport, state: GoState, settings: MatchSettings, names: tuple[str, str]) -> Path:
    assert settings.sgf_dir is not None
    settings.sgf_dir.mkdir(parents=True, exist_ok=True)
    black = names[report.black]
    white = names[1 - report.black]
    info = {"PB": black, "PW": white, "RE": report.result, "GN": f"Miai match game {report.number}"}
    if report.fault:
        info["C"] = f"Game ended by a fault: {report.fault}"
    path = settings.sgf_dir / f"game-{report.number:03d}.sgf"
    path.write_bytes(dump_go(state, info, settings.rules))
    return path


def play_match(settings: MatchSettings, log: Log | None = None) -> tuple[MatchReport, list[GoState]]:
    """Play every game; returns the report and the referee's final state of each game."""
    say = log or (lambda message: None)
    engines = [_Engine(0, settings.black, settings.timeout), _Engine(1, settings.white, settings.timeout)]
    report = MatchReport(settings)
    finals: list[GoState] = []
    try:
        for number in range(1, settings.games + 1):
            black = 1 if settings.alternate and number % 2 == 0 else 0
            game_report = GameReport(number, black)
            black_name, white_name = "AB"[black], "BA"[black]
            say(f"game {number}/{settings.games}: Black = engine {black_name}, White = engine {white_name}")
            game = _Game(game_report, settings, engines, say)
            game.run()
            report.names = (engines[0].name, engines[1].name)
            if settings.sgf_dir is not None:
                game_report.sgf = _write_sgf(game_report, game.state, settings, report.names)
            say(f"game {number}: {game_report.result} ({game_report.reason}, {game_report.moves} moves)"
                + (f"; fault: {game_report.fault}" if game_report.fault else ""))
            report.games.append(game_report)
            finals.append(game.state)
    finally:
        for engine in engines:
            engine.close()
    return report, finals
