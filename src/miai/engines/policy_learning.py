"""Learn the tree's move predictor (`kernel.policy_net`) from SGF game records.

    python -m miai.engines.policy_learning ../shared/data/gnugo/games \
        --out src/miai/engines/kernel/policy_net.npz

Every two-colour Go record of the chosen size under the folders is replayed, and before each placement the
mover's feature planes and the chosen point make one example. One record in twenty (by sorted path) is
held out; the network learns from the others, with the eight symmetries of the board chosen at random per
batch, and the held-out accuracy is printed after every epoch. Learning needs PyTorch (its CPU build is
enough: `pip install torch`); playing with the result needs only numpy and numba.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from miai.engines.kernel.choices import record_positions
from miai.engines.kernel.policy_net import (
    N_PLANES,
    PLANE_EMPTY,
    Buffers,
    PolicyNet,
    forward,
    pack,
)
from miai.engines.shape_learning import replays

HELD_OUT = 20  # one record in this many is kept for measuring


class Examples:
    """Positions [n, size, size, N_PLANES] (uint8), chosen points [n] and the record each came from."""

    def __init__(self, size: int, capacity: int) -> None:
        self.size = size
        self.planes = np.zeros((capacity, size, size, N_PLANES), dtype=np.uint8)
        self.targets = np.zeros(capacity, dtype=np.int64)
        self.record = np.zeros(capacity, dtype=np.int32)
        self.count = 0

    def part(self, held_out: bool) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        """The held-out examples, or the others."""
        chosen = (self.record[: self.count] % HELD_OUT == HELD_OUT - 1) == held_out
        return self.planes[: self.count][chosen], self.targets[: self.count][chosen]


def collect(paths: list[Path], size: int, capacity: int = 400_000, progress: bool = True) -> Examples:
    """The examples of the `size`×`size` records among `paths`."""
    out = Examples(size, capacity)
    for number, replay in enumerate(r for r in replays(paths, progress) if r.size == size):
        position = replay.position
        written = record_positions(
            position.b,
            position.hz,
            position.zob,
            replay.colours,
            replay.points,
            out.planes,
            out.targets,
            out.count,
        )
        out.record[out.count : out.count + written] = number
        out.count += written
        if out.count >= capacity:
            break
    return out


def accuracy(
    net: PolicyNet, planes: npt.NDArray[np.uint8], targets: npt.NDArray[np.int64], top: int = 1
) -> float:
    """How often the chosen point is among the network's `top` legal-looking (empty) points."""
    if len(targets) == 0:
        return 0.0
    size = planes.shape[1]
    buffers = Buffers(net.widest)
    logits = np.zeros(size * size, dtype=np.float32)
    hits = 0
    for planes_one, target in zip(planes, targets, strict=True):
        forward(
            planes_one.astype(np.float32),
            size,
            net.weights,
            net.layers,
            buffers.act_a,
            buffers.act_b,
            buffers.cols,
            buffers.out,
            logits,
        )
        masked = np.where(planes_one[:, :, PLANE_EMPTY].ravel() > 0, logits, -np.inf)
        hits += int(target in np.argsort(-masked)[:top])
    return hits / len(targets)


def _model(channels: int, layers: int) -> Any:
    from torch import nn

    parts: list[Any] = [nn.Conv2d(N_PLANES, channels, 5, padding=2), nn.ReLU()]
    for _ in range(layers - 2):
        parts += [nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU()]
    parts.append(nn.Conv2d(channels, 1, 1))
    return nn.Sequential(*parts)


def to_net(model: Any) -> PolicyNet:
    """The torch model's convolutions as the kernel's layers ([ky, kx, in, out] weights)."""
    convs = [m for m in model if hasattr(m, "weight")]
    kernels = [c.weight.detach().permute(2, 3, 1, 0).contiguous().numpy() for c in convs]
    biases = [c.bias.detach().numpy() for c in convs]
    return pack(kernels, biases)


