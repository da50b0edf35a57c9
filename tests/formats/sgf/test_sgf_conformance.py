"""Every real SGF file of the shared test data reads, and survives dump/parse without loss."""

from __future__ import annotations

from pathlib import Path

import pytest

from miai.formats.sgf import Collection, SgfError, as_written, dump_sgf, parse_sgf
from tests.conftest import shared_data

# Relative to the project root (see tests/conftest.py): ../shared/data/<folder>.
FOLDERS = ["gnugo/games", "fuego-repetition/sgf"]


def sgf_files(folder: str) -> tuple[Path, list[Path]]:
    """The folder (skipping, or failing under CI=true, when it is missing) and its .sgf files."""
    root = shared_data(*folder.split("/"))
    return root, sorted(root.rglob("*.sgf"))


def check_round_trip(data: bytes) -> str | None:
    """None if `data` round-trips exactly, else what went wrong."""
    first = parse_sgf(data)
    written = dump_sgf(first)
    second = parse_sgf(written)
    if second != Collection([as_written(tree) for tree in first]):
        return "parse(dump(parse(x))) differs from parse(x) beyond the root's FF and CA"
    if second.warnings:
        return f"the writer's own output draws warnings: {second.warnings[0]}"
    if dump_sgf(second) != written:
        return "writing is not idempotent"
    return None


@pytest.mark.no_cover  # untraced: a whole corpus (README, "Tests and benchmarks")
@pytest.mark.conformance
@pytest.mark.parametrize("folder", FOLDERS)
def test_every_real_file_round_trips(folder: str) -> None:
    root, files = sgf_files(folder)
    assert files, f"no .sgf file under {root}"
    failures: list[str] = []
    empty: list[Path] = []
    for path in files:
        data = path.read_bytes()
        if not data.strip():
            empty.append(path)  # nothing to read: must be refused, not invented
            continue
        try:
            problem = check_round_trip(data)
        except SgfError as exc:
            problem = f"raises {exc}"
        if problem:
            failures.append(f"{path.relative_to(root)}: {problem}")
    for path in empty:
        with pytest.raises(SgfError, match="no SGF game tree"):
            parse_sgf(path.read_bytes())
    print(f"{folder}: {len(files)} files, {len(empty)} empty (refused as expected), {len(failures)} failing")
    for failure in failures:
        print("  " + failure)
    assert len(failures) == 0, "\n".join(failures)
