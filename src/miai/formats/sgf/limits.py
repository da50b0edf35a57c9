"""What reading one SGF record may cost: limits on its shape and a budget of work, spent as it is read.

The size of a file bounds nothing by itself: seven bytes `AB[aa:yy]` name 625 points, and a megabyte of
them named 94 million before these limits. So the grammar counts nodes and open variations as it reads
(before a tree is built), and every reader spends one `Budget` per record on what costs memory or time:

    a node              NODE units      a property value    VALUE unit
    a new property      PROPERTY units  a point of a list   POINT unit (each point a rectangle names)
    a move or event     EVENT units (read, then replayed and noted: objects at every step)
    a position replayed and kept (a move, a setup node): POSITION units, and one more per POSITION_CELLS
    points of its board; a position replayed and dropped (a variation's move once its line is read): PLAY

A unit is about one small Python object (roughly 100 bytes, or a microsecond or two of work), so a budget
of N units keeps a reading within about N * 100 bytes. Past a limit, SgfError says which one.
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.formats.sgf.errors import SgfError

NODE = 2  # a Node: its object, its property dict and its children list
PROPERTY = 2  # a property's name and list in a node's dict
VALUE = 1
POINT = 1
EVENT = 4
POSITION = 5  # a replayed position (GoState) keeps about 500 bytes, and 10 more per point of its board
POSITION_CELLS = 10
PLAY = 10  # a move played takes some 10 to 30 microseconds


@dataclass(frozen=True)
class ReadLimits:
    """The most one reading may cost. The defaults suit files on one's own disk (the largest real records,
    joseki dictionaries, have some 100,000 nodes); the server reads uploads with far tighter ones."""

    nodes: int = 1_000_000  # nodes of the whole file, every game tree and variation
    depth: int = 10_000  # variations open at once: '(' inside '(' ...
    work: int = 5_000_000  # units, as above: some 500 MB at most
    warnings: int = 100  # warnings kept; the others are counted in one last warning


class TooCostly(SgfError):
    """A reading went over its budget: never a problem to note and read on from, unlike other SgfErrors."""


class Budget:
    """The work left for one reading; `spend` raises TooCostly naming what it was reading then."""

    __slots__ = ("limits", "spent")

    def __init__(self, limits: ReadLimits | None = None) -> None:
        self.limits = limits or ReadLimits()
        self.spent = 0

    def spend(self, units: int, what: str) -> None:
        self.spent += units
        if self.spent > self.limits.work:
            raise TooCostly(
                f"the record is too costly to read: reading {what} went over the {self.limits.work:,} "
                "units of work one record may take"
            )

    def position(self, size: int) -> None:
        """One position replayed, and kept, on a size x size board."""
        self.spend(POSITION + size * size // POSITION_CELLS, "its moves and positions replayed")
