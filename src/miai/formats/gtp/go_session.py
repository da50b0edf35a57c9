"""The mutable game behind the Go GTP engine: board size, rules preset, komi, clock and the current state.

GTP changes things a GoState keeps fixed (komi, rules, the board size) at any moment, so this holder
rebuilds the state when they change, replaying the moves so far under the new rules; `undo` walks back
through the state's parents.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from miai.core.errors import IllegalMove, InvalidRules
from miai.core.go import PASS, GoState, Pass, Place, Rules, new_game
from miai.core.go.handicap import fixed_handicap, max_fixed_handicap
from miai.core.go.presets import PRESETS, preset
from miai.core.go.rules import MAX_SIZE, SMALLEST_BOARD, HandicapLayout
from miai.formats.gtp.go_clock import GtpClock
from miai.formats.gtp.protocol import GtpError

__all__ = [
    "ALL_SIZES",
    "GoSession",
    "free_handicap_points",
    "gtp_order",
    "gtp_rules",
    "live_view",
    "rebase",
]

ALL_SIZES = tuple(range(SMALLEST_BOARD, MAX_SIZE + 1))  # GTP controllers may ask for any of these
DEFAULT_SIZE = 19
BLACK, WHITE = 0, 1


def gtp_rules(preset_key: str, size: int, komi: float | None = None) -> Rules:
    """The preset's rules for `size`, opened up for GTP.

    Every size 2..25 is allowed (a controller may ask for a size the preset does not offer: the preset's
    size-independent options are used then), fixed handicap follows the GTP layout, and there is no
    move limit (ending a game is the controller's business).
    """
    key = preset_key.lower()
    if key not in PRESETS:
        raise InvalidRules(f"unknown rules preset {preset_key!r}; known: {', '.join(PRESETS)}")
    try:
        rules = preset(key, size, komi=komi)
    except InvalidRules:
        base = replace(PRESETS[key].base, max_colours=2, allowed_sizes=ALL_SIZES)
        rules = base if komi is None else base.with_komi(komi)
    return replace(rules, allowed_sizes=ALL_SIZES, move_limit_rounds=None, handicap_layout=HandicapLayout.GTP)


def live_view(state: GoState) -> GoState:
    """`state`, or a copy not marked as ended: GTP keeps answering legality questions after two passes."""
    if state.ended is None:
        return state
    view = copy.copy(state)
    view.ended = None
    return view


def rebase(state: GoState, rules: Rules) -> GoState:
    """The same game under other rules: same start position, the same moves replayed.

    Ko is not re-checked: every move was accepted once, and a switch between ko rules must not make
    the present position unreachable. Occupied points and suicide cannot differ between the rules a
    GTP session switches between, except for allowed suicide, which then raises IllegalMove.
    """
    chain = list(state.lineage())
    chain.reverse()
    root = chain[0]
    position = root.position()
    black = [p for p, c in position.items() if c == BLACK]
    # Which black stones were the handicap does not matter, only how many (for the handicap bonus).
    handicap = black[: root.handicap] if 2 <= root.handicap <= len(black) else None
    rebuilt = new_game(root.size, rules, handicap_points=handicap, setup=position, to_move=root.to_move)
    for later in chain[1:]:
        move = later.last_move
        if isinstance(move, Place | Pass):
            rebuilt = rebuilt.play_as(later.last_colour, move, check_ko=False)
    return rebuilt


def gtp_order(points: list[int] | set[int] | frozenset[int], size: int) -> list[int]:
    """Points in the order GNU Go lists them: rows from the top, then columns from the left."""
    return sorted(points, key=lambda p: (-(p // size), p % size))


def free_handicap_points(size: int, stones: int) -> list[int]:
    """Where Miai puts `stones` free handicap stones: the fixed GTP layout first, then lattice points.

    The extra points lie on the squares of one colour of a checkerboard (the colour of the star points
    on odd sizes), from the centre outwards. No two of them touch, so every stone keeps its liberties; when
    both lattices are full fewer stones are placed (GTP allows that).
    """
    if not 2 <= stones <= size * size - 1:
        raise GtpError("invalid number of stones")
    chosen: list[int] = []
    limit = max_fixed_handicap(size, HandicapLayout.GTP)
    if limit >= 2:
        count = min(stones, limit)
        chosen = [row * size + col for col, row in fixed_handicap(size, count, HandicapLayout.GTP)]
    if len(chosen) < stones:
        star = 2 if size < 13 else 3
        parity = star % 2

        def rank(p: int) -> tuple[int, int, int]:
            row, col = divmod(p, size)
            lattice = 0 if row % 2 == parity else 1
            edge = min(row, col, size - 1 - row, size - 1 - col)
            return (-edge, lattice, p)

        taken = set(chosen)
        lattice = [p for p in range(size * size) if (p // size) % 2 == (p % size) % 2 and p not in taken]
        chosen.extend(sorted(lattice, key=rank)[: stones - len(chosen)])
    return chosen


class GoSession:
    """One GTP game: everything the Go engine's commands read and change."""

    def __init__(self, preset_key: str = "chinese") -> None:
        self.preset_key = preset_key.lower()
        self.size = DEFAULT_SIZE
        self.komi = gtp_rules(self.preset_key, DEFAULT_SIZE).komi_of(WHITE)
        self.clock = GtpClock()
        self.state = new_game(self.size, self.rules)

    @property
    def rules(self) -> Rules:
        return gtp_rules(self.preset_key, self.size, self.komi)

    def live(self) -> GoState:
        return live_view(self.state)

    # ------------------------------------------------------------ board and rules

    def set_size(self, size: int) -> None:
        if size not in ALL_SIZES:
            raise GtpError("unacceptable size")
        self.size = size
        self.clear()

    def clear(self) -> None:
        self.state = new_game(self.size, self.rules)

    def set_komi(self, komi: float) -> None:
        self.komi = komi
        self.state = rebase(self.state, self.rules)

    def set_preset(self, preset_key: str) -> None:
        previous = self.preset_key
        self.preset_key = preset_key.lower()
        try:
            self.state = rebase(self.state, self.rules)
        except (IllegalMove, InvalidRules) as err:
            self.preset_key = previous
            raise GtpError(f"cannot switch to {preset_key} rules in this position: {err}") from None

    def adopt(self, state: GoState, komi: float) -> None:
        """Take over a state built elsewhere (loadsgf), with its board size and the given komi."""
        self.size = state.size
        self.komi = komi
        rules = self.rules
        self.state = state if state.rules == rules else rebase(state, rules)

    # ------------------------------------------------------------ moves

    def play(self, colour: int, move: Place | Pass) -> None:
        try:
            self.state = self.state.play_as(colour, move)
        except IllegalMove:
            raise GtpError("illegal move") from None

    def undo(self) -> None:
        parent = self.state.parent
        if parent is None:
            raise GtpError("cannot undo")
        self.state = parent

    def is_legal(self, colour: int, move: Place | Pass) -> bool:
        return isinstance(move, Pass) or self.live().is_legal(move, colour)

    # ------------------------------------------------------------ handicap

    def _require_empty_board(self) -> None:
        if self.state.stones():
            raise GtpError("board not empty")

    def fixed_handicap(self, stones: int) -> list[int]:
        self._require_empty_board()
        if stones < 2:
            raise GtpError("invalid handicap")
        try:
            self.state = new_game(self.size, self.rules, handicap=stones)
        except InvalidRules:
            raise GtpError("invalid handicap") from None
        return self.state.stones(BLACK)

    def place_free_handicap(self, stones: int) -> list[int]:
        self._require_empty_board()
        points = free_handicap_points(self.size, stones)
        try:
            self.state = new_game(self.size, self.rules, handicap_points=points)
        except InvalidRules:
            raise GtpError("invalid handicap") from None
        return points

    def set_free_handicap(self, points: list[int]) -> None:
        self._require_empty_board()
        if len(set(points)) != len(points):
            raise GtpError("repeated vertex")
        if len(points) < 2:
            raise GtpError("invalid handicap")
        try:
            self.state = new_game(self.size, self.rules, handicap_points=points)
        except InvalidRules:
            raise GtpError("invalid handicap") from None

    def pass_move(self, colour: int) -> None:
        self.state = self.state.play_as(colour, PASS)
