"""The compiled Hex rules (miai.engines.hex) must agree with the pure core (miai.core.hex) on random games:
who has connected, the winner of a full board, which cells the search may play, and the playout's fill."""

from __future__ import annotations

import random

import numpy as np
import pytest

from miai.core.hex import FIRST, SECOND, HexState, Opening, mirror, new_game
from miai.core.twoplayer import Place
from miai.engines.hex.board import (
    board_of,
    bridge_reply,
    first_connects,
    inner_cells,
    offsets,
    padded,
    playout,
    unpadded,
    width,
    winner_of_full,
)
from miai.engines.hex.connect import connections, has_connected, join_stone
from miai.engines.hex.searcher import root_mask
from miai.engines.hex.tree import COUNT, MOVE, new_pool, simulate
from miai.engines.hex.tree import FIRST as FIRST_CHILD


class Scratch:
    def __init__(self, size: int) -> None:
        area = width(size) ** 2
        self.empties = np.zeros(area, dtype=np.int32)
        self.where = np.zeros(area, dtype=np.int32)
        self.stack = np.zeros(area, dtype=np.int32)
        self.seen = np.zeros(area, dtype=np.int32)
        self.path = np.zeros(area + 2, dtype=np.int32)
        self.stamp = 0

    def next_stamp(self) -> int:
        self.stamp += 1
        return self.stamp


def compiled_connects(state: HexState, player: int, scratch: Scratch) -> bool:
    """The compiled check for the first player; for the second, on the mirrored position with the colours
    exchanged (where the second player's chains become the first player's)."""
    cells = state.cells
    if player == SECOND:
        size = state.size
        flipped = bytearray(len(cells))
        for p, code in enumerate(cells):
            if code:
                flipped[mirror(p, size)] = 3 - code
        cells = bytes(flipped)
    board = board_of(cells, state.size)
    return bool(first_connects(board, state.size, scratch.stack, scratch.seen, scratch.next_stamp()))


@pytest.mark.parametrize("size", [2, 3, 5, 8, 11])
def test_connections_agree_with_the_core_after_every_move_of_random_games(size: int) -> None:
    rng = random.Random(size)
    scratch = Scratch(size)
    for _ in range(30):
        state = new_game(size, "none")
        while True:
            for player in (FIRST, SECOND):
                assert compiled_connects(state, player, scratch) == state.connects(player), state.diagram()
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        assert compiled_connects(state, state.winner or 0, scratch)


