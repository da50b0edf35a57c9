"""Learn the 3×3 shape rates of the tree's priors from SGF game records.

    python -m miai.engines.shape_learning ../shared/data/gnugo/games \
        --out src/miai/engines/kernel/shape_rates.txt

Every Go record under the folders is replayed (main line, any size, two colours); before each placement
every empty point's neighbourhood counts as available to the mover and the chosen point's as chosen.
Records that fail to load are skipped with a note on stderr. Shipped rates were learned from the GNU Go
regression suite's games (see the file's header); rerun this to learn from other records.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from miai.core.go import Place
from miai.engines.go_search import first_state
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import padded
from miai.engines.kernel.shapes import RATES_FILE, canonical, count_shapes
from miai.formats.sgf import SgfError
from miai.formats.sgf.go import load_go

MIN_AVAILABLE = 20  # rarer shapes are left out of the file (they would stay near the average anyway)


def learn(paths: Iterable[Path], progress: bool = True) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(chosen, available) per raw code over the records, and the games and moves counted."""
    chosen = np.zeros(1 << 16, dtype=np.int64)
    available = np.zeros(1 << 16, dtype=np.int64)
    games = moves = 0
    files = sorted(paths)
    for number, path in enumerate(files, 1):
        if progress and number % 100 == 0:
            print(f"  {number}/{len(files)} records, {moves:,} moves", file=sys.stderr, flush=True)
        try:
            state = load_go(path.read_bytes()).state
        except (SgfError, ValueError, OSError) as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
            continue
        if state.colours != 2:
            continue
        start = first_state(state)
        events = [(c, m) for c, m in state.moves() if isinstance(m, Place)]
        if not events:
            continue
        position = from_state(start)
        colours = np.array([c for c, _ in events], dtype=np.int32)
        points = np.array([padded(m.point, state.size) for _, m in events], dtype=np.int32)
        moves += count_shapes(position.b, position.hz, position.zob, colours, points, chosen, available)
        games += 1
    return chosen, available, games, moves


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
    parser.add_argument("--out", type=Path, required=True, help="the rates file to write")
    parser.add_argument("--source", default=None, help="what to name as the source in the header")
    args = parser.parse_args(argv)
    missing = [str(f) for f in args.folders if not f.is_dir()]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)}")
    paths = [p for folder in args.folders for p in folder.rglob("*.sgf")]
    chosen, available, games, moves = learn(paths)
    source = args.source or ", ".join(f.name for f in args.folders)
    args.out.write_text(rates_text(chosen, available, source, games, moves), encoding="utf-8")
    print(f"{games:,} games, {moves:,} moves -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
