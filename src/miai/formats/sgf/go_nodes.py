"""The property vocabulary of Go records, and what one node means: setup stones, player to move, events.

Colours 0 and 1 use the standard properties (B, W, AB, AW, PL). Colours 2 and up, and the events that
standard SGF has no property for, use Miai's extension properties (docs/sgf.md); the root may also hold
MC (colours), MT (players per team), MU (the players), MR (exact rules) and MO (the ranking of a finished
game).

    MM[2:dd]  a move of colour 2 (`MM[2:]` is its pass)    MS[2:dd]  a setup stone of colour 2
    MX[2:resign] MX[2:timeout] MX[2:autopass] MX[draw]     MP[2]     colour 2 is to move
"""

from __future__ import annotations

from dataclasses import dataclass

from miai.core.go.moves import PASS, RESIGN, TIMEOUT, Move, Pass, Place, Resign, Timeout
from miai.core.go.vertex import format_point
from miai.formats.sgf import limits
from miai.formats.sgf.errors import SgfError
from miai.formats.sgf.limits import Budget, TooCostly
from miai.formats.sgf.tree import Node
from miai.formats.sgf.values import decode_compose, decode_move, decode_point_list, encode_move

MOVE_PROPS = {"B": 0, "W": 1}
SETUP_PROPS = {"AB": 0, "AW": 1, "AE": None}
EXT_MOVE = "MM"
EXT_SETUP = "MS"
EXT_EVENT = "MX"
EXT_TO_MOVE = "MP"
EVENT_PROPS = frozenset({*MOVE_PROPS, EXT_MOVE, EXT_EVENT})  # the properties node_events reads
EVENT_WORDS: dict[str, Resign | Timeout] = {"resign": RESIGN, "timeout": TIMEOUT}
AUTOPASS = "autopass"
DRAW = "draw"
EXT_COLOURS = "MC"
EXT_SEATS = "MT"
EXT_RULES = "MR"
EXT_OUTCOME = "MO"
EXT_PLAYERS = "MU"  # one value per player, `colour:name`, in colour and seat order
# What the writer derives from the state (the game's shape, the position and the moves): never from `info`.
STRUCTURAL = frozenset(
    {"GM", "FF", "CA", "SZ", "PL", *MOVE_PROPS, *SETUP_PROPS, EXT_MOVE, EXT_SETUP, EXT_EVENT, EXT_TO_MOVE,
     EXT_COLOURS, EXT_SEATS, EXT_RULES}
)
# What `GoRecord.info` keeps: the FF[4] game-info properties, Go's HA and KM, the writing application and
# Miai's result. Markup, comments and other programs' private properties (GNU Go's IL...) are left out.
GAME_INFO = frozenset(
    {"AN", "BR", "BT", "CP", "DT", "EV", "GN", "GC", "ON", "OT", "PB", "PC", "PW", "RE", "RO", "RU", "SO",
     "TM", "US", "WR", "WT", "HA", "KM", "AP", EXT_OUTCOME}
)
# Properties that only mean something in the root; elsewhere they are noted and ignored.
ROOT_ONLY = GAME_INFO | {"GM", "FF", "CA", "SZ", EXT_COLOURS, EXT_SEATS, EXT_RULES, EXT_PLAYERS}


def colour_name(colour: int) -> str:
    return "B" if colour == 0 else "W" if colour == 1 else f"colour {colour}"


def move_text(colour: int, move: Move | None, size: int) -> str:
    """`B C3`, `W pass`, `colour 2 resign`, `agreed draw`: how problem notes name an event."""
    if move is None:
        return "agreed draw"
    what = format_point(move.point, size) if isinstance(move, Place) else type(move).__name__.lower()
    return f"{colour_name(colour)} {what}"


@dataclass
class Event:
    """One event of a node: a move, pass, resignation, timeout or agreed draw (colour -1, move None)."""

    colour: int
    move: Move | None
    auto: bool = False  # an automatic pass (SPEC G6)
    error: str | None = None  # the event could not be read
    unreadable_move: bool = False  # a B, W or MM value that could not be read still takes a move number

    @property
    def numbered(self) -> bool:
        """Whether the event counts as a move (GNU Go's loadsgf numbering): moves and passes do."""
        return self.unreadable_move or isinstance(self.move, Place | Pass)


def _colour(text: str, colours: int) -> int:
    value = text.strip()
    # ASCII digits only ("²".isdigit()), and few enough for int() (a 5,000-digit colour is refused)
    if not (value.isascii() and value.isdigit() and len(value) <= 3) or int(value) >= colours:
        raise SgfError(f"{value!r} is not a colour of this game (0..{colours - 1})")
    return int(value)


def _point(col_row: tuple[int, int], size: int) -> int:
    col, row = col_row
    return row * size + col


