"""Miai's GTP engine for two-colour Go: the GNU Go command set on top of the Miai rules core.

`build_go_engine(preset, move_generator, estimator)` registers, with the meanings GNU Go gives them:
protocol_version name version known_command list_commands quit boardsize clear_board komi play genmove
reg_genmove kgs-genmove_cleanup undo showboard final_score final_status_list loadsgf printsgf
fixed_handicap place_free_handicap set_free_handicap is_legal all_legal captures list_stones
time_settings kgs-time_settings time_left kgs-rules gogui-analyze_commands.

Notes on meanings:
* `play` accepts the colours in any order (GTP allows it); occupied points, suicide and ko or superko
  violations (per the preset's ko rule) answer `? illegal move`.
* `boardsize` takes 2..25 and clears the board; `komi` is White's komi and may change at any time.
* `genmove` asks the move generator (without one, the engine always passes) and plays its move;
  `reg_genmove` only asks; `kgs-genmove_cleanup` is `genmove` (Miai's players have no special clean-up
  phase). A resignation is answered as `resign` and leaves the board as it is.
* `final_score` and `final_status_list` use the dead-stone estimator given to `build_go_engine`. Without
  one, every stone on the board counts as alive and nothing is in seki; the answers do not say so.
* `kgs-rules japanese|chinese|aga|new_zealand` switches to the Miai preset of that name (new_zealand = nz).
* The engine enforces no move limit and never ends the game itself: after two passes it keeps answering
  legality questions and accepts further moves, as GNU Go does.
"""

from __future__ import annotations

from collections.abc import Callable

from miai.core.go import PASS, Move, Pass, Place, Resign, Timeout
from miai.formats.gtp.go_clock import ClockKind, TimeSettings
from miai.formats.gtp.go_final import STATUSES, final_score_text, status_chains
from miai.formats.gtp.go_players import DeadStoneEstimator, Judgement, MoveGenerator, always_pass
from miai.formats.gtp.go_session import BLACK, WHITE, GoSession, gtp_order
from miai.formats.gtp.go_sgf_commands import register_sgf_commands
from miai.formats.gtp.protocol import (
    COLUMNS,
    GtpError,
    parse_colour,
    parse_float,
    parse_int,
    parse_vertex,
)
from miai.formats.gtp.registry import GtpEngine

__all__ = ["KGS_RULES", "build_go_engine", "format_point", "parse_gtp_colour", "parse_gtp_move"]

# KGS's names for rulesets -> Miai preset keys.
KGS_RULES = {"japanese": "japanese", "chinese": "chinese", "aga": "aga", "new_zealand": "nz"}

_SYMBOL = {None: ".", BLACK: "X", WHITE: "O"}

ANALYZE_COMMANDS = (
    "text/Show Board/showboard",
    "string/Final Score/final_score",
    "plist/Final Status Dead/final_status_list dead",
    "plist/Final Status Seki/final_status_list seki",
    "plist/All Legal/all_legal %c",
    "string/Captures Black/captures black",
    "string/Captures White/captures white",
)


def parse_gtp_colour(text: str) -> int:
    return BLACK if parse_colour(text) == "b" else WHITE


def parse_gtp_move(text: str, size: int) -> Place | Pass:
    vertex = parse_vertex(text, size)
    if vertex is None:
        return PASS
    col, row = vertex
    return Place(row * size + col)


def format_point(point: int, size: int) -> str:
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{row + 1}"


def _vertex_list(points: list[int] | set[int] | frozenset[int], size: int) -> str:
    return " ".join(format_point(p, size) for p in gtp_order(points, size))


