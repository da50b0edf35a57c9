"""Learned 3×3 shapes: how much more (or less) often than average players choose a point with each
neighbourhood, for the tree's priors.

A neighbourhood is the 16-bit code of `playout.pattern_code` (the eight neighbours as empty, the mover's,
another colour's or off the board), so shapes are seen from the mover's side. The counts come from real
game records (`python -m miai.engines.shape_learning`, see there) and live in `shape_rates.txt` as
"canonical code, times chosen, times available" rows, a code standing for its eight rotations and
reflections. `shape_values()` turns them into a 65,536-entry table of values in (0, 1): 0.5 for a shape
chosen as often as the average point, towards 1 for shapes players pick far more often (hane, cuts,
extensions from contact), towards 0 for shapes they avoid (filling their own eye space, empty triangles).
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import numpy.typing as npt

RATES_FILE = "shape_rates.txt"
SMOOTHING = 50.0  # pseudo-observations at the average rate, so that rare shapes stay near 0.5

# Neighbour order of a code, from its most significant pair down: NW N NE W E SW S SE, as (row, col).
_CELLS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _permutations() -> list[list[int]]:
    """For each of the 8 symmetries of the square, where each neighbour's pair goes."""
    out = []
    for flip in (False, True):
        for turns in range(4):
            perm = []
            for row, col in _CELLS:
                r, c = row, -col if flip else col
                for _ in range(turns):
                    r, c = c, -r
                perm.append(_CELLS.index((r, c)))
            out.append(perm)
    return out


_PERMUTATIONS = _permutations()


def _digits(code: int) -> list[int]:
    return [(code >> (2 * (7 - i))) & 3 for i in range(8)]


def _code(digits: list[int]) -> int:
    code = 0
    for d in digits:
        code = code * 4 + d
    return code


def variants(code: int) -> set[int]:
    """The codes of a neighbourhood under every rotation and reflection."""
    digits = _digits(code)
    out = set()
    for perm in _PERMUTATIONS:
        moved = [0] * 8
        for i, d in enumerate(digits):
            moved[perm[i]] = d
        out.add(_code(moved))
    return out


def canonical(code: int) -> int:
    return min(variants(code))


def rate_rows(text: str, file: str, columns: str) -> list[tuple[int, str, list[int]]]:
    """(line number, line, numbers) of a rates file's rows of whole numbers named by `columns` (comment
    lines start with '#')."""
    rows = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != len(columns.split()) or not all(p.isdigit() for p in parts):
            raise ValueError(f"{file} line {number}: expected '{columns}', got {line!r}")
        rows.append((number, line, [int(p) for p in parts]))
    return rows


def parse_rates(text: str) -> dict[int, tuple[int, int]]:
    """{canonical code: (chosen, available)} from the rates file."""
    rates: dict[int, tuple[int, int]] = {}
    for number, line, (code, chosen, available) in rate_rows(text, RATES_FILE, "code chosen available"):
        if code >= 1 << 16 or chosen > available:
            raise ValueError(f"{RATES_FILE} line {number}: impossible counts {line!r}")
        rates[code] = (chosen, available)
    return rates


def values_from_rates(rates: dict[int, tuple[int, int]]) -> npt.NDArray[np.float64]:
    """The per-code value table: rate / (rate + average rate), each rate smoothed towards the average."""
    values = np.full(1 << 16, 0.5, dtype=np.float64)
    for code, value in relative_rates(rates, SMOOTHING).items():
        for variant in variants(code):
            values[variant] = value
    return values


def relative_rates(rates: dict[int, tuple[int, int]], smoothing: float) -> dict[int, float]:
    """Per key of {key: (chosen, available)}: rate / (rate + average rate), in (0, 1) with 0.5 for an
    average key; each rate is smoothed with `smoothing` pseudo-observations at the average rate."""
    chosen = sum(c for c, _ in rates.values())
    available = sum(a for _, a in rates.values())
    if not available:
        return {}
    mean = chosen / available
    out = {}
    for key, (c, a) in rates.items():
        rate = (c + smoothing * mean) / (a + smoothing)
        out[key] = rate / (rate + mean)
    return out


def shape_values() -> npt.NDArray[np.float64]:
    """The value table learned from real games, as shipped with Miai."""
    text = resources.files("miai.engines.kernel").joinpath(RATES_FILE).read_text(encoding="utf-8")
    return values_from_rates(parse_rates(text))


SHAPE_VALUES = shape_values()
