"""Time in SGF records: the time system in the root (TM, OT) and the time left after each move.

Written as KGS (CGoban) and OGS write them, so their readers, Sabaki and OGS's goban read Miai's records:

    TM[600]OT[3x30 byo-yomi]   600 s of main time, then 3 byo-yomi periods of 30 s (KGS, OGS)
    TM[300]OT[10 fischer]      300 s to start with, 10 s added after each move (OGS)
    TM[300]                    an absolute clock, Fischer without an increment (TM alone, as OGS reads it)
    B[dd]BL[512.4]             Black has 512.4 s of main time left after this move
    W[pp]WL[30]OW[2]           White is in byo-yomi: 2 periods left, the current one full again (KGS)
    MM[2:cc]MK[2:42.5]         the same for colours 2 and up, Miai's extension properties (MK, and MV for
                               the periods), as MM is for their moves

Seconds are written with at most three decimals. Nothing here reads a clock: the caller gives the time
left that its own clock computed (the server stores it with each move).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from miai.core.clock import ClockMode, TeamClock, TimeControl
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.tree import Node
from miai.formats.sgf.values import decode_compose, decode_number, decode_real, encode_number, encode_real

TIME_LEFT = {0: "BL", 1: "WL"}
PERIODS_LEFT = {0: "OB", 1: "OW"}
EXT_TIME_LEFT = "MK"  # colour:seconds, as BL/WL
EXT_PERIODS_LEFT = "MV"  # colour:periods, as OB/OW
DECIMALS = 3

_NUMBER = r"(\d+(?:\.\d+)?)"
# The OT forms of KGS and OGS (also read by OGS's goban and by KataGo), any case, spaces optional.
_BYOYOMI = re.compile(rf"([0-9]{{1,9}})\s*x\s*{_NUMBER}\s*byo-?yomi", re.IGNORECASE)
_FISCHER = re.compile(rf"{_NUMBER}\s*fischer", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class TimeSystem:
    """A clock as TM and OT describe it: Fischer (an absolute clock is Fischer without increment) or
    byo-yomi. Miai's per-move limit has no SGF property and is not part of it."""

    mode: ClockMode
    main: float
    increment: float = 0.0
    periods: int = 0
    period: float = 0.0

    @staticmethod
    def of(control: TimeControl) -> TimeSystem | None:
        """The clock of a time control; None for a per-move limit only (nothing is written for it)."""
        if control.mode is ClockMode.FISCHER:
            return TimeSystem(ClockMode.FISCHER, control.main, increment=control.increment)
        if control.mode is ClockMode.BYOYOMI:
            return TimeSystem(ClockMode.BYOYOMI, control.main, periods=control.periods, period=control.period)
        return None

    def properties(self) -> dict[str, str]:
        """TM and, unless the clock is absolute, OT."""
        props = {"TM": _seconds(self.main)}
        if self.mode is ClockMode.BYOYOMI:
            props["OT"] = f"{self.periods}x{_seconds(self.period)} byo-yomi"
        elif self.increment:
            props["OT"] = f"{_seconds(self.increment)} fischer"
        return props

    def time_left(self, colour: int, clock: TeamClock) -> TimeLeft:
        """What a move's node says of the mover's clock after the move. In byo-yomi the current period
        starts again after each move, so KGS writes its full length with the periods left; OB/OW appear
        only once main time is used up."""
        if self.mode is ClockMode.BYOYOMI and clock.main <= 0:
            return TimeLeft(colour, self.period, clock.periods)
        return TimeLeft(colour, clock.main)

    def clock(self, left: TimeLeft) -> TeamClock | None:
        """The team clock a node's time left stands for (the inverse of `time_left`); None without BL/WL."""
        if left.seconds is None:
            return None
        if self.mode is not ClockMode.BYOYOMI:
            return TeamClock(main=left.seconds)
        if left.periods is None:
            return TeamClock(main=left.seconds, periods=self.periods)  # still in main time: periods unused
        return TeamClock(main=0.0, periods=left.periods)


@dataclass(frozen=True, slots=True)
class TimeLeft:
    """One colour's time left after a move: seconds (BL/WL/MK) and byo-yomi periods (OB/OW/MV)."""

    colour: int
    seconds: float | None = None
    periods: int | None = None


