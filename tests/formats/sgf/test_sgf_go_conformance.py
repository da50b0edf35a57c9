"""Every real record of the shared test data loads as a Go game, and two-colour records survive dump/load."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from miai.core.go import GoState, Pass, Place
from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.go import GoRecord, dump_go, load_go
from tests.conftest import shared_data

FOLDERS = ["gnugo/games", "fuego-repetition/sgf"]
SAMPLE = 50  # two-colour records checked through dump_go -> load_go


def real_records() -> list[tuple[str, bytes]]:
    """(name, bytes) of every .sgf under the folders; skips (or fails under CI=true) without the data."""
    records = []
    for folder in FOLDERS:
        root = shared_data(*folder.split("/"))
        for path in sorted(root.rglob("*.sgf")):
            records.append((f"{folder}/{path.relative_to(root)}", path.read_bytes()))
    return records


def kind_of(problem: str) -> str:
    """A problem note without its numbers and quoted values, to count how often each kind occurs."""
    return re.sub(r"\S*[0-9\[(]\S*", "#", problem)[:100]


def same_game(a: GoState, b: GoState) -> list[str]:
    checks = {
        "position": (a.position(), b.position()),
        "to move": (a.to_move, b.to_move),
        "rules": (a.rules, b.rules),
        "handicap": (a.handicap, b.handicap),
        "captures": (a.captured_by, b.captured_by),
        "moves": (a.moves(), b.moves()),
    }
    return [name for name, (x, y) in checks.items() if x != y]


@pytest.mark.no_cover  # untraced: a whole corpus (README, "Tests and benchmarks")
@pytest.mark.conformance
def test_every_real_record_loads_and_two_colour_records_round_trip() -> None:
    records = real_records()
    assert records, "no .sgf file found"
    loaded: list[tuple[str, GoRecord]] = []
    empty = []
    with_problems: dict[str, list[str]] = {}
    kinds: Counter[str] = Counter()
    for name, data in records:
        if not data.strip():
            empty.append(name)
            with pytest.raises(SgfError, match="no SGF game tree"):
                load_go(data)
            continue
        record = load_go(data)  # any exception fails the test: real records must never crash the reader
        loaded.append((name, record))
        tree = parse_sgf(data)[0]
        move_values = sum(len(n.get_all("B")) + len(n.get_all("W")) for n in tree.main_line())
        assert record.moves_played <= move_values, name
        if record.problems:
            with_problems[name] = record.problems
            kinds.update({kind_of(problem) for problem in record.problems})
    moves = sum(record.moves_played for _, record in loaded)
    print(f"\n{len(records)} records: {len(loaded)} loaded ({moves} moves), {len(empty)} empty (refused), "
          f"{len(with_problems)} with problems")
    for kind, count in kinds.most_common():
        print(f"  {count:4} records: {kind}")
    for name, problems in sorted(with_problems.items()):
        illegal = [problem for problem in problems if problem.startswith("move ")]
        if illegal:
            print(f"  {name}: {illegal[0]}" + (f" (+{len(illegal) - 1} more)" if len(illegal) > 1 else ""))
    assert len(loaded) + len(empty) == len(records)

    step = max(1, len(loaded) // SAMPLE)
    sample = [(name, record) for name, record in loaded[::step] if record.state.colours == 2][:SAMPLE]
    failures = []
    for name, record in sample:
        again = load_go(dump_go(record.state, record.info, record.rules_key))
        differences = same_game(again.state, record.state)
        if differences or again.info.get("PB") != record.info.get("PB"):
            failures.append(f"{name}: {', '.join(differences) or 'info'} differ")
    played = sum(isinstance(m, Place | Pass) for _, record in sample for _, m in record.state.moves())
    print(f"round trip: {len(sample)} two-colour records, {played} moves, {len(failures)} failing")
    assert len(sample) >= SAMPLE * 0.9
    assert failures == []