def train(
    examples: Examples, channels: int, layers: int, epochs: int, seed: int, batch: int = 256
) -> PolicyNet:
    """Learn a network from the examples not held out, reporting the held-out accuracy per epoch."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    planes, targets = examples.part(held_out=False)
    test_planes, test_targets = examples.part(held_out=True)
    size = examples.size
    model = _model(channels, layers)
    steps = epochs * (len(targets) // batch)
    optimiser = torch.optim.Adam(model.parameters(), lr=2e-3)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=4e-3, total_steps=max(1, steps))
    loss_fn = torch.nn.CrossEntropyLoss()
    step = 0
    for epoch in range(1, epochs + 1):
        started = time.monotonic()
        order = rng.permutation(len(targets))
        model.train()
        total = 0.0
        for start in range(0, len(order) - batch + 1, batch):
            pick = order[start : start + batch]
            x = torch.from_numpy(planes[pick].astype(np.float32)).permute(0, 3, 1, 2)
            onehot = torch.zeros(batch, size * size)
            onehot[torch.arange(batch), torch.from_numpy(targets[pick])] = 1.0
            target_map = onehot.view(batch, 1, size, size)
            turns, flip = int(rng.integers(4)), bool(rng.integers(2))
            x = torch.rot90(x, turns, (2, 3))
            target_map = torch.rot90(target_map, turns, (2, 3))
            if flip:
                x, target_map = torch.flip(x, (3,)), torch.flip(target_map, (3,))
            logits = model(x).reshape(batch, -1)
            logits = logits.masked_fill(x[:, PLANE_EMPTY].reshape(batch, -1) == 0, -1e9)
            loss = loss_fn(logits, target_map.reshape(batch, -1).argmax(dim=1))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if step < steps - 1:
                schedule.step()
            step += 1
            total += float(loss.detach())
        net = to_net(model.eval())
        sample = slice(0, 3000)
        top1 = accuracy(net, test_planes[sample], test_targets[sample])
        print(
            f"epoch {epoch}/{epochs}: loss {total / max(1, len(order) // batch):.3f},"
            f" held-out top-1 {top1:.1%} ({time.monotonic() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    return to_net(model.eval())


def save(net: PolicyNet, path: Path) -> None:
    """Store the network as `kernel0`, `bias0`, ... (the format `policy_net.load_net` reads)."""
    arrays: dict[str, npt.NDArray[np.float32]] = {}
    for i, (cin, cout, k, w0, b0) in enumerate(net.layers.tolist()):
        arrays[f"kernel{i}"] = net.weights[w0 : w0 + k * k * cin * cout].reshape(k, k, cin, cout)
        arrays[f"bias{i}"] = net.weights[b0 : b0 + cout]
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="learn the tree's move predictor from SGF records")
    parser.add_argument("folders", nargs="+", type=Path, help="folders searched for *.sgf")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    parser.add_argument("--size", type=int, default=19, help="board size of the records used (default 19)")
    parser.add_argument("--channels", type=int, default=32, help="filters per hidden layer (default 32)")
    parser.add_argument("--layers", type=int, default=6, help="convolutions in all (default 6)")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the examples (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the initial weights and batches")
    args = parser.parse_args(argv)
    missing = [str(f) for f in args.folders if not f.is_dir()]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)}")
    if args.layers < 2 or args.channels < 1 or args.epochs < 1:
        parser.error("--layers must be at least 2, --channels and --epochs at least 1")
    try:
        import torch
    except ImportError:
        parser.error("learning needs PyTorch: pip install torch (the CPU build is enough)")
    torch.set_num_threads(max(1, torch.get_num_threads()))
    examples = collect([p for folder in args.folders for p in folder.rglob("*.sgf")], args.size)
    held = int((examples.record[: examples.count] % HELD_OUT == HELD_OUT - 1).sum())
    print(f"{examples.count:,} examples ({held:,} held out)", file=sys.stderr, flush=True)
    net = train(examples, args.channels, args.layers, args.epochs, args.seed)
    save(net, args.out)
    test_planes, test_targets = examples.part(held_out=True)
    top1 = accuracy(net, test_planes, test_targets)
    top5 = accuracy(net, test_planes, test_targets, top=5)
    print(f"held-out: top-1 {top1:.1%}, top-5 {top5:.1%} -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