def _seconds(value: float) -> str:
    return encode_real(round(value, DECIMALS))


def time_left_properties(left: TimeLeft) -> dict[str, list[str]]:
    """The properties that record `left` in a move's node."""
    props: dict[str, list[str]] = {}
    colour = left.colour
    if left.seconds is not None:
        seconds = _seconds(max(0.0, left.seconds))
        if colour < 2:
            props[TIME_LEFT[colour]] = [seconds]
        else:
            props[EXT_TIME_LEFT] = [f"{colour}:{seconds}"]
    if left.periods is not None:
        periods = encode_number(left.periods)
        if colour < 2:
            props[PERIODS_LEFT[colour]] = [periods]
        else:
            props[EXT_PERIODS_LEFT] = [f"{colour}:{periods}"]
    return props


def read_time_system(root: Node, problems: list[str]) -> TimeSystem | None:
    """The clock TM and OT describe, or None (with a note when they are there but not a clock Miai plays)."""
    tm, ot = root.get("TM"), root.get("OT")
    if tm is None and ot is None:
        return None
    main = 0.0
    if tm is not None and tm.strip():
        try:
            main = decode_real(tm)
        except SgfError as err:
            problems.append(f"TM: {err.message}; no time system read")
            return None
        if main < 0:
            problems.append(f"TM[{tm}]: the main time cannot be negative; no time system read")
            return None
    text = (ot or "").strip()
    if match := _BYOYOMI.fullmatch(text):
        periods, period = int(match[1]), float(match[2])
        if periods >= 1 and 0 < period < math.inf:
            return TimeSystem(ClockMode.BYOYOMI, main, periods=periods, period=period)
    elif match := _FISCHER.fullmatch(text):
        if main > 0 and float(match[1]) < math.inf:  # 400 digits and more are infinite as a float
            return TimeSystem(ClockMode.FISCHER, main, increment=float(match[1]))
    elif not text:
        if main > 0:
            return TimeSystem(ClockMode.FISCHER, main)  # an absolute clock
        return None  # TM[0]: no clock
    problems.append(f"TM[{tm or ''}] OT[{ot}]: not a time system Miai plays (byo-yomi, Fischer, absolute); "
                    "kept as text in info")
    return None


def node_times(node: Node, colours: int, where: str, problems: list[str]) -> dict[int, TimeLeft]:
    """The time left a node records, by colour; unreadable values are noted and ignored."""
    seconds: dict[int, float] = {}
    periods: dict[int, int] = {}
    for label, colour, text in _entries(node, TIME_LEFT, EXT_TIME_LEFT, where, problems):
        if (number := _checked(label, colour, colours, text, decode_real, problems)) is not None:
            seconds[colour] = number
    for label, colour, text in _entries(node, PERIODS_LEFT, EXT_PERIODS_LEFT, where, problems):
        if (count := _checked(label, colour, colours, text, decode_number, problems)) is not None:
            periods[colour] = count
    return {
        colour: TimeLeft(colour, seconds.get(colour), periods.get(colour))
        for colour in sorted(seconds.keys() | periods.keys())
    }


def _entries(
    node: Node, standard: dict[int, str], extension: str, where: str, problems: list[str]
) -> Iterator[tuple[str, int, str]]:
    """(label for notes, colour, value text) of the standard properties (colours 0 and 1) and of the
    extension property (`colour:value`)."""
    for colour, prop in standard.items():
        for value in node.get_all(prop):
            yield f"{where}: {prop}[{value}]", colour, value
    for value in node.get_all(extension):
        label = f"{where}: {extension}[{value}]"
        try:
            first, rest = decode_compose(value)
            colour = decode_number(first)
        except SgfError as err:
            problems.append(f"{label}: {err.message}; ignored")
            continue
        yield label, colour, rest


_T = TypeVar("_T", int, float)


def _checked(
    label: str, colour: int, colours: int, text: str, decode: Callable[[str], _T], problems: list[str]
) -> _T | None:
    if not 0 <= colour < colours:
        problems.append(f"{label}: {colour} is not a colour of this game; ignored")
        return None
    try:
        number = decode(text)
    except SgfError as err:
        problems.append(f"{label}: {err.message}; ignored")
        return None
    if number < 0:
        problems.append(f"{label}: time and periods left cannot be negative; ignored")
        return None
    return number