def node_setup(
    node: Node, size: int, colours: int, problems: list[str], budget: Budget | None = None
) -> list[tuple[int, int | None]]:
    """The stones a node adds or removes: (point, colour or None for AE), each point once, in the order
    first named, with the colour the last property naming it gives. So a node's setup is at most the
    board's points however its values repeat or overlap; `budget` pays for each point a value names."""
    changes: dict[int, int | None] = {}
    for prop, values in node.properties.items():
        if prop not in SETUP_PROPS and prop != EXT_SETUP:
            continue
        for value in dict.fromkeys(values):  # a value repeated is read once
            try:
                if prop == EXT_SETUP:
                    first, rest = decode_compose(value)
                    colour: int | None = _colour(first, colours)
                    points = decode_point_list([rest], size, budget)
                else:
                    colour = SETUP_PROPS[prop]
                    points = decode_point_list([value], size, budget)
            except TooCostly:
                raise
            except SgfError as err:
                problems.append(f"{prop}[{value}]: {err.message}; ignored")
                continue
            for p in points:
                changes[_point(p, size)] = colour
    return list(changes.items())


def node_to_move(node: Node, colours: int, problems: list[str]) -> int | None:
    """The colour a node says is to move (PL, or MP for any colour), or None."""
    result: int | None = None
    for value in node.get_all("PL"):
        # FF[3] files sometimes write 1 for Black and 2 for White (GNU Go reads them the same way).
        text = value.strip().upper()
        if text in ("B", "1", "BLACK"):
            result = 0
        elif text in ("W", "2", "WHITE"):
            result = 1
        else:
            problems.append(f"PL[{value}]: expected B or W; ignored")
    for value in node.get_all(EXT_TO_MOVE):
        try:
            result = _colour(value, colours)
        except SgfError as err:
            problems.append(f"{EXT_TO_MOVE}[{value}]: {err.message}; ignored")
    return result


def node_events(node: Node, size: int, colours: int, budget: Budget | None = None) -> list[Event]:
    """The events of a node in file order; automatic-pass marks fold into the pass they mark. `budget`
    pays for each (a node may hold any number of moves: each is one more to replay and note)."""
    events: list[Event] = []
    autos: list[int] = []
    for prop, values in node.properties.items():
        if budget is not None and prop in EVENT_PROPS:
            budget.spend(len(values) * limits.EVENT, "its moves")
        if prop in MOVE_PROPS:
            events.extend(_move_event(MOVE_PROPS[prop], value, size, prop) for value in values)
        elif prop == EXT_MOVE:
            for value in values:
                try:
                    first, rest = decode_compose(value)
                    colour = _colour(first, colours)
                except SgfError as err:
                    error = f"{prop}[{value}]: {err.message}"
                    events.append(Event(-1, None, error=error, unreadable_move=True))
                    continue
                events.append(_move_event(colour, rest, size, prop))
        elif prop == EXT_EVENT:
            for value in values:
                events.extend(_extension_event(value, colours, autos))
    for colour in autos:
        marked = next((e for e in events if e.colour == colour and e.move == PASS and not e.auto), None)
        if marked is not None:
            marked.auto = True
        else:
            events.append(Event(colour, PASS, auto=True))
    return events


def _move_event(colour: int, value: str, size: int, prop: str) -> Event:
    try:
        point = decode_move(value, size)
    except SgfError as err:
        return Event(colour, None, error=f"{prop}[{value}]: {err.message}", unreadable_move=True)
    return Event(colour, PASS if point is None else Place(_point(point, size)))


def _extension_event(value: str, colours: int, autos: list[int]) -> list[Event]:
    if value.strip() == DRAW:
        return [Event(-1, None)]
    try:
        first, word = decode_compose(value)
        colour = _colour(first, colours)
    except SgfError as err:
        return [Event(-1, None, error=f"{EXT_EVENT}[{value}]: {err.message}")]
    word = word.strip()
    if word == AUTOPASS:
        autos.append(colour)
        return []
    if word in EVENT_WORDS:
        return [Event(colour, EVENT_WORDS[word])]
    return [Event(colour, None, error=f"{EXT_EVENT}[{value}]: unknown event {word!r}")]


def event_properties(colour: int, move: Move | None, auto: bool, size: int) -> dict[str, list[str]]:
    """The properties of the node that records one event (the writer's half of node_events)."""
    if move is None:
        return {EXT_EVENT: [DRAW]}
    if isinstance(move, Resign | Timeout):
        return {EXT_EVENT: [f"{colour}:{type(move).__name__.lower()}"]}
    if isinstance(move, Place):
        row, col = divmod(move.point, size)
        value = encode_move((col, row), size)
    else:
        value = encode_move(None, size)
    props = {"BW"[colour]: [value]} if colour < 2 else {EXT_MOVE: [f"{colour}:{value}"]}
    if auto:
        props[EXT_EVENT] = [f"{colour}:{AUTOPASS}"]
    return props