class _GoCommands:
    """The handlers, closing over one session."""

    def __init__(
        self, session: GoSession, move_generator: MoveGenerator, estimator: DeadStoneEstimator | None
    ) -> None:
        self.session = session
        self.move_generator = move_generator
        self.estimator = estimator

    # ------------------------------------------------------------ setup

    def boardsize(self, args: list[str]) -> str:
        try:
            size = parse_int(args[0], "boardsize")
        except GtpError:
            raise GtpError("boardsize not an integer") from None
        self.session.set_size(size)
        return ""

    def clear_board(self, args: list[str]) -> str:
        self.session.clear()
        return ""

    def komi(self, args: list[str]) -> str:
        try:
            value = parse_float(args[0], "komi")
        except GtpError:
            raise GtpError("komi not a float") from None
        self.session.set_komi(value)
        return ""

    def kgs_rules(self, args: list[str]) -> str:
        name = args[0].lower()
        key = KGS_RULES.get(name)
        if key is None:
            raise GtpError(f"unknown rules {args[0]!r} (known: {', '.join(KGS_RULES)})")
        self.session.set_preset(key)
        return ""

    # ------------------------------------------------------------ moves

    def _colour_and_move(self, args: list[str]) -> tuple[int, Place | Pass]:
        try:
            return parse_gtp_colour(args[0]), parse_gtp_move(args[1], self.session.size)
        except GtpError as err:
            raise GtpError(f"invalid color or coordinate: {err}") from None

    def play(self, args: list[str]) -> str:
        colour, move = self._colour_and_move(args)
        self.session.play(colour, move)
        return ""

    def undo(self, args: list[str]) -> str:
        self.session.undo()
        return ""

    def _generate(self, colour: int) -> Move:
        session = self.session
        state = session.live()
        seconds = session.clock.budget(colour, session.size * session.size - len(state.stones()))
        move = self.move_generator(state, colour, seconds)
        if not isinstance(move, Place | Pass | Resign | Timeout):
            raise GtpError(f"the move generator answered {move!r}, which is not a move")
        if isinstance(move, Place) and not state.is_legal(move, colour):
            vertex = format_point(move.point, state.size)
            raise GtpError(f"the move generator chose the illegal move {vertex}")
        return move

    def _answer(self, move: Move) -> str:
        if isinstance(move, Place):
            return format_point(move.point, self.session.size)
        return "pass" if isinstance(move, Pass) else "resign"

    def genmove(self, args: list[str]) -> str:
        colour = parse_gtp_colour(args[0])
        move = self._generate(colour)
        if isinstance(move, Place | Pass):
            self.session.play(colour, move)
        return self._answer(move)

    def reg_genmove(self, args: list[str]) -> str:
        return self._answer(self._generate(parse_gtp_colour(args[0])))

    # ------------------------------------------------------------ handicap

    def fixed_handicap(self, args: list[str]) -> str:
        try:
            stones = parse_int(args[0], "number of stones")
        except GtpError:
            raise GtpError("handicap not an integer") from None
        return _vertex_list(self.session.fixed_handicap(stones), self.session.size)

    def place_free_handicap(self, args: list[str]) -> str:
        try:
            stones = parse_int(args[0], "number of stones")
        except GtpError:
            raise GtpError("handicap not an integer") from None
        return _vertex_list(self.session.place_free_handicap(stones), self.session.size)

    def set_free_handicap(self, args: list[str]) -> str:
        size = self.session.size
        points = []
        for text in args:
            vertex = parse_vertex(text, size)
            if vertex is None:
                raise GtpError("invalid handicap: pass is not a vertex")
            points.append(vertex[1] * size + vertex[0])
        self.session.set_free_handicap(points)
        return ""

    # ------------------------------------------------------------ questions

    def is_legal(self, args: list[str]) -> str:
        colour, move = self._colour_and_move(args)
        return "1" if self.session.is_legal(colour, move) else "0"

    def all_legal(self, args: list[str]) -> str:
        colour = parse_gtp_colour(args[0])
        return _vertex_list(self.session.live().legal_points(colour), self.session.size)

    def captures(self, args: list[str]) -> str:
        return str(self.session.state.captured_by[parse_gtp_colour(args[0])])

    def list_stones(self, args: list[str]) -> str:
        state = self.session.state
        return _vertex_list(state.stones(parse_gtp_colour(args[0])), state.size)

    def showboard(self, args: list[str]) -> str:
        state = self.session.state
        size = state.size
        letters = " ".join(COLUMNS[:size])
        width = max(2, len(str(size)))
        lines = ["", f"{' ' * width} {letters}"]
        captured = {
            2: f"     WHITE (O) has captured {state.captured_by[WHITE]} stones",
            1: f"     BLACK (X) has captured {state.captured_by[BLACK]} stones",
        }
        for row in range(size - 1, -1, -1):
            cells = " ".join(_SYMBOL[state.colour_at(row * size + col)] for col in range(size))
            label = str(row + 1).rjust(width)
            lines.append(f"{label} {cells} {row + 1}{captured.get(row + 1, '')}")
        lines.append(f"{' ' * width} {letters}")
        return "\n".join(lines)

    # ------------------------------------------------------------ scoring

    def _judge(self) -> Judgement:
        if self.estimator is None:
            return Judgement()
        return self.estimator.judge(self.session.state)

    def final_score(self, args: list[str]) -> str:
        return final_score_text(self.session.state, self._judge())

    def final_status_list(self, args: list[str]) -> str:
        status = args[0].lower()
        if status not in STATUSES:
            raise GtpError("invalid status")
        state = self.session.state
        chains = status_chains(state, self._judge(), status)
        return "\n".join(_vertex_list(chain, state.size) for chain in chains)

    # ------------------------------------------------------------ time

    def time_settings(self, args: list[str]) -> str:
        main = _seconds(args[0], "main time")
        period = _seconds(args[1], "byo-yomi time")
        stones = _count(args[2], "byo-yomi stones")
        self.session.clock.set_canadian(main, period, stones)
        return ""

    def kgs_time_settings(self, args: list[str]) -> str:
        kind = args[0].lower()
        expected = {"none": 1, "absolute": 2, "byoyomi": 4, "canadian": 4}
        if kind not in expected:
            raise GtpError(f"unknown time system {args[0]!r} (known: none, absolute, byoyomi, canadian)")
        if len(args) != expected[kind]:
            raise GtpError(f"kgs-time_settings {kind} takes {expected[kind] - 1} numbers")
        clock = self.session.clock
        if kind == "none":
            clock.configure(TimeSettings())
        elif kind == "absolute":
            clock.configure(TimeSettings(ClockKind.ABSOLUTE, _seconds(args[1], "main time")))
        else:
            main, period = _seconds(args[1], "main time"), _seconds(args[2], "period time")
            count = _count(args[3], "periods" if kind == "byoyomi" else "stones")
            clock.configure(TimeSettings(ClockKind(kind), main, period, count))
        return ""

    def time_left(self, args: list[str]) -> str:
        colour = parse_gtp_colour(args[0])
        self.session.clock.set_left(colour, _seconds(args[1], "time left"), _count(args[2], "stones"))
        return ""


