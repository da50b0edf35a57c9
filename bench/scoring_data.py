"""The scoring test data of ../shared/data: OGS autoscore positions and GNU Go's scoring regression files.

* `ogs-autoscore/*.json`: `board` rows of `b` / `W` / space (row 0 at the top); `correct_ownership` rows
  of `B` / `W` / space (nobody) / `*` (either is fine) / `s` (must be sealed: counts for nobody until it
  is). The `black` / `white` fields are another engine's estimates and are never read here.
* `gnugo/score.tst`, `gnugo/score2.tst`: `loadsgf FILE [MOVE]` then `N final_score` and `#? [regex]`, the
  expected answer (a trailing `*` marks a known GNU Go failure; the answer is still the right one).
  Lines commented out (`#loadsgf`, `# loadsgf`) are positions GNU Go itself considers unfinished.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from miai.core.go import GoState, new_game, preset
from miai.formats.sgf.go import load_go

SGF_LETTERS = "abcdefghijklmnopqrstuvwxy"


@dataclass(frozen=True)
class OgsPosition:
    name: str
    state: GoState
    expected: tuple[str, ...]  # per core point: one of "BW *s"


def load_ogs(path: Path) -> OgsPosition:
    data = json.loads(path.read_text())
    rows: list[str] = data["board"]
    size = len(rows)
    setup = {}
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell in "bBwW":
                setup[(size - 1 - y) * size + x] = 0 if cell in "bB" else 1
    key = "japanese" if data.get("rules") == "japanese" else "chinese"  # the files' default is Chinese
    rules = replace(preset(key, size), allowed_sizes=(size,))
    expected = ["?"] * (size * size)
    for y, row in enumerate(data["correct_ownership"]):
        for x, cell in enumerate(row):
            expected[(size - 1 - y) * size + x] = cell
    if "?" in expected or any(cell not in "BW *s" for cell in expected):
        raise ValueError(f"{path.name}: correct_ownership is not a {size}x{size} grid of B W * s or space")
    return OgsPosition(path.stem, new_game(size, rules, setup=setup), tuple(expected))


def ogs_positions(folder: Path) -> list[OgsPosition]:
    return [load_ogs(path) for path in sorted(folder.glob("*.json"))]


def point_matches(expected: str, owner: int | None) -> bool:
    if expected == "*":
        return True
    if expected in " s":
        return owner is None
    return owner == "BW".index(expected)


def matching_points(position: OgsPosition, owner: Sequence[int | None]) -> int:
    return sum(point_matches(cell, colour) for cell, colour in zip(position.expected, owner, strict=True))


def setup_sgf(state: GoState) -> str:
    """The position as an SGF record of setup stones only, for GNU Go's `loadsgf`."""
    size = state.size

    def coord(p: int) -> str:
        row, col = divmod(p, size)
        return f"[{SGF_LETTERS[col]}{SGF_LETTERS[size - 1 - row]}]"

    black = "".join(coord(p) for p in state.stones(0))
    white = "".join(coord(p) for p in state.stones(1))
    return f"(;GM[1]FF[4]SZ[{size}]KM[0]AB{black}AW{white})"


@dataclass(frozen=True)
class ScoreCase:
    record: str  # path relative to the gnugo folder
    move: int | None  # loadsgf's MOVE: the position before that move
    pattern: str  # the expected final_score, a regular expression

    def accepts(self, answer: str) -> bool:
        return re.fullmatch(self.pattern, answer.strip()) is not None


def score_cases(gnugo: Path) -> list[ScoreCase]:
    cases = []
    for name in ("score.tst", "score2.tst"):
        current: tuple[str, int | None] | None = None
        for line in (gnugo / name).read_text().splitlines():
            text = line.strip()
            if text.startswith("loadsgf "):
                words = text.split()
                current = (words[1], int(words[2]) if len(words) > 2 else None)
            elif text.startswith("#?") and current is not None:
                found = re.match(r"#\?\s*\[(.*)\]\*?\s*$", text)
                if found is None:
                    raise ValueError(f"{name}: cannot read the expected answer {text!r}")
                cases.append(ScoreCase(current[0], current[1], found.group(1)))
                current = None
    return cases


def territory_record(path: Path, move: int | None) -> GoState:
    """A scoring record replayed under GNU Go's default counting: Japanese rules, the record's komi."""
    data = path.read_bytes()
    first = load_go(data)
    size = first.state.size
    komi = first.rules.komi_of(1)
    handicap = first.state.handicap if first.state.handicap >= 2 else 0
    rules = replace(preset("japanese", size, 2, handicap, komi), allowed_sizes=(size,))
    return load_go(data, rules=rules, upto=move).state


def margin_text(black: float, white: float) -> str:
    """A score difference as GTP's final_score writes it: `B+3.5`, `W+12.0`, `0`."""
    margin = black - white
    if margin == 0:
        return "0"
    return f"{'B' if margin > 0 else 'W'}+{abs(margin):.1f}"
