"""The compiled Hex player: it wins, defends and saves bridges, keeps its tree between moves, follows the
swap rule as documented, and keeps the levels' meaning."""

from __future__ import annotations

import pytest

from miai.core.hex import FIRST, SECOND, SWAP, HexState, Opening, new_game, parse_cell
from miai.core.twoplayer import Place
from miai.engines import searchers
from miai.engines.hex.board import padded
from miai.engines.hex.searcher import HexSearcher, edge_distance
from miai.engines.hex.tree import FIRST as FIRST_CHILD
from miai.engines.hex.tree import MOVE, VISITS, WINS
from miai.engines.players import AnyGameSeat
from miai.engines.pool import portable
from miai.engines.searchers import choose_move_any_game


def board(size: int, black: str, white: str, to_move: int) -> HexState:
    setup = {parse_cell(c, size): FIRST for c in black.split()}
    setup.update({parse_cell(c, size): SECOND for c in white.split()})
    return new_game(size, "none", setup=setup, to_move=to_move)


@pytest.fixture
def searcher() -> HexSearcher:
    return HexSearcher(capacity=200_000)


def test_it_completes_its_connection(searcher: HexSearcher) -> None:
    state = board(7, "d1 d2 d3 d5 d6 d7", "a1 b1 c1 e1 f1 g1", FIRST)
    assert searcher.move(state, 10, 0.3, 1) == Place(parse_cell("d4", 7))


def test_it_blocks_the_opponent_s_one_cell_threat(searcher: HexSearcher) -> None:
    state = board(7, "a1 a3 b5 g7", "a4 b4 c4 e4 f4 g4", FIRST)
    assert searcher.move(state, 10, 0.3, 2) == Place(parse_cell("d4", 7))


def test_it_saves_a_bridge_the_opponent_intrudes_into(searcher: HexSearcher) -> None:
    # Black's chain d1..d3, bridge d3–e4 (carriers e3, d4), e4 down to e7; White intrudes at e3.
    state = board(7, "d1 d2 d3 e4 e5 e6 e7", "e3 a1 b1 c1 a2", FIRST)
    assert searcher.move(state, 10, 0.3, 3) == Place(parse_cell("d4", 7))


def test_the_tree_is_kept_when_the_game_goes_on_and_rebuilt_otherwise(searcher: HexSearcher) -> None:
    state = new_game(7, "none")
    mine = searcher.move(state, 9, 0.5, 1)
    state = state.play(mine)
    reply = next(m for m in state.legal_moves() if isinstance(m, Place) and m.point != 24)
    state = state.play(reply)
    before = searcher.last_playouts
    _, nf, _ = searcher.follow(state)
    assert searcher.root != 0 and nf[searcher.root, VISITS] > 0  # the reply's subtree, already searched
    assert before > 0
    other = board(7, "a1", "", SECOND)  # a position that does not follow: a fresh tree
    searcher.follow(other)
    assert searcher.root == 0 and searcher.pool is not None and searcher.pool[1][0, VISITS] == 0


def test_the_tree_is_kept_when_states_travel_without_their_record(searcher: HexSearcher) -> None:
    """An engine process gets each state with one step back (`pool.portable`): the tree follows anyway."""
    state = new_game(7, "none")
    for seed in (1, 2):
        state = state.play(searcher.move(portable(state), 9, 0.3, seed))
        state = state.play(next(m for m in state.legal_moves() if isinstance(m, Place)))
        _, nf, _ = searcher.follow(portable(state))
        assert searcher.root != 0 and nf[searcher.root, VISITS] > 0


def test_the_tree_survives_being_compacted(searcher: HexSearcher) -> None:
    small = HexSearcher(capacity=30_000)
    state = new_game(7, "none")
    for seed in range(6):
        move = small.move(state, 10, 0.2, seed)
        assert move in state.legal_moves()
        state = state.play(move)
        if state.is_over:
            break
        state = state.play(state.legal_moves()[0])
        if state.is_over:
            break
    assert small.compactions > 0


def test_swap_central_first_stones_and_keep_edge_ones(searcher: HexSearcher) -> None:
    start = new_game(11, Opening.SWAP)
    assert searcher.move(start.play(Place(parse_cell("f6", 11))), 10, 0.1, 1) == SWAP
    kept = searcher.move(start.play(Place(parse_cell("a1", 11))), 10, 0.1, 1)
    assert isinstance(kept, Place)


def test_under_swap_it_opens_on_the_second_ring(searcher: HexSearcher) -> None:
    move = searcher.move(new_game(11, Opening.SWAP), 10, 0.1, 4)
    assert isinstance(move, Place) and edge_distance(move.point, 11) == 1


def test_the_centre_row_ban_is_respected(searcher: HexSearcher) -> None:
    for seed in range(3):
        move = searcher.move(new_game(7, Opening.CENTRE_ROW_BAN), 10, 0.1, seed)
        assert isinstance(move, Place) and move.point // 7 != 3


def test_lower_levels_search_their_playouts_and_level_10_its_time(searcher: HexSearcher) -> None:
    state = new_game(9, "none")
    searcher.move(state, 6, 5.0, 11)
    assert searcher.last_playouts == 640
    searcher.move(state, 10, 0.3, 11)
    assert searcher.last_playouts > 640


def test_a_finished_game_is_refused(searcher: HexSearcher) -> None:
    with pytest.raises(ValueError, match="over"):
        searcher.move(board(5, "a1 a2 a3 a4 a5", "", SECOND), 10, 0.1, 1)


def test_the_game_s_seats_and_the_one_off_path_use_the_compiled_player() -> None:
    state = new_game(7, "none")
    assert isinstance(searchers.searcher_for(state), HexSearcher)
    seat = AnyGameSeat(10)
    try:
        assert seat.move(state, 0.1, 1) in state.legal_moves()
        assert seat.stats() == {"engine": "compiled"}
    finally:
        seat.close()
    assert choose_move_any_game(state, 3, seed=2, seconds=0.1) in state.legal_moves()


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), -1.0, 0.0])
def test_unusable_budgets_fall_back_to_the_level_s_own(searcher: HexSearcher, seconds: float) -> None:
    state = new_game(5, "none")
    assert searcher.move(state, 4, seconds, 2**70) in state.legal_moves()
    assert searcher.last_playouts == 160


@pytest.mark.parametrize("level", [0, 11, True, "10"])
def test_levels_outside_1_to_10_are_refused(searcher: HexSearcher, level: object) -> None:
    with pytest.raises(ValueError, match="levels"):
        searcher.move(new_game(5, "none"), level, 0.1, 1)  # type: ignore[arg-type]


def test_a_winning_move_ends_the_game_in_the_tree(searcher: HexSearcher) -> None:
    state = board(7, "d1 d2 d3 d5 d6 d7", "a1 b1 c1 e1 f1 g1", FIRST)
    assert searcher.move(state, 9, 5.0, 1) == Place(parse_cell("d4", 7))
    assert searcher.pool is not None
    ni, nf, _ = searcher.pool
    win = searcher.root  # the chosen child, kept as the next root
    assert int(ni[win, MOVE]) == padded(parse_cell("d4", 7), 7)
    assert nf[win, VISITS] > 100 and nf[win, WINS] == nf[win, VISITS]
    assert int(ni[win, FIRST_CHILD]) == -1  # never grown: there is no game after it
