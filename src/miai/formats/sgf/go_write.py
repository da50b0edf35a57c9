"""Writing Go records: a `GoState` and its whole history as an SGF game tree.

Two-colour games use only standard properties for the position and the moves, so Sabaki, GoGui and GNU
Go read them; Miai's extension properties (docs/sgf.md) carry what standard SGF cannot say: the exact
rules, more colours, team seats, resignations of seats, timeouts and automatic passes.
"""

from __future__ import annotations

from collections.abc import Mapping

from miai import __version__
from miai.core.errors import ScoringNeedsJudgement
from miai.core.go.game import EndReason, GoState
from miai.core.go.moves import Resign, Timeout
from miai.core.go.scoring import Result, outcome
from miai.formats.sgf.go_nodes import (
    EXT_COLOURS,
    EXT_OUTCOME,
    EXT_RULES,
    EXT_SEATS,
    EXT_SETUP,
    EXT_TO_MOVE,
    STRUCTURAL,
    event_properties,
)
from miai.formats.sgf.go_rules import encode_rules, ru_text
from miai.formats.sgf.times import TimeLeft, time_left_properties
from miai.formats.sgf.tree import GameTree, Node
from miai.formats.sgf.values import encode_number, encode_point, encode_point_list, encode_real
from miai.formats.sgf.writer import dump_sgf

# Set from the state; an `info` mapping cannot override them. RU and RE come from `info` only when the
# state cannot say (no rules_key given; a game that is not over or needs a dead-stone verdict).
_COMPUTED = STRUCTURAL | {"AP", "KM", "HA", "RU", "RE", EXT_OUTCOME}


def record_to_tree(
    state: GoState,
    info: Mapping[str, str] | None = None,
    rules_key: str | None = None,
    times: Mapping[int, TimeLeft] | None = None,
) -> GameTree:
    """The whole game that led to `state`: its start position at the root, then one node per event.

    `times` maps a ply (the `plies` of the state after an event) to the mover's time left, written in that
    event's node (BL/WL, OB/OW; MK/MV for colours 2 and up). TM and OT are game information: pass them in
    `info` (`TimeSystem.properties()`)."""
    info = dict(info or {})
    history = list(state.lineage())[::-1]
    start = history[0]
    size = state.size
    root = Node({"GM": "1", "FF": "4", "CA": "UTF-8", "AP": f"Miai:{__version__}", "SZ": encode_number(size)})
    if state.colours != 2:
        root.set(EXT_COLOURS, encode_number(state.colours))
    seat_counts = [len(seats) for seats in start.seats]
    if any(count != 1 for count in seat_counts):
        root.set(EXT_SEATS, [encode_number(count) for count in seat_counts])
    root.set("KM", encode_real(state.rules.komi_of(1)))
    if rules_key is not None:
        root.set("RU", ru_text(rules_key))
    elif info.get("RU"):
        root.set("RU", info["RU"])
    if start.handicap:
        root.set("HA", encode_number(start.handicap))
    root.set(EXT_RULES, encode_rules(state.rules))
    for prop, value in info.items():
        if prop not in _COMPUTED:
            root.set(prop, value)
    _result(root, state, info)
    _start_position(root, start)
    node = root
    times = times or {}
    for after in history[1:]:
        if after.last_move is None:  # an agreed draw (which sets no last_colour)
            props = event_properties(-1, None, False, size)
        else:
            props = event_properties(after.last_colour, after.last_move, after.auto_pass, size)
        if (left := times.get(after.plies)) is not None:
            props.update(time_left_properties(left))
        node = node.new_child(props)
    return GameTree(root)


def dump_go(
    state: GoState,
    info: Mapping[str, str] | None = None,
    rules_key: str | None = None,
    times: Mapping[int, TimeLeft] | None = None,
) -> bytes:
    """`record_to_tree` written as FF[4] UTF-8 bytes."""
    return dump_sgf(record_to_tree(state, info, rules_key, times))


def _start_position(root: Node, start: GoState) -> None:
    default_first = 1 if start.handicap else 0
    if start.to_move != default_first:
        if start.to_move < 2:
            root.set("PL", "BW"[start.to_move])
        else:
            root.set(EXT_TO_MOVE, encode_number(start.to_move))
    size = start.size
    position = start.position()
    for colour, prop in ((0, "AB"), (1, "AW")):
        points = [(p % size, p // size) for p, c in sorted(position.items()) if c == colour]
        if points:
            root.set(prop, encode_point_list(points, size))
    others = [
        f"{c}:{encode_point((p % size, p // size), size)}" for p, c in sorted(position.items()) if c >= 2
    ]
    if others:
        root.set(EXT_SETUP, others)


def _result(root: Node, state: GoState, info: Mapping[str, str]) -> None:
    """RE for two colours (B+R, W+T, B+3.5, 0 for a draw); MO with the full ranking for more colours."""
    try:
        result = outcome(state)
    except ScoringNeedsJudgement:
        result = None  # dead_stones=auto and no verdict: the record cannot know the score
    if result is None:
        for prop in ("RE", EXT_OUTCOME):
            if info.get(prop):
                root.set(prop, info[prop])
        return
    if state.colours == 2:
        root.set("RE", _two_colour_result(state, result))
    else:
        root.set(EXT_OUTCOME, f"{result.reason.value}:{_ranking(result)}")


def _two_colour_result(state: GoState, result: Result) -> str:
    if result.is_draw or not result.winners:
        return "0"
    winner = result.winners[0]
    side = "BW"[winner]
    if result.reason is EndReason.LAST_COLOUR:
        last_leave = next(s.last_move for s in state.lineage() if isinstance(s.last_move, Resign | Timeout))
        return f"{side}+{'T' if isinstance(last_leave, Timeout) else 'R'}"
    margin = result.scores[winner].total - result.scores[1 - winner].total
    return f"{side}+{encode_real(round(margin, 6))}"


def _ranking(result: Result) -> str:
    """`2(31.5)>0(20)=1(20)>3`: best first, ties joined by `=`, totals where the game was scored."""
    totals = {score.colour: score.total for score in result.scores}
    groups = []
    for group in result.ranking:
        names = [f"{c}({encode_real(round(totals[c], 6))})" if c in totals else str(c) for c in group]
        groups.append("=".join(names))
    return ">".join(groups)
