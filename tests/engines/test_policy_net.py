"""The move predictor: features, the compiled network against a plain numpy one, storage, the learner's
examples, the tree's use of it, and the shipped network's accuracy on held-out games."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from miai.core.go import Place, Rules, new_game
from miai.engines.go_search import NET_PRIOR, POLICY_NET, KernelSearch
from miai.engines.kernel.choices import record_positions
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import P, padded
from miai.engines.kernel.policy_net import (
    N_PLANES,
    PLANE_EMPTY,
    PLANE_LAST,
    PLANE_ONES,
    PLANE_OTHER,
    PLANE_OTHER_LIBS,
    PLANE_OWN,
    PLANE_OWN_LIBS,
    Buffers,
    encode,
    forward,
    load_net,
    pack,
)
from miai.engines.kernel.tree import FIRST, NET_VISITS, PRIOR_N, PRIOR_NET, default_params
from miai.engines.policy_learning import HELD_OUT, accuracy, collect, save
from tests.conftest import shared_data


def _planes(size: int, moves: list[tuple[int, int, int]]) -> np.ndarray:
    """The planes for Black to move after placing (colour, row, col) stones."""
    state = new_game(size, rules=Rules())
    for colour, row, col in moves:
        assert state.to_move == colour
        state = state.play(Place(row * size + col))
    position = from_state(state)
    planes = np.zeros((size, size, N_PLANES), dtype=np.float32)
    encode(position.b, 0, planes, np.empty(P, dtype=np.int32), np.empty(8, dtype=np.int32))
    return planes


def test_encode_sees_stones_liberties_and_the_last_move_from_the_movers_side() -> None:
    # Black at (2,2); White at (0,0) in the corner (two liberties) then (3,2) touching Black.
    planes = _planes(5, [(0, 2, 2), (1, 0, 0), (0, 4, 4), (1, 3, 2)])
    assert planes[2, 2, PLANE_OWN] == 1 and planes[2, 2, PLANE_OTHER] == 0
    assert planes[2, 2, PLANE_OWN_LIBS + 2] == 1  # three liberties left
    assert planes[0, 0, PLANE_OTHER] == 1 and planes[0, 0, PLANE_OTHER_LIBS + 1] == 1  # two
    assert planes[4, 4, PLANE_OWN_LIBS + 1] == 1
    assert planes[3, 2, PLANE_LAST] == 1 and planes[:, :, PLANE_LAST].sum() == 1
    assert planes[:, :, PLANE_EMPTY].sum() == 25 - 4
    assert planes[:, :, PLANE_ONES].sum() == 25


def _reference(planes: np.ndarray, kernels: list[np.ndarray], biases: list[np.ndarray]) -> np.ndarray:
    """The same network written plainly: zero-padded correlation, ReLU between layers."""
    x = planes.astype(np.float64)
    for index, (kernel, bias) in enumerate(zip(kernels, biases, strict=True)):
        k = kernel.shape[0]
        half = k // 2
        size = x.shape[0]
        padded_x = np.pad(x, ((half, half), (half, half), (0, 0)))
        out = np.zeros((size, size, kernel.shape[3])) + bias
        for dy in range(k):
            for dx in range(k):
                out += padded_x[dy : dy + size, dx : dx + size] @ kernel[dy, dx]
        x = out if index == len(kernels) - 1 else np.maximum(out, 0.0)
    return x[:, :, 0].ravel()


@pytest.mark.parametrize("size", [5, 9, 19])
def test_the_compiled_network_computes_what_a_plain_one_does(size: int) -> None:
    rng = np.random.default_rng(size)
    shapes = [(5, N_PLANES, 6), (3, 6, 7), (1, 7, 1)]
    kernels = [rng.normal(0, 0.5, (k, k, i, o)).astype(np.float32) for k, i, o in shapes]
    biases = [rng.normal(0, 0.5, o).astype(np.float32) for _, _, o in shapes]
    net = pack(kernels, biases)
    planes = (rng.random((size, size, N_PLANES)) < 0.3).astype(np.float32)
    logits = np.zeros(size * size, dtype=np.float32)
    buf = Buffers(net.widest)
    buf.act_b[:] = 7.0  # stale activations of an earlier call must not leak in
    buf.cols[:] = 5.0
    forward(planes, size, net.weights, net.layers, buf.act_a, buf.act_b, buf.cols, buf.out, logits)
    assert np.allclose(logits, _reference(planes, kernels, biases), rtol=1e-4, atol=1e-4)


def test_pack_rejects_layers_the_kernel_cannot_run() -> None:
    good = np.zeros((3, 3, N_PLANES, 1), dtype=np.float32)
    with pytest.raises(ValueError, match="unsupported layer"):
        pack([np.zeros((7, 7, N_PLANES, 1), dtype=np.float32)], [np.zeros(1, dtype=np.float32)])
    with pytest.raises(ValueError, match="unsupported layer"):
        pack([good], [np.zeros(2, dtype=np.float32)])
    with pytest.raises(ValueError, match=f"must take {N_PLANES} planes"):
        pack([np.zeros((3, 3, 4, 1), dtype=np.float32)], [np.zeros(1, dtype=np.float32)])


def test_a_saved_network_loads_back_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    save(POLICY_NET, path)
    again = load_net(path.read_bytes())
    assert np.array_equal(again.weights, POLICY_NET.weights)
    assert np.array_equal(again.layers, POLICY_NET.layers)
    with pytest.raises(ValueError):
        load_net(io.BytesIO(b"not a zip").getvalue())


def test_record_positions_writes_one_example_per_placement() -> None:
    size = 9
    position = from_state(new_game(size, rules=Rules()))
    moves = [(0, 4, 4), (1, 2, 6), (0, 6, 2)]
    colours = np.array([c for c, _, _ in moves], dtype=np.int32)
    points = np.array([padded(r * size + c, size) for _, r, c in moves], dtype=np.int32)
    planes = np.zeros((5, size, size, N_PLANES), dtype=np.uint8)
    targets = np.zeros(5, dtype=np.int64)
    written = record_positions(position.b, position.hz, position.zob, colours, points, planes, targets, 1)
    assert written == 3
    assert targets[1:4].tolist() == [4 * 9 + 4, 2 * 9 + 6, 6 * 9 + 2]
    assert planes[1, :, :, PLANE_OWN].sum() == 0 and planes[1, :, :, PLANE_EMPTY].sum() == 81
    # Before White's move, Black's stone is "other"; before Black's second, White's is.
    assert planes[2, 4, 4, PLANE_OTHER] == 1 and planes[3, 2, 6, PLANE_OTHER] == 1
    assert planes[3, 4, 4, PLANE_OWN] == 1
    assert planes[0].sum() == 0 and planes[4].sum() == 0


def test_the_tree_adds_the_predictors_prior_once_a_node_is_visited_enough() -> None:
    state = new_game(19, Rules(komi=(0.0, 7.5)))
    priors = []
    for weight in (0.0, 25.0):
        params = default_params()
        search = KernelSearch(seed=3, params=params, reuse=False)
        params[PRIOR_NET] = weight
        params[NET_VISITS] = 5.0
        search.search(state, playouts=40)
        ni, nf, _ = search._pool
        first = int(ni[0, FIRST])
        priors.append(nf[first : first + 361, PRIOR_N].copy())
    assert np.allclose(priors[1] - priors[0], 25.0)


FIRST_FILES = 450  # of the shared GNU Go games: more than 1,500 held-out moves of 19x19 records


@pytest.mark.conformance
def test_the_shipped_network_predicts_held_out_moves_of_real_games() -> None:
    """The first 1,500 held-out moves: the records are numbered in file order, so the first files give the
    same held-out records as the whole collection (whose figures the learner reports as it trains)."""
    folder = shared_data("gnugo", "games")
    examples = collect(sorted(folder.rglob("*.sgf"))[:FIRST_FILES], 19, capacity=100_000, progress=False)
    planes, targets = examples.part(held_out=True)
    sample = slice(0, 1500)
    assert len(targets) >= sample.stop
    assert (examples.record[: examples.count] % HELD_OUT == HELD_OUT - 1).sum() == len(targets)
    # A uniform guess among ~250 empty points is right 0.4% of the time.
    assert accuracy(POLICY_NET, planes[sample], targets[sample]) > 0.25
    assert accuracy(POLICY_NET, planes[sample], targets[sample], top=5) > 0.45


def test_the_search_uses_the_predictor_on_19x19_only() -> None:
    search = KernelSearch(seed=1, reuse=False)
    search.search(new_game(9, Rules(komi=(0.0, 7.5))), playouts=30)
    assert search.params[PRIOR_NET] == 0.0
    search.search(new_game(19, Rules(komi=(0.0, 7.5))), playouts=30)
    assert search.params[PRIOR_NET] == NET_PRIOR > 0
    search.net_prior = 0.0  # what bench/selfplay.py sets for `params.prior_net=0`
    search.search(new_game(19, Rules(komi=(0.0, 7.5))), playouts=30)
    assert search.params[PRIOR_NET] == 0.0
