"""From a core `GoState` to the kernel's arrays, and back to core points and moves."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from miai.core.go import GoState, Move, Place
from miai.core.go.board import SITUATION
from miai.core.go.moves import PASS, Pass, Resign, Timeout
from miai.core.go.rules import DeadStones, KoRule, Suicide
from miai.core.go.scoring import score
from miai.engines.kernel.board import new_board, place
from miai.engines.kernel.layout import (
    COL,
    H_ACTIVE,
    H_AS_IS,
    H_CAPTURE_POINTS,
    H_CAPTURED,
    H_KO_COLOUR,
    H_KO_POINT,
    H_KO_RULE,
    H_LAST,
    H_LAST2,
    H_N_ACTIVE,
    H_PASSES,
    H_PLIES_LEFT,
    H_SUICIDE,
    H_TO_MOVE,
    KO_POSITIONAL,
    KO_SIMPLE,
    KO_SITUATIONAL,
    MAX_COLOURS,
    MAX_SIZE,
    NO_MOVE,
    Float64Array,
    Int32Array,
    UInt64Array,
    padded,
    unpadded,
    zobrist_for,
)
from miai.engines.kernel.layout import (
    PASS as KERNEL_PASS,
)

_KO_CODES = {KoRule.SIMPLE: KO_SIMPLE, KoRule.POSITIONAL: KO_POSITIONAL, KoRule.SITUATIONAL: KO_SITUATIONAL}
_MASK64 = (1 << 64) - 1


@dataclass
class KernelPosition:
    """A Go position as the kernel sees it. `b` and `hz` are private copies the caller may mutate."""

    size: int
    colours: int
    b: Int32Array
    hz: UInt64Array  # [hash, previous hash]
    history: UInt64Array  # sorted superko keys of every earlier position (empty under simple ko)
    komi: Float64Array  # per colour, handicap bonus included
    zob: UInt64Array

    @property
    def to_move(self) -> int:
        return int(self.b[H_TO_MOVE])

    def copy(self) -> KernelPosition:
        return KernelPosition(
            self.size, self.colours, self.b.copy(), self.hz.copy(), self.history, self.komi, self.zob
        )

    def stones(self) -> dict[int, int]:
        """Core point -> colour of every stone, for comparisons with `GoState.position()`."""
        out = {}
        for p in range(self.size * self.size):
            colour = int(self.b[COL + padded(p, self.size)])
            if colour >= 0:
                out[p] = colour
        return out

    def move_code(self, move: Move) -> int:
        """The kernel's code of a core placement or pass."""
        if isinstance(move, Place):
            return padded(move.point, self.size)
        if isinstance(move, Pass):
            return KERNEL_PASS
        raise ValueError(f"the kernel plays only placements and passes, not {move!r}")

    def core_move(self, code: int) -> Place | Pass:
        return PASS if code == KERNEL_PASS else Place(unpadded(code, self.size))


def history_keys(state: GoState) -> list[int]:
    """The superko keys the core holds for `state` (SPEC G3), rebuilt from its public lineage."""
    rules = state.rules
    if rules.ko is KoRule.SIMPLE:
        return []
    situational = rules.ko is KoRule.SITUATIONAL
    keys = []
    for s in state.lineage():
        if s.parent is None:
            mover = (s.to_move - 1) % s.colours
        elif (
            isinstance(s.last_move, Place)
            or (isinstance(s.last_move, Resign | Timeout) and s.last_removed)
            or (situational and isinstance(s.last_move, Pass))  # a pass makes a situation too (G3)
        ):
            mover = s.last_colour
        else:
            continue
        keys.append(s.hash ^ SITUATION[mover] if situational else s.hash)
    return keys


def _plies_left(state: GoState) -> int:
    limit = state.rules.move_limit_rounds
    if limit is None:
        return -1
    in_play = state.active_mask.bit_count()
    done_this_round = (state.round_mask & state.active_mask).bit_count()
    return max(1, (limit - state.rounds) * in_play - done_this_round)


def _playout_ko(state: GoState) -> tuple[int, int]:
    """The point and colour of a ko that may not be retaken at once (for playouts; the tree checks hashes)."""
    move = state.last_move
    parent = state.parent
    if not isinstance(move, Place) or parent is None or len(state.last_removed) != 1:
        return -1, -1
    taken = state.last_removed[0]
    victim = parent.colour_at(taken)
    lone = state.chain_points(move.point) == [move.point] and len(state.liberties(move.point)) == 1
    if victim is None or not lone:
        return -1, -1
    return padded(taken, state.size), victim


def from_state(state: GoState, colour: int | None = None) -> KernelPosition:
    """The kernel position of `state`, with `colour` (default: the colour to move) to play."""
    size = state.size
    if size > MAX_SIZE or state.colours > MAX_COLOURS:
        raise ValueError(f"the kernel handles boards up to {MAX_SIZE}x{MAX_SIZE} and {MAX_COLOURS} colours")
    zob = zobrist_for(size)
    b = new_board(size, state.colours)
    hz = np.zeros(2, dtype=np.uint64)
    for p, c in state.position().items():
        place(b, hz, zob, c, padded(p, size))
    if int(hz[0]) != state.hash & _MASK64:
        raise AssertionError("kernel and core Zobrist hashes differ for the same position")
    hz[1] = np.uint64(state.prev_hash & _MASK64)
    rules = state.rules
    b[H_TO_MOVE] = state.to_move if colour is None else colour
    b[H_PASSES] = state.passes
    for c in range(state.colours):
        b[H_CAPTURED + c] = state.captured_by[c]
    b[H_ACTIVE] = state.active_mask
    b[H_N_ACTIVE] = state.active_mask.bit_count()
    b[H_SUICIDE] = 1 if rules.suicide is Suicide.ALLOWED else 0
    b[H_KO_RULE] = _KO_CODES[rules.ko]
    b[H_PLIES_LEFT] = _plies_left(state)
    b[H_CAPTURE_POINTS] = 1 if rules.capture_points else 0
    b[H_AS_IS] = 1 if rules.dead_stones is DeadStones.ALL_ALIVE else 0
    b[H_KO_POINT], b[H_KO_COLOUR] = _playout_ko(state)
    last: list[int] = []
    for s in state.lineage():
        if len(last) == 2 or s.last_move is None:
            break
        if isinstance(s.last_move, Place | Pass):
            last.append(padded(s.last_move.point, size) if isinstance(s.last_move, Place) else KERNEL_PASS)
    last += [NO_MOVE] * (2 - len(last))
    b[H_LAST], b[H_LAST2] = last[0], last[1]
    komi = np.zeros(MAX_COLOURS, dtype=np.float64)
    for entry in score(state):
        komi[entry.colour] = entry.komi
    history = np.array(sorted(k & _MASK64 for k in history_keys(state)), dtype=np.uint64)
    return KernelPosition(size, state.colours, b, hz, history, komi, zob)
