"""A small convolutional move predictor, evaluated in compiled code, for the tree's priors.

The network (learned by `miai.engines.policy_learning` from real games) sees the board from the mover's
side as N_PLANES feature planes and gives every point a logit; the tree turns the softmax over the legal
points into equivalent experience for the children of nodes visited often enough (`tree.NET_VISITS`), as
Pachi does with its network. It is fully convolutional (zero padding), so one set of weights serves every
board size, and small enough (a few tens of thousands of weights) to run in milliseconds on one core.

Weights live in one flat float32 array; a layer table (int64 rows: inputs, outputs, kernel width, offset
of the weights, offset of the biases) describes the layers. Weights are stored per layer as
[ky, kx, in, out], the matrix that multiplies a layer's unrolled inputs.
"""

from __future__ import annotations

import os

# One BLAS thread: the search threads are the parallelism, and on products this small BLAS threads only
# contend (measured: 0.8 ms per evaluation alone, 5 ms with two BLAS threads on a busy 2-core machine).
# It must be set before numba's np.dot first loads scipy's BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from importlib import resources

import numpy as np
import numpy.typing as npt

from miai.engines.kernel.board import liberties_upto
from miai.engines.kernel.jit import jit, wide
from miai.engines.kernel.layout import COL, EMPTY, H_LAST, H_SIZE, HEAD, MAX_SIZE, Int32Array, W

WEIGHTS_FILE = "policy_net.npz"
N_PLANES = 11  # own, other, empty; own chain with 1, 2, 3+ liberties; the same for others; last move; ones
PLANE_OWN = 0
PLANE_OTHER = 1
PLANE_EMPTY = 2
PLANE_OWN_LIBS = 3  # + liberties - 1 (three planes)
PLANE_OTHER_LIBS = 6
PLANE_LAST = 9
PLANE_ONES = 10  # lets the zero padding show where the edge is
MARGIN = 2  # the activation buffers' zero border: the widest kernel is 5×5

Float32Array = npt.NDArray[np.float32]
LayerTable = npt.NDArray[np.int64]
L_IN = 0
L_OUT = 1
L_K = 2
L_W = 3
L_B = 4


