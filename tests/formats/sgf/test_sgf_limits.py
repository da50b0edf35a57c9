"""Reading is bounded by the board and a budget of work, not by the size of the file (limits.py).

Every shape here is a megabyte, the largest upload, built to cost as much as possible: it either reads to
what it means or stops with an SgfError that says why, within a stated peak of memory (tracemalloc, which
counts what Python allocates while reading; the bytes themselves are built before). Before these limits a
megabyte of `AB[aa:yy]` made 73 million points (gigabytes), a megabyte of `;` a million nodes (230 MB)
before the node count was checked, and stray values or parentheses took minutes (each warning located over
the whole text). Nothing is timed: a reader that is quadratic again meets the suite's per-test timeout.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.games import read_game
from miai.formats.sgf.go_read import load_go
from miai.formats.sgf.limits import Budget, ReadLimits
from miai.formats.sgf.values import decode_point_list, encode_point
from tests.formats.sgf.hostile import MIB, REPEATED, fill, identifiers, rectangles

# The limits the server reads uploads with (server/play/uploads.py UPLOAD_LIMITS; a test there checks it).
UPLOAD = ReadLimits(nodes=20_000, depth=1_000, work=500_000)
PEAK_MB = 50  # the most one reading of a megabyte may allocate, whatever its shape (500,000 units)


def measured(read: Callable[[], Any]) -> tuple[Any, float]:
    """What `read` returns (or the SgfError it raises) and the peak it allocated, in MB."""
    gc.collect()
    tracemalloc.start()
    try:
        result = read()
    except SgfError as err:
        result = err
    finally:
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
    return result, peak


def upload_read(data: bytes) -> Any:
    """The reading an upload gets: the tree and the main line replayed, on one budget."""
    budget = Budget(UPLOAD)
    return load_go(parse_sgf(data, budget), budget=budget)


# What the upload limits refuse, and the reason they give.
REFUSED = {
    "a megabyte of empty nodes": (fill(b"(;GM[1]SZ[9]", b";"), "more than 20,000 nodes"),
    "a megabyte of game trees": (fill(b"", b"(;)", b""), "more than 20,000 nodes"),
    "a megabyte of open parentheses": (fill(b"(;GM[1]SZ[9]", b"("), "nested more than 1,000 deep"),
    "nested variations": (fill(b"(;GM[1]SZ[9]", b"(;B[aa]"), "nested more than 1,000 deep"),
    "a megabyte of empty variations": (fill(b"(;GM[1]SZ[9]", b"()"), "reading its variations went over"),
    "a megabyte of stray values": (fill(b"(;GM[1]SZ[9];", b"[]"), "reading its property values went over"),
    "a megabyte of passes in one node": (fill(b"(;GM[1]SZ[9];B", b"[]"), "its property values went over"),
    "a megabyte of moves in one node": (fill(b"(;GM[1]SZ[25];B", b"[aa]"), "reading its moves went over"),
    "distinct overlapping rectangles": (
        b"(;GM[1]SZ[25]AB" + rectangles(25, MIB - 40) + b")",
        "reading its point lists went over the 500,000 units",
    ),
    "170,000 properties in a node": (
        b"(;GM[1]SZ[9]" + identifiers((MIB - 20) // 6) + b")",
        "too costly to read: reading its propert",  # its properties, or their values
    ),
    # Fewer nodes than the limit, each naming the whole board: the budget stops it as the points come.
    "a rectangle in each of 19,000 nodes": (
        b"(;GM[1]SZ[25]" + b";AE[aa:yy]" * 19_000 + b")",
        "its point lists went over",
    ),
}


@pytest.mark.no_cover  # untraced: megabytes (README, "Tests and benchmarks")
@pytest.mark.parametrize("shape", REFUSED)
def test_hostile_shapes_stop_with_the_reason_within_bounded_memory(shape: str) -> None:
    data, reason = REFUSED[shape]
    result, peak = measured(lambda: upload_read(data))
    assert isinstance(result, SgfError), f"{shape} was read: {result!r}"
    assert reason in str(result), str(result)
    assert peak < PEAK_MB, f"{shape}: {peak:.1f} MB"


def test_the_node_limit_stops_the_reading_at_the_node_past_it() -> None:
    """Checked as the nodes come, before a tree is built: the error points at node 20,001."""
    head = b"(;GM[1]SZ[9]"
    result, peak = measured(lambda: parse_sgf(fill(head, b";"), Budget(UPLOAD)))
    assert isinstance(result, SgfError)
    assert (result.line, result.column) == (1, len(head) + 20_000)  # the root is node 1
    assert peak < 10, f"{peak:.1f} MB"


@pytest.mark.no_cover  # untraced: megabytes (README, "Tests and benchmarks")
@pytest.mark.parametrize("limits", ["upload", "default"])
@pytest.mark.parametrize("shape", REPEATED)
def test_the_board_bounds_repeated_compressed_lists(shape: str, limits: str) -> None:
    """600 stones, each read once, with the upload's limits and with the default ones (files on one's own
    disk): the board bounds them, not the budget."""
    data = REPEATED[shape]
    record, peak = measured(lambda: upload_read(data) if limits == "upload" else load_go(data))
    assert not isinstance(record, SgfError), record
    position = record.state.position()
    assert len(position) == 600 and set(position.values()) == {0}
    assert peak < PEAK_MB, f"{peak:.1f} MB"


def test_a_point_list_is_a_set_of_the_boards_points() -> None:
    budget = Budget(ReadLimits(work=1_000))
    points = decode_point_list(["aa:ss"] * 100_000 + ["aa", "ss:aa"], 19, budget)
    assert len(points) == 361 and len(set(points)) == 361
    assert budget.spent == 361  # the repeats named nothing new: read once; the board was full then
    overlapping = ["aa:rr", "ab:rr", "ba:rr", "bb:rr"]  # 324 + 306 + 306 + 289 points, never all 361
    with pytest.raises(SgfError, match="too costly to read: reading its point lists"):
        decode_point_list(overlapping, 19, Budget(ReadLimits(work=1_000)))


@pytest.mark.no_cover  # untraced: megabytes (README, "Tests and benchmarks")
def test_the_other_games_point_lists_are_bounded_too() -> None:
    """Amazons (GM[18]) arrows: a rectangle repeated is one set of arrows; distinct ones pay per point."""
    repeated = fill(b"(;GM[18]SZ[19]AW[as]AB[bs]AA", b"[ca:sr]")
    game, peak = measured(lambda: read_game(repeated))
    assert not isinstance(game, SgfError), game
    assert len(game.state.arrows()) == 17 * 18
    assert peak < PEAK_MB, f"{peak:.1f} MB"
    distinct = b"(;GM[18]SZ[19]AW[as]AB[bs]AA" + rectangles(19) + b")"
    result, peak = measured(lambda: read_game(distinct, Budget(UPLOAD)))
    assert isinstance(result, SgfError) and "too costly to read" in str(result)
    assert peak < PEAK_MB, f"{peak:.1f} MB"


# Big values are read as they are: the text is the limit (an upload's body), and it costs its size.
READ = {
    "a megabyte comment": (fill(b"(;GM[1]SZ[9]C[", b"x", b"];B[ee])"), "C", "x"),
    "a megabyte player name": (fill(b"(;GM[1]SZ[9]PB[", b"<script>", b"];B[ee])"), "PB", "<script>"),
    "a megabyte of escapes": (fill(b"(;GM[1]SZ[9]GN[", b"\\]", b"];B[ee])"), "GN", "]"),
    "a megabyte of NUL": (fill(b"(;GM[1]SZ[9]C[", b"\x00", b"];B[ee])"), "C", "\x00"),
    "bytes that are not UTF-8": (fill(b"(;GM[1]SZ[9]C[", b"\xff\xfe", b"];B[ee])"), "C", "\xff\xfe"),
    # UTF-8 of a lone surrogate is no UTF-8: read as ISO-8859-1, so the text holds no lone surrogate
    "encoded lone surrogates": (fill(b"(;GM[1]SZ[9]PW[", b"\xed\xa0\x80", b"];B[ee])"), "PW", "\xed\xa0\x80"),
}


@pytest.mark.no_cover  # untraced: megabytes (README, "Tests and benchmarks")
@pytest.mark.parametrize("shape", READ)
def test_huge_values_read_literally_within_ten_times_their_size(shape: str) -> None:
    data, prop, unit = READ[shape]
    collection, peak = measured(lambda: parse_sgf(data, Budget(UPLOAD)))
    assert not isinstance(collection, SgfError), collection
    value = collection[0].root.get(prop)
    assert value is not None and len(value) > 100_000
    assert value == unit * (len(value) // len(unit))
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    assert peak < 10 * len(data) / 1e6, f"{shape}: {peak:.1f} MB"
    assert upload_read(data).state.moves()[0][1].point == 40  # E5, whatever came before


def test_warnings_past_the_limit_are_counted_in_one() -> None:
    """The rule of the megabyte below, traced: two warnings listed, then one for the other three."""
    head = b"(;GM[1]SZ[9];"
    collection = parse_sgf(head + b"[x]" * 5 + b")", Budget(ReadLimits(warnings=2)))
    messages = [w.message for w in collection.warnings]
    assert messages[:2] == ["a value with no property identifier ignored: [x]"] * 2
    assert messages[2:] == ["3 more warnings like the ones above, from here on, not listed"]
    assert (collection.warnings[-1].line, collection.warnings[-1].column) == (1, len(head) + 3 * 2 + 1)


@pytest.mark.no_cover  # untraced: megabytes (README, "Tests and benchmarks")
def test_warnings_past_a_hundred_are_counted_in_one() -> None:
    """A megabyte of stray values under the default limits: 100 warnings listed, then one for the rest."""
    head = b"(;GM[1]SZ[9];"
    data = fill(head, b"[x]")
    collection, peak = measured(lambda: parse_sgf(data))
    assert not isinstance(collection, SgfError), collection
    warnings = collection.warnings
    assert len(warnings) == 101
    assert all("a value with no property identifier ignored: [x]" in w.message for w in warnings[:100])
    more = (len(data) - len(head) - 1) // 3 - 100
    assert warnings[-1].message == f"{more:,} more warnings like the ones above, from here on, not listed"
    assert (warnings[-1].line, warnings[-1].column) == (1, len(head) + 3 * 100 + 1)
    assert peak < PEAK_MB, f"{peak:.1f} MB"


def test_long_identifiers_and_values_are_quoted_short() -> None:
    data = b"(;GM[1]SZ[9]" + b"a" * 100_000 + b"[x]" + b"Q" * 100_000 + b";" + b"[" + b"y" * 100_000 + b"])"
    messages = [w.message for w in parse_sgf(data).warnings]
    assert all(len(m) < 120 for m in messages), messages
    assert any(m.startswith("lower-case property identifier aaaa") for m in messages)


def test_the_replay_pays_for_the_positions_it_keeps() -> None:
    """A long main line on 25x25 costs its positions: refused under a small budget, read under the
    default one (the budget, not the node count, bounds what a replay keeps)."""
    points = [(col, row) for row in range(25) for col in range(0, 25, 2)]  # every other column: no capture
    moves = [f";{'BW'[i % 2]}[{encode_point(p, 25)}]" for i, p in enumerate(points)]
    data = ("(;GM[1]SZ[25]" + "".join(moves) + ")").encode()
    small = Budget(ReadLimits(work=20_000))
    with pytest.raises(SgfError, match="reading its moves and positions replayed went over the 20,000"):
        load_go(parse_sgf(data, small), budget=small)
    assert load_go(data).moves_played == len(points)
