"""Learn the tree's priors from SGF game records: 3×3 shape rates and open-area rates.

    python -m miai.engines.shape_learning ../shared/data/gnugo/games \
        --out src/miai/engines/kernel/shape_rates.txt \
        --open-out src/miai/engines/kernel/open_area_rates.txt

Every Go record under the folders is replayed (main line, any size, two colours); before each placement
every empty point's neighbourhood counts as available to the mover and the chosen point's as chosen, and
likewise for the open-area classes of `kernel.open_area` (boards of 13×13 and more).
Records that fail to load are skipped with a note on stderr. Shipped rates were learned from the GNU Go
regression suite's games (see the file's header); rerun this to learn from other records.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from miai.core.go import Place
from miai.engines.go_search import first_state
from miai.engines.kernel.choices import count_choices
from miai.engines.kernel.convert import KernelPosition, from_state
from miai.engines.kernel.layout import padded
from miai.engines.kernel.open_area import CLASSES, open_rates_text
from miai.engines.kernel.shapes import RATES_FILE, canonical
from miai.formats.sgf import SgfError
from miai.formats.sgf.go import load_go

MIN_AVAILABLE = 20  # rarer shapes are left out of the file (they would stay near the average anyway)


@dataclass
class Counts:
    """What the learner counted: per raw 3×3 code and per open-area class, chosen and available."""

    chosen: np.ndarray
    available: np.ndarray
    open_chosen: np.ndarray
    open_available: np.ndarray
    games: int = 0
    moves: int = 0


@dataclass
class Replay:
    """A record's placements, ready for the kernel's replays: the start position and the moves."""

    position: KernelPosition
    size: int
    colours: np.ndarray
    points: np.ndarray


def replays(paths: Iterable[Path], progress: bool = True) -> Iterator[Replay]:
    """The two-colour Go records among `paths` (sorted) with at least one placement; records that fail to
    load are skipped with a note on stderr."""
    files = sorted(paths)
    for number, path in enumerate(files, 1):
        if progress and number % 100 == 0:
            print(f"  {number}/{len(files)} records", file=sys.stderr, flush=True)
        try:
            state = load_go(path.read_bytes()).state
        except (SgfError, ValueError, OSError) as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
            continue
        if state.colours != 2:
            continue
        events = [(c, m) for c, m in state.moves() if isinstance(m, Place)]
        if not events:
            continue
        colours = np.array([c for c, _ in events], dtype=np.int32)
        points = np.array([padded(m.point, state.size) for _, m in events], dtype=np.int32)
        yield Replay(from_state(first_state(state)), state.size, colours, points)


def learn(paths: Iterable[Path], progress: bool = True) -> Counts:
    """The counts over the records."""
    counts = Counts(
        np.zeros(1 << 16, dtype=np.int64),
        np.zeros(1 << 16, dtype=np.int64),
        np.zeros(CLASSES, dtype=np.int64),
        np.zeros(CLASSES, dtype=np.int64),
    )
    for replay in replays(paths, progress):
        position = replay.position
        counts.moves += count_choices(
            position.b,
            position.hz,
            position.zob,
            replay.colours,
            replay.points,
            counts.chosen,
            counts.available,
            counts.open_chosen,
            counts.open_available,
        )
        counts.games += 1
    return counts


def rates_text(chosen: np.ndarray, available: np.ndarray, source: str, games: int, moves: int) -> str:
    """The rates file: counts summed over each code's symmetric variants, commonest shapes first."""
    merged: dict[int, list[int]] = {}
    for code in np.nonzero(available)[0]:
        entry = merged.setdefault(canonical(int(code)), [0, 0])
        entry[0] += int(chosen[code])
        entry[1] += int(available[code])
    rows = sorted(
        ((code, c, a) for code, (c, a) in merged.items() if a >= MIN_AVAILABLE), key=lambda r: (-r[2], r[0])
    )
    header = [
        f"# Miai {RATES_FILE}: 3x3 shapes chosen / available, learned by miai.engines.shape_learning",
        f"# from {games:,} games, {moves:,} moves: {source}",
        "# canonical code (NW N NE W E SW S SE, 2 bits each: empty, mover, other, off), chosen, available",
    ]
    return "\n".join(header + [f"{code} {c} {a}" for code, c, a in rows]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="learn 3x3 shape rates from SGF records")
    parser.add_argument("folders", nargs="+", type=Path, help="folders searched for *.sgf")
    parser.add_argument("--out", type=Path, required=True, help="the shape rates file to write")
    parser.add_argument("--open-out", type=Path, default=None, help="the open-area rates file to write")
    parser.add_argument("--source", default=None, help="what to name as the source in the header")
    args = parser.parse_args(argv)
    missing = [str(f) for f in args.folders if not f.is_dir()]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)}")
    paths = [p for folder in args.folders for p in folder.rglob("*.sgf")]
    counts = learn(paths)
    source = args.source or ", ".join(f.name for f in args.folders)
    text = rates_text(counts.chosen, counts.available, source, counts.games, counts.moves)
    args.out.write_text(text, encoding="utf-8")
    print(f"{counts.games:,} games, {counts.moves:,} moves -> {args.out}", file=sys.stderr)
    if args.open_out is not None:
        described = f"{counts.games:,} games, {counts.moves:,} moves: {source}"
        text = open_rates_text(counts.open_chosen, counts.open_available, described)
        args.open_out.write_text(text, encoding="utf-8")
        print(f"open-area rates -> {args.open_out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