@pytest.mark.parametrize("size", [3, 6, 11])
def test_the_winner_of_a_random_full_board_is_the_core_s(size: int) -> None:
    rng = random.Random(100 + size)
    scratch = Scratch(size)
    for _ in range(200):
        owners = [FIRST] * ((size * size + 1) // 2) + [SECOND] * (size * size // 2)
        rng.shuffle(owners)
        state = new_game(size, "none", setup=dict(enumerate(owners)))
        assert state.is_over and state.connects(1 - state.winner) is False  # type: ignore[operator]
        board = board_of(state.cells, size)
        assert winner_of_full(board, size, scratch.stack, scratch.seen, scratch.next_stamp()) == state.winner


@pytest.mark.parametrize("bridges", [True, False])
def test_a_playout_fills_the_board_in_turn_and_reads_the_core_s_winner(bridges: bool) -> None:
    size = 7
    rng = random.Random(7)
    scratch = Scratch(size)
    inner, off = inner_cells(size), offsets(size)
    for game in range(40):
        state = new_game(size, "none")
        for _ in range(rng.randrange(0, 12)):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        board = board_of(state.cells, size)
        last = padded(state.last_move.point, size) if isinstance(state.last_move, Place) else -1
        np.random.seed(game)
        stamp = scratch.next_stamp()
        winner = playout(
            board,
            inner,
            state.to_move,
            last,
            off,
            size,
            scratch.empties,
            scratch.where,
            scratch.stack,
            scratch.seen,
            stamp,
            bridges,
        )
        filled = bytes(int(board[q]) for q in inner)
        assert all(filled)
        assert all(filled[p] == code for p, code in enumerate(state.cells) if code)  # stones stay
        empty = state.cells.count(0)
        mine = sum(1 for p, code in enumerate(filled) if code == state.to_move + 1 and not state.cells[p])
        assert mine == (empty + 1) // 2  # the players alternate, the player to move first
        full = new_game(size, "none", setup={p: code - 1 for p, code in enumerate(filled)})
        assert full.winner == winner
        if state.is_over:
            assert winner == state.winner


def test_bridge_intrusions_are_answered_in_the_other_carrier_cell_edges_included() -> None:
    size = 5
    off = offsets(size)

    def cell(point: int) -> int:
        return padded(point, size)

    # Black's (column c, row r) and (c + 1, r + 1) make a bridge over (c + 1, r) and (c, r + 1): b2, c3.
    state = new_game(
        size, "none", setup={1 * 5 + 1: FIRST, 2 * 5 + 2: FIRST, 1 * 5 + 2: SECOND}, to_move=FIRST
    )
    board = board_of(state.cells, size)
    assert bridge_reply(board, cell(1 * 5 + 2), 1, off, 0) == cell(2 * 5 + 1)
    # The second-row edge template: a Black stone on row 2 and White intruding on row 1.
    state = new_game(size, "none", setup={1 * 5 + 2: FIRST, 0 * 5 + 2: SECOND}, to_move=FIRST)
    board = board_of(state.cells, size)
    assert bridge_reply(board, cell(0 * 5 + 2), 1, off, 0) == cell(0 * 5 + 3)
    # No bridge (the other carrier taken as well): nothing to save.
    state = new_game(size, "none", setup={1 * 5 + 2: FIRST, 0 * 5 + 2: SECOND, 3: SECOND}, to_move=FIRST)
    assert bridge_reply(board_of(state.cells, size), cell(2), 1, off, 0) == -1


@pytest.mark.parametrize("opening", [Opening.NONE, Opening.CENTRE_ROW_BAN, Opening.SWAP])
def test_the_search_root_offers_exactly_the_core_s_legal_cells(opening: Opening) -> None:
    size = 7
    rng = random.Random(3)
    scratch = Scratch(size)
    inner, off = inner_cells(size), offsets(size)
    for plies in (0, 1, 2, 9, 20):
        state = new_game(size, opening)
        for _ in range(plies):
            if state.is_over:
                break
            state = state.play(rng.choice([m for m in state.legal_moves() if isinstance(m, Place)]))
        if state.is_over:
            continue
        ni, nf, meta = new_pool(10_000)
        board = board_of(state.cells, size)
        simulate(
            ni,
            nf,
            meta,
            0,
            board,
            state.to_move,
            -1,
            inner,
            off,
            size,
            root_mask(state, state.legal_moves()),
            np.ones_like(board),
            1,
            1,
            board.copy(),
            scratch.empties,
            scratch.where,
            scratch.stack,
            scratch.seen,
            scratch.path,
            connections(board, size),
            connections(board, size),
        )
        first, count = int(ni[0, FIRST_CHILD]), int(ni[0, COUNT])
        offered = sorted(unpadded(int(ni[c, MOVE]), size) for c in range(first, first + count))
        legal = sorted(m.point for m in state.legal_moves() if isinstance(m, Place))
        if opening is Opening.SWAP and plies == 0:  # the engine opens on the second ring under swap
            legal = [
                p for p in legal if min(p // size, p % size, size - 1 - p // size, size - 1 - p % size) == 1
            ]
        assert offered == legal


@pytest.mark.parametrize("size", [2, 4, 7, 11])
def test_union_find_follows_the_core_s_connections_stone_by_stone(size: int) -> None:
    rng = random.Random(50 + size)
    off = offsets(size)
    for _ in range(30):
        state = new_game(size, "none")
        board = board_of(state.cells, size)
        parent = connections(board, size)
        while True:
            rebuilt = connections(board_of(state.cells, size), size)
            for player in (FIRST, SECOND):
                assert has_connected(parent, size, player) == state.connects(player), state.diagram()
                assert has_connected(rebuilt, size, player) == state.connects(player), state.diagram()
            if state.is_over:
                break
            move = rng.choice(state.legal_moves())
            assert isinstance(move, Place)
            cell = padded(move.point, size)
            board[cell] = state.to_move + 1
            join_stone(board, parent, cell, off)
            state = state.play(move)
