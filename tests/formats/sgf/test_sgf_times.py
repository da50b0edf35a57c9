"""Time in records: TM and OT as KGS and OGS write them, and the time left after each move (BL/WL, OB/OW, and
MK/MV for colours 2 and up) written by dump_go / dump_game and read back by load_go / read_game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miai.core import amazons, hex
from miai.core.clock import ClockMode, TeamClock, TimeControl
from miai.core.go import PASS, RESIGN, GoState, Place, new_game
from miai.core.twoplayer import Place as Cell
from miai.formats.sgf import Node, SgfError, parse_sgf
from miai.formats.sgf.games import dump_game, read_game
from miai.formats.sgf.go import dump_go, load_go
from miai.formats.sgf.times import TimeLeft, TimeSystem, read_time_system, time_left_properties
from tests.formats.sgf.test_sgf_go_roundtrip import events, games, snapshot

BYOYOMI = TimeControl(600, ClockMode.BYOYOMI, main=600, periods=3, period=30)
FISCHER = TimeControl(600, ClockMode.FISCHER, main=300, increment=10)


@pytest.mark.parametrize(
    ("control", "props"),
    [
        (BYOYOMI, {"TM": "600", "OT": "3x30 byo-yomi"}),  # KGS and OGS
        (TimeControl(60, ClockMode.BYOYOMI, periods=1, period=7.5), {"TM": "0", "OT": "1x7.5 byo-yomi"}),
        (FISCHER, {"TM": "300", "OT": "10 fischer"}),  # OGS
        (TimeControl(60, ClockMode.FISCHER, main=90.25, increment=0), {"TM": "90.25"}),  # absolute: TM only
    ],
)
def test_time_systems_are_written_as_kgs_and_ogs_write_them(
    control: TimeControl, props: dict[str, str]
) -> None:
    system = TimeSystem.of(control)
    assert system is not None and system.properties() == props
    assert read_time_system(Node(dict(props)), []) == system


def test_a_per_move_limit_alone_has_no_time_system() -> None:
    assert TimeSystem.of(TimeControl(86400)) is None


@pytest.mark.parametrize(
    ("tm", "ot", "expected"),
    [
        ("1800", "5x30 byo-yomi", TimeSystem(ClockMode.BYOYOMI, 1800, periods=5, period=30)),  # KGS
        ("300", "3X30 Byoyomi", TimeSystem(ClockMode.BYOYOMI, 300, periods=3, period=30)),
        ("600", "10 Fischer", TimeSystem(ClockMode.FISCHER, 600, increment=10)),  # OGS's goban tests
        ("259200", "86400 fischer", TimeSystem(ClockMode.FISCHER, 259200, increment=86400)),  # OGS, by mail
        ("2700", None, TimeSystem(ClockMode.FISCHER, 2700)),  # KGS absolute
        (None, "3x10 byo-yomi", TimeSystem(ClockMode.BYOYOMI, 0, periods=3, period=10)),
    ],
)
def test_other_programs_time_systems_are_read(tm: str | None, ot: str | None, expected: TimeSystem) -> None:
    props = {p: v for p, v in (("TM", tm), ("OT", ot)) if v is not None}
    problems: list[str] = []
    assert read_time_system(Node(props), problems) == expected
    assert problems == []


@pytest.mark.parametrize(
    ("props", "note"),
    [
        ({"TM": "5400", "OT": "25/600 Canadian"}, "TM[5400] OT[25/600 Canadian]: not a time system"),
        ({"TM": "0", "OT": "259200 simple"}, "TM[0] OT[259200 simple]: not a time system Miai plays"),
        ({"TM": "ten minutes"}, "TM: invalid real number [ten minutes]"),
        ({"TM": "-5"}, "TM[-5]: the main time cannot be negative"),
        ({"TM": "0", "OT": "0x30 byo-yomi"}, "OT[0x30 byo-yomi]: not a time system"),
    ],
)
def test_time_systems_miai_cannot_play_are_noted(props: dict[str, str], note: str) -> None:
    problems: list[str] = []
    assert read_time_system(Node(dict(props)), problems) is None
    assert len(problems) == 1 and note in problems[0]


def test_no_tm_or_a_zero_tm_is_no_clock() -> None:
    problems: list[str] = []
    assert read_time_system(Node({"PB": ["x"]}), problems) is None
    assert read_time_system(Node({"TM": ["0"]}), problems) is None
    assert problems == []


def test_byoyomi_time_left_follows_kgs() -> None:
    """Main time left alone; once in byo-yomi the full period (it restarts after a move) and the periods."""
    system = TimeSystem.of(BYOYOMI)
    assert system is not None
    assert system.time_left(0, TeamClock(main=512.4, periods=3)) == TimeLeft(0, 512.4)
    assert system.time_left(1, TeamClock(main=0.0, periods=2)) == TimeLeft(1, 30, 2)
    assert time_left_properties(TimeLeft(0, 512.4)) == {"BL": ["512.4"]}
    assert time_left_properties(TimeLeft(1, 30, 2)) == {"WL": ["30"], "OW": ["2"]}
    assert time_left_properties(TimeLeft(3, 1 / 3, 0)) == {"MK": ["3:0.333"], "MV": ["3:0"]}


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([ClockMode.FISCHER, ClockMode.BYOYOMI]),
    st.integers(0, 7200),
    st.integers(0, 60),
    st.integers(1, 10),
    st.lists(st.floats(0, 200, allow_nan=False), max_size=30),
)
def test_the_written_time_left_gives_the_clock_back(
    mode: ClockMode, main: int, extra: int, periods: int, thinking: list[float]
) -> None:
    """Replaying a clock move by move: what a node says (at three decimals) stands for the clock itself."""
    control = TimeControl(10**6, mode, main=main or 1, increment=extra, periods=periods, period=extra or 1)
    system = TimeSystem.of(control)
    assert system is not None
    clock = control.start()
    for elapsed in thinking:
        clock = clock.after_move(control, elapsed)
        props = time_left_properties(system.time_left(0, clock))
        written = dump_go(new_game(9).play(PASS), system.properties(), times={1: system.time_left(0, clock)})
        back = load_go(written)
        periods_left = int(props["OB"][0]) if "OB" in props else None
        assert back.times[1] == TimeLeft(0, float(props["BL"][0]), periods_left)
        again = system.clock(back.times[1])
        assert again is not None
        if mode is ClockMode.BYOYOMI:  # Fischer has no periods (a Fischer TimeControl may still hold some)
            assert again.periods == clock.periods
        assert again.main == pytest.approx(clock.main, abs=0.0005)


@st.composite
def games_with_times(draw: st.DrawFn) -> tuple[GoState, dict[int, TimeLeft]]:
    state = draw(games())
    times = {}
    for s in list(state.lineage())[:-1]:
        if draw(st.integers(0, 3)) == 0:
            continue
        seconds = draw(st.none() | st.floats(0, 10**6, allow_nan=False))
        periods = draw(st.none() | st.integers(0, 50))
        times[s.plies] = TimeLeft(max(s.last_colour, 0), seconds, periods)
    return state, times


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_with_times())
def test_time_left_survives_dump_then_load(game: tuple[GoState, dict[int, TimeLeft]]) -> None:
    state, times = game
    data = dump_go(state, {"TM": "600", "OT": "3x30 byo-yomi"}, times=times)
    record = load_go(data)
    assert record.problems == []
    assert snapshot(record.state) == snapshot(state) and events(record.state) == events(state)
    written = {
        ply: TimeLeft(left.colour, None if left.seconds is None else round(left.seconds, 3), left.periods)
        for ply, left in times.items()
        if left.seconds is not None or left.periods is not None
    }
    assert record.times == written  # in Miai's records a node's index is the ply of its event
    assert record.time_system == TimeSystem(ClockMode.BYOYOMI, 600, periods=3, period=30)
    assert dump_go(record.state, record.info, times=record.times) == data
    names = {"BL", "WL", "OB", "OW", "MK", "MV"}
    if state.colours == 2:
        assert all(not node.has("MK") and not node.has("MV") for node in parse_sgf(data)[0].nodes())
    assert sum(any(node.has(p) for p in names) for node in parse_sgf(data)[0].nodes()) == len(written)


def test_the_reader_keeps_the_movers_time_and_notes_what_it_cannot_use() -> None:
    data = (
        b"(;GM[1]FF[4]SZ[9]MC[3]TM[60]OT[2x10 byo-yomi]"
        b";B[ee]BL[55.5]WL[60]"  # both colours: Black moved here
        b";W[ef]WL[oops]"
        b";MM[2:eg]MK[2:10][5:3]MV[2:1]"
        b";B[dd]OB[-1])"
    )
    record = load_go(data)
    assert record.times == {1: TimeLeft(0, 55.5), 3: TimeLeft(2, 10, 1)}
    assert record.problems == [
        "node 1: time left of W besides B's; only B's is kept",
        "node 2: WL[oops]: invalid real number [oops]: expected a decimal such as 6.5; ignored",
        "node 3: MK[5:3]: 5 is not a colour of this game; ignored",
        "node 4: OB[-1]: time and periods left cannot be negative; ignored",
    ]


def test_a_resignation_after_a_clocked_move_keeps_both() -> None:
    state = new_game(9).play(Place(40)).play(RESIGN)
    data = dump_go(state, times={1: TimeLeft(0, 12.5)})
    assert parse_sgf(data)[0].root.children[0].properties == {"B": ["ee"], "BL": ["12.5"]}
    assert load_go(data).times == {1: TimeLeft(0, 12.5)}


@pytest.mark.parametrize("kind", ["hex", "amazons"])
def test_other_kinds_write_and_read_time_left_by_colour_letter(kind: str) -> None:
    state: hex.HexState | amazons.AmazonsState
    if kind == "hex":
        state = hex.new_game(5).play(Cell(0)).play(Cell(24)).play(Cell(12))
    else:
        state = amazons.new_game()
        for _ in range(3):
            state = state.play(state.legal_moves()[0])
    times = {1: TimeLeft(0, 59.5), 2: TimeLeft(1, 30, 2), 3: TimeLeft(0, 50.125)}
    info = {"TM": "60", "OT": "3x30 byo-yomi"}
    data = dump_game(kind, state, info, times)
    moves = [node.properties for node in parse_sgf(data)[0].main_line()][1:]
    first, second = ("B", "W") if kind == "hex" else ("W", "B")  # Amazons: player 0 is White
    assert [{p: v for p, v in m.items() if p not in ("B", "W")} for m in moves] == [
        {f"{first}L": ["59.5"]},
        {f"{second}L": ["30"], f"O{second}": ["2"]},
        {f"{first}L": ["50.125"]},
    ]
    record = read_game(data)
    assert record.times == times
    assert record.time_system == TimeSystem(ClockMode.BYOYOMI, 60, periods=3, period=30)
    assert dump_game(kind, record.state, record.info, record.times) == data


def test_other_kinds_refuse_an_unreadable_time_left() -> None:
    data = b"(;FF[4]GM[11]SZ[5]PL[B]TM[60];B[a1]BL[soon])"
    with pytest.raises(SgfError, match=r"node 1: BL\[soon\]: invalid real number"):
        read_game(data)
