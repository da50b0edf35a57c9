"""What each kind tells a server besides the rules: the board a client draws and the options it offers."""

from __future__ import annotations

import random
from typing import Any

import pytest

import miai.core.games  # noqa: F401  (registers the kinds)
from miai.core import amazons, hex, tanbo
from miai.core.registry import KINDS, Offer, kind


def test_every_kind_but_go_describes_itself() -> None:
    for key, game in KINDS.items():
        if key == "go":
            assert game.board is None and not game.offers  # Go has richer views of its own
            continue
        assert game.board is not None and len(game.player_names) == 2
        defaults = {offer.name: offer.default for offer in game.offers}
        state = game.new_game(defaults)
        board = game.board(state)
        assert board.size == state.size and len(board.cells) == state.size**2
        assert (board.changed, board.removed) == ((), ())


@pytest.mark.parametrize("key", ["amazons", "hex", "tanbo"])
def test_boards_follow_random_games(key: str) -> None:
    """Through the common interface only: the changed points are exactly the cells that differ."""
    game = kind(key)
    assert game.board is not None
    state: Any = game.new_game({"size": 7} if key == "hex" else {})
    rng = random.Random(3)
    before = game.board(state)
    while not state.is_over and state.plies < 150:
        state = state.play(rng.choice(state.legal_moves()))
        after = game.board(state)
        differ = {p for p, (a, b) in enumerate(zip(before.cells, after.cells, strict=True)) if a != b}
        assert differ <= set(after.changed)
        assert set(after.removed) <= set(after.changed)
        assert all(after.cells[p] == 0 for p in after.removed)
        assert set(after.cells) <= {-1, 0, 1, 2}
        before = after


def test_amazons_arrows_are_minus_one() -> None:
    state = amazons.new_game().play(amazons.parse_move("d1-d7/g7"))
    board = kind("amazons").board(state)  # type: ignore[misc]
    d1, d7, g7 = (amazons.parse_square(s) for s in ("d1", "d7", "g7"))
    assert (board.cells[d1], board.cells[d7], board.cells[g7]) == (0, 1, -1)
    assert board.changed == (d1, d7, g7) and board.removed == ()


def test_a_hex_swap_changes_both_cells() -> None:
    state = hex.new_game(11).play(hex.parse_move("c2", 11)).play(hex.SWAP)
    board = kind("hex").board(state)  # type: ignore[misc]
    c2, b3 = hex.parse_cell("c2", 11), hex.parse_cell("b3", 11)
    assert (board.cells[c2], board.cells[b3]) == (0, 2)
    assert board.changed == (c2, b3) and board.removed == (c2,)
    on_diagonal = hex.new_game(11).play(hex.parse_move("b2", 11)).play(hex.SWAP)
    assert kind("hex").board(on_diagonal).changed == (12,)  # type: ignore[misc]


def test_tanbo_shows_the_removed_root() -> None:
    # 5x5 (SPEC §4.5 style): White's lone stone at C3 is bounded once Black closes the last root liberty.
    setup = {tanbo.parse_move("C3", 5).point: tanbo.WHITE}  # type: ignore[union-attr]
    for vertex in ("B3", "C2", "D3", "A1"):
        setup[tanbo.parse_move(vertex, 5).point] = tanbo.BLACK  # type: ignore[union-attr]
    state = tanbo.new_game(5, setup)
    move = next(m for m in state.legal_moves() if state.play(m).removed)
    after = state.play(move)
    board = kind("tanbo").board(after)  # type: ignore[misc]
    assert board.removed == after.removed and set(board.removed) <= set(board.changed)
    assert move.point in board.changed  # type: ignore[union-attr]


def test_offers_check_values() -> None:
    size = Offer("size", 11, low=5, high=19)
    assert size.check("hex", 13) == 13
    with pytest.raises(ValueError, match=r"hex option size must be 5\.\.19, not 20"):
        size.check("hex", 20)
    with pytest.raises(ValueError, match="must be a whole number"):
        size.check("hex", True)
    opening = Offer("opening", "swap", values=("swap", "none"))
    assert opening.check("hex", "none") == "none"
    with pytest.raises(ValueError, match="must be one of swap, none, not 'pie'"):
        opening.check("hex", "pie")
    assert size.describe() == {"name": "size", "default": 11, "min": 5, "max": 19}
    assert opening.describe() == {"name": "opening", "default": "swap", "values": ["swap", "none"]}