@jit
def point_index(q: int, size: int) -> int:
    """The index y * size + x of padded point q in the planes' and logits' order (`layout.unpadded`)."""
    return (q // W - 1) * size + q % W - 1


@jit
def encode(b: Int32Array, colour: int, planes: Float32Array, libs: Int32Array, tmp: Int32Array) -> None:
    """The feature planes [y, x, plane] of the position for `colour` to move (y = row, 0 at the bottom).

    `libs` is P int32 of scratch (liberties per chain head); `tmp` 8 int32."""
    size = wide(b[H_SIZE])
    planes[:] = 0.0
    libs[:] = -1
    last = wide(b[H_LAST])
    for y in range(size):
        for x in range(size):
            q = (y + 1) * W + x + 1
            v = wide(b[COL + q])
            planes[y, x, PLANE_ONES] = 1.0
            if q == last:
                planes[y, x, PLANE_LAST] = 1.0
            if v == EMPTY:
                planes[y, x, PLANE_EMPTY] = 1.0
                continue
            head = wide(b[HEAD + q])
            n = wide(libs[head])
            if n < 0:
                n = liberties_upto(b, head, 3, tmp)
                libs[head] = n
            n = max(1, n)
            if v == colour:
                planes[y, x, PLANE_OWN] = 1.0
                planes[y, x, PLANE_OWN_LIBS + n - 1] = 1.0
            else:
                planes[y, x, PLANE_OTHER] = 1.0
                planes[y, x, PLANE_OTHER_LIBS + n - 1] = 1.0


class Buffers:
    """Scratch for `forward`: two activation buffers [y, x, channel] with a zero border, the unrolled
    inputs of a layer and its outputs (flat, reshaped per layer), for any board size."""

    def __init__(self, widest: int) -> None:
        side = MAX_SIZE + 2 * MARGIN
        points = MAX_SIZE * MAX_SIZE
        self.act_a = np.zeros((side, side, widest), dtype=np.float32)
        self.act_b = np.zeros((side, side, widest), dtype=np.float32)
        self.cols = np.zeros(points * (2 * MARGIN + 1) ** 2 * widest, dtype=np.float32)
        self.out = np.zeros(points * widest, dtype=np.float32)


@jit
def forward(
    planes: Float32Array,
    size: int,
    weights: Float32Array,
    layers: LayerTable,
    act_a: Float32Array,
    act_b: Float32Array,
    cols: Float32Array,
    out: Float32Array,
    logits: Float32Array,
) -> None:
    """The network's logit of every point, written to logits[y * size + x] (hidden layers use ReLU, the
    last has one output). Each layer unrolls its inputs into rows of `cols` and multiplies them by its
    weights with one BLAS call (numba's np.dot), several times faster than looping."""
    act_a[:] = 0.0
    act_b[:] = 0.0
    for y in range(size):
        for x in range(size):
            for c in range(planes.shape[2]):
                act_a[y + MARGIN, x + MARGIN, c] = planes[y, x, c]
    src = act_a
    dst = act_b
    n_layers = layers.shape[0]
    points = size * size
    for layer in range(n_layers):
        cin = layers[layer, L_IN]
        cout = layers[layer, L_OUT]
        k = layers[layer, L_K]
        w0 = layers[layer, L_W]
        b0 = layers[layer, L_B]
        half = k // 2
        depth = k * k * cin
        rows = cols[: points * depth].reshape((points, depth))
        for y in range(size):
            for x in range(size):
                r = y * size + x
                j = 0
                for dy in range(k):
                    for dx in range(k):
                        cell = src[y + MARGIN + dy - half, x + MARGIN + dx - half]
                        for i in range(cin):
                            rows[r, j] = cell[i]
                            j += 1
        product = out[: points * cout].reshape((points, cout))
        np.dot(rows, weights[w0 : w0 + depth * cout].reshape((depth, cout)), product)
        for y in range(size):
            for x in range(size):
                r = y * size + x
                if layer == n_layers - 1:
                    logits[r] = product[r, 0] + weights[b0]
                else:
                    for o in range(cout):
                        v = product[r, o] + weights[b0 + o]
                        dst[y + MARGIN, x + MARGIN, o] = v if v > 0.0 else 0.0
        src, dst = dst, src


class PolicyNet:
    """The shipped network's flat weights and layer table, plus the widest layer (for the buffers)."""

    def __init__(self, weights: Float32Array, layers: LayerTable) -> None:
        self.weights = weights
        self.layers = layers
        self.widest = int(max(N_PLANES, int(layers[:, L_OUT].max())))


def pack(kernels: list[npt.NDArray[np.float32]], biases: list[npt.NDArray[np.float32]]) -> PolicyNet:
    """Flatten per-layer weights [ky, kx, in, out] and biases [out] into one array and a layer table."""
    parts: list[npt.NDArray[np.float32]] = []
    rows = []
    offset = 0
    for kernel, bias in zip(kernels, biases, strict=True):
        k, k2, cin, cout = kernel.shape
        if k != k2 or k % 2 == 0 or k // 2 > MARGIN or bias.shape != (cout,):
            raise ValueError(f"unsupported layer: kernel {kernel.shape}, bias {bias.shape}")
        rows.append([cin, cout, k, offset, offset + kernel.size])
        parts += [kernel.astype(np.float32).ravel(), bias.astype(np.float32)]
        offset += kernel.size + cout
    if rows[0][L_IN] != N_PLANES or rows[-1][L_OUT] != 1:
        raise ValueError(f"the network must take {N_PLANES} planes and give one output per point")
    return PolicyNet(np.concatenate(parts), np.array(rows, dtype=np.int64))


def load_net(data: bytes | None = None) -> PolicyNet:
    """The network stored as `kernel0`, `bias0`, `kernel1`, ... in an .npz (default: the shipped one)."""
    import io

    if data is None:
        data = resources.files("miai.engines.kernel").joinpath(WEIGHTS_FILE).read_bytes()
    with np.load(io.BytesIO(data)) as stored:
        count = sum(1 for name in stored.files if name.startswith("kernel"))
        return pack([stored[f"kernel{i}"] for i in range(count)], [stored[f"bias{i}"] for i in range(count)])