def _seconds(text: str, what: str) -> float:
    value = parse_float(text, what)
    if value < 0:
        raise GtpError(f"{what} must not be negative, got {text!r}")
    return value


def _count(text: str, what: str) -> int:
    value = parse_int(text, what)
    if value < 0:
        raise GtpError(f"{what} must not be negative, got {text!r}")
    return value


def build_go_engine(
    preset: str = "chinese",
    move_generator: MoveGenerator | None = None,
    estimator: DeadStoneEstimator | None = None,
) -> GtpEngine:
    """A GTP engine for two-colour Go under the named Miai rules preset (InvalidRules if unknown)."""
    session = GoSession(preset)
    commands = _GoCommands(session, move_generator or always_pass, estimator)
    engine = GtpEngine(name="Miai")
    exact: list[tuple[str, Callable[[list[str]], str], int, str]] = [
        ("boardsize", commands.boardsize, 1, "boardsize SIZE"),
        ("clear_board", commands.clear_board, 0, "clear_board"),
        ("komi", commands.komi, 1, "komi NUMBER"),
        ("play", commands.play, 2, "play COLOUR VERTEX"),
        ("genmove", commands.genmove, 1, "genmove COLOUR"),
        ("reg_genmove", commands.reg_genmove, 1, "reg_genmove COLOUR"),
        ("kgs-genmove_cleanup", commands.genmove, 1, "kgs-genmove_cleanup COLOUR"),
        ("undo", commands.undo, 0, "undo"),
        ("showboard", commands.showboard, 0, "showboard"),
        ("final_score", commands.final_score, 0, "final_score"),
        ("final_status_list", commands.final_status_list, 1, "final_status_list alive|dead|seki"),
        ("fixed_handicap", commands.fixed_handicap, 1, "fixed_handicap NUMBER"),
        ("place_free_handicap", commands.place_free_handicap, 1, "place_free_handicap NUMBER"),
        ("is_legal", commands.is_legal, 2, "is_legal COLOUR VERTEX"),
        ("all_legal", commands.all_legal, 1, "all_legal COLOUR"),
        ("captures", commands.captures, 1, "captures COLOUR"),
        ("list_stones", commands.list_stones, 1, "list_stones COLOUR"),
        ("time_settings", commands.time_settings, 3, "time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES"),
        ("time_left", commands.time_left, 3, "time_left COLOUR TIME STONES"),
        ("kgs-rules", commands.kgs_rules, 1, "kgs-rules japanese|chinese|aga|new_zealand"),
        ("gogui-analyze_commands", lambda args: "\n".join(ANALYZE_COMMANDS), 0, "gogui-analyze_commands"),
    ]
    for name, handler, count, usage in exact:
        engine.register(name, handler, min_args=count, max_args=count, usage=usage)
    engine.register(
        "set_free_handicap", commands.set_free_handicap, min_args=1, usage="set_free_handicap VERTEX..."
    )
    engine.register(
        "kgs-time_settings",
        commands.kgs_time_settings,
        min_args=1,
        max_args=4,
        usage="kgs-time_settings none|absolute|byoyomi|canadian [MAIN [PERIOD PERIODS_OR_STONES]]",
    )
    register_sgf_commands(engine, session)
    return engine
