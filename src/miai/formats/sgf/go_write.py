"""Writing Go records: a `GoState` and its whole history as an SGF game tree.

Two-colour games use only standard properties for the position and the moves, so Sabaki, GoGui and GNU
Go read them; Miai's extension properties (docs/sgf.md) carry what standard SGF cannot say: the exact
rules, more colours, team seats, resignations of seats, timeouts and automatic passes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from miai import __version__
from miai.core.errors import ScoringNeedsJudgement
from miai.core.go.game import EndReason, GoState
from miai.core.go.moves import Resign, Timeout
from miai.core.go.scoring import Result, outcome
from miai.formats.sgf.go_nodes import (
    EXT_COLOURS,
    EXT_OUTCOME,
    EXT_PLAYERS,
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
_COMPUTED = STRUCTURAL | {"AP", "KM", "HA", "RU", "RE", EXT_OUTCOME, EXT_PLAYERS}


def record_to_tree(
    state: GoState,
    info: Mapping[str, str] | None = None,
    rules_key: str | None = None,
    times: Mapping[int, TimeLeft] | None = None,
    players: Mapping[int, Sequence[str]] | None = None,
) -> GameTree:
    """The whole game that led to `state`: its start position at the root, then one node per event.

    `times` maps a ply (the `plies` of the state after an event) to the mover's time left, written in that
    event's node (BL/WL, OB/OW; MK/MV for colours 2 and up). TM and OT are game information: pass them in
    `info` (`TimeSystem.properties()`). `players` maps a colour to its players' names in seat order: PB
    and PW (a team's names joined by ", "), and MU with every player when a game has more than two colours
    or a team of several players."""
    info = dict(info or {})
    players = {colour: list(names) for colour, names in (players or {}).items() if names}
    for colour, prop in ((0, "PB"), (1, "PW")):
        if colour in players:
            info[prop] = ", ".join(players[colour])
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
    if players and (state.colours != 2 or root.has(EXT_SEATS)):  # PB and PW cannot tell who is who
        root.set(EXT_PLAYERS, [f"{c}:{name}" for c, names in sorted(players.items()) for name in names])
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
    players: Mapping[int, Sequence[str]] | None = None,
) -> bytes:
    """`record_to_tree` written as FF[4] UTF-8 bytes."""
    return dump_sgf(record_to_tree(state, info, rules_key, times, players))


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
    """RE (B+R, W+T, B+3.5, 0 for a draw; more colours in the same form, see `result_value`), and MO with
    the full ranking for more than two colours."""
    try:
        result = outcome(state)
    except ScoringNeedsJudgement:
        result = None  # dead_stones=auto and no verdict: the record cannot know the score
    if result is None:
        for prop in ("RE", EXT_OUTCOME):
            if info.get(prop):
                root.set(prop, info[prop])
        return
    root.set("RE", result_value(result.winners, state.active_colours, _how(state, result)))
    if state.colours != 2:
        totals = {score.colour: score.total for score in result.scores}
        root.set(EXT_OUTCOME, outcome_value(result.reason.value, result.ranking, totals))


def _how(state: GoState, result: Result) -> str:
    """How the winners won: R or T when every other colour left, else the margin over the best other
    colour still in play ("" when nothing was counted)."""
    if result.reason is EndReason.LAST_COLOUR:
        last_leave = next(s.last_move for s in state.lineage() if isinstance(s.last_move, Resign | Timeout))
        return "T" if isinstance(last_leave, Timeout) else "R"
    if not result.scores or not result.winners:
        return ""
    others = [result.scores[c].total for c in state.active_colours if c not in result.winners]
    if not others:
        return ""
    return encode_real(round(result.scores[result.winners[0]].total - max(others), 6))


def colour_letter(colour: int) -> str:
    """A colour in RE and MO: B, W, then 2, 3, ..."""
    return "BW"[colour] if colour < 2 else str(colour)


def result_value(winners: Sequence[int], in_play: Iterable[int], how: str) -> str:
    """RE: `0` (a draw) when several colours share the top and no colour still in play is below them;
    otherwise the winners, joined by `=`, then `+` and how they won (`B+R`, `W+T`, `B+3.5`, `B=2+4`)."""
    if not winners or (len(winners) > 1 and set(in_play) <= set(winners)):
        return "0"
    return "=".join(colour_letter(c) for c in winners) + "+" + how


def outcome_value(reason: str, ranking: Iterable[Iterable[int]], totals: Mapping[int, float]) -> str:
    """MO: `passes:2(31.5)>0(20)=1(20)>3`: the reason, then the colours best first, ties joined by `=`,
    totals where the game was scored."""
    groups = []
    for group in ranking:
        names = [f"{c}({encode_real(round(totals[c], 6))})" if c in totals else str(c) for c in group]
        groups.append("=".join(names))
    return f"{reason}:{'>'.join(groups)}"
