"""An uploaded SGF record as a read-only game: read with the SGF reader, its main line turned into the moves
the server stores (so the game page, replay, SGF download and previews work as for any game), checked to
replay to the very position the reader found, and its whole tree (variations) kept for the review.

Nothing here touches the database: `read_upload` either returns everything to store or refuses with the
reader's message (`BadRecord`, HTTP 422 `bad_sgf`, with the line and column when the reader knows them).
The whole reading, from the bytes to the review's moves, spends one budget (UPLOAD_LIMITS): whatever the
body's shape, one upload costs at most some tens of MB and a second or two.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from miai.core.errors import IllegalMove, InvalidRules
from miai.core.go import GoState
from miai.core.go.moves import Pass, Place
from miai.core.go.vertex import format_move
from miai.formats.sgf import SgfError, dump_sgf_text, limits, parse_sgf
from miai.formats.sgf.go_nodes import node_events
from miai.formats.sgf.go_read import GoRecord, load_go
from miai.formats.sgf.go_rules import encode_rules
from miai.formats.sgf.limits import Budget, ReadLimits
from miai.formats.sgf.tree import GameTree, Node
from miai.server.errors import BadInput, Conflict
from miai.server.game_options import OptionsError, RecordOptions
from miai.server.move_texts import AUTO_PASS
from miai.server.play.kinds import GoTable, Step
from miai.server.play.preview import cells_of
from miai.server.play.stream import CommandStream
from miai.server.play.views import recorded_move
from miai.server.ratings.verdicts import created_unrated
from miai.server.storage.models import User
from miai.server.storage.uploads import NewRecord, UploadTotals, store_record, upload_totals

MAX_RECORD_BYTES = 1024 * 1024  # the largest upload (the request body's limit for the upload route)
MAX_RECORD_NODES = 20_000  # nodes of the whole file, variations included: each is replayed for the review
MAX_RECORD_DEPTH = 1_000  # variations open at once; real records nest a dozen deep
# Some 50 MB and a second at most (limits.py). A 300-move 19x19 game takes a tenth of it, a 900-move game
# on 25x25 two fifths, 9,000 two-move variations on 19x19 three quarters.
MAX_RECORD_WORK = 500_000
UPLOAD_LIMITS = ReadLimits(nodes=MAX_RECORD_NODES, depth=MAX_RECORD_DEPTH, work=MAX_RECORD_WORK)


class BadRecord(BadInput):
    """A file the reader cannot use, or a record the server cannot store as a game (422 `bad_sgf`)."""

    code = "bad_sgf"


class UploadLimit(Conflict):
    """The member keeps as many uploaded records, or moves in them, as one may (409 `upload_limit`)."""

    code = "upload_limit"


@dataclass(frozen=True)
class UploadCaps:
    """The most one member's uploaded records may hold (settings upload_records, upload_moves)."""

    records: int
    moves: int

    def check(self, totals: UploadTotals, moves: int | None = None) -> None:
        """UploadLimit if one more record (of `moves` moves, when known) would pass a cap."""
        if totals.records >= self.records:
            raise UploadLimit(
                f"you keep {totals.records:,} uploaded records, the most one member may keep "
                f"({self.records:,}) on this server",
                **upload_counts(totals, self),
            )
        if moves is not None and totals.moves + moves > self.moves:
            raise UploadLimit(
                f"your uploaded records hold {totals.moves:,} moves; this one's {moves:,} would pass the "
                f"{self.moves:,} one member's records may hold together on this server",
                **upload_counts(totals, self),
            )


def upload_counts(totals: UploadTotals, caps: UploadCaps) -> dict[str, int]:
    """A member's uploads as the API shows them (GET /me/uploads, the upload's answer, its refusal)."""
    return {
        "records": totals.records,
        "moves": totals.moves,
        "max_records": caps.records,
        "max_moves": caps.moves,
    }


@dataclass
class Upload:
    """Everything to store for one uploaded record."""

    options: RecordOptions
    start: GoState  # the position before the first move
    steps: list[Step]  # the main line as stored moves
    result: dict[str, Any] | None  # from RE, in the API's result form; None without a readable RE
    sgf: str  # the first game tree as SGF text, variations and comments included
    nodes: list[dict[str, Any]]  # the tree's moves for the review (`record_nodes`)


def read_upload(data: bytes) -> Upload:
    """Read an uploaded SGF file; BadRecord with the reader's message when it cannot become a game."""
    budget = Budget(UPLOAD_LIMITS)
    try:
        collection = parse_sgf(data, budget)
        if not collection.trees:
            raise SgfError("the file holds no game record (an SGF record starts with '(;')")
        tree = collection[0]
        record = load_go(tree, budget=budget)
        options, start = _options(record)
        steps = _main_line(record, options, start, tree, budget)
        nodes = record_nodes(tree, start, budget)
    except SgfError as err:
        raise BadRecord(str(err), line=err.line, column=err.column) from None
    except (InvalidRules, ValueError) as err:  # the reader's own checks say SgfError; this is a backstop
        raise BadRecord(str(err), line=None, column=None) from None
    result = result_of(record.info.get("RE"), start.colours)
    # The main line's moves by their stored ply, which counts automatic passes too.
    plies = [step.state.plies for step in steps if step.text != AUTO_PASS]
    main = [node for node in nodes if node["main"]]
    if len(main) == len(plies):
        for node, ply in zip(main, plies, strict=True):
            node["ply"] = ply
    return Upload(options, start, steps, result, dump_sgf_text(tree), nodes)


def _options(record: GoRecord) -> tuple[RecordOptions, GoState]:
    start = _first(record.state)
    colours = start.colours
    black = [p for p, c in sorted(start.position().items()) if c == 0]
    handicap = black[: start.handicap] if start.handicap >= 2 else []
    setup = tuple((p, c) for p, c in sorted(start.position().items()) if p not in set(handicap))
    seat_counts = tuple(len(s) for s in start.seats)
    komi = tuple(start.rules.komi_of(c) for c in range(colours))
    points = start.size * start.size
    if any(abs(k) > points for k in komi):  # no count could reach it: a number made to be stored, not played
        raise BadRecord(f"a komi beyond the board's {points} points cannot be stored", line=None, column=None)
    options = RecordOptions(
        size=start.size,
        teams=colours,
        players_per_team=max(seat_counts),
        preset=record.rules_key or "custom",
        komi=komi,
        handicap=start.handicap,
        visibility="private",
        exact_rules=tuple(encode_rules(start.rules)),
        setup=setup,
        handicap_points=tuple(handicap),
        first=start.to_move,
        seat_counts=seat_counts,
        names=tuple(tuple(record.players.get(colour, ())) for colour in range(colours)),
    )
    return options, start


def _first(state: GoState) -> GoState:
    for first in state.lineage():
        if first.parent is None:
            return first
    raise AssertionError("a lineage ends at its start")


def _main_line(
    record: GoRecord, options: RecordOptions, start: GoState, tree: GameTree, budget: Budget
) -> list[Step]:
    """The stored moves of the main line, checked: replayed as the server replays a game, they must give
    the reader's position, every move of the record kept. Each position replayed is paid from `budget`."""
    final = record.state
    numbered = sum(
        1
        for node in tree.main_line()
        for event in node_events(node, start.size, start.colours)
        if event.numbered and not event.auto
    )
    played = sum(1 for s in final.lineage() if isinstance(s.last_move, Place | Pass) and not s.auto_pass)
    if played != numbered:
        why = next((p for p in record.problems if "skipped" in p or "restarts" in p), "moves were skipped")
        raise BadRecord(f"the main line cannot be stored as a game: {why}", line=None, column=None)
    table = GoTable(options)
    try:
        state = table.new_state()
    except OptionsError as err:
        raise BadRecord(f"the record's start cannot be set up: {err}", line=None, column=None) from None
    if state.position() != start.position() or state.to_move != start.to_move:
        raise BadRecord("the record's start position cannot be stored as a game", line=None, column=None)
    steps = table.steps(start, final)
    for number, step in enumerate(steps, start=1):
        if state.is_over and all(later.text == "pass" for later in steps[number - 1 :]):
            # Passes after the passes that ended the game (GNU Go writes a third): they change nothing.
            return steps[: number - 1]
        budget.position(start.size)
        try:
            state = table.replay(state, step.text, stored=False)
        except (IllegalMove, ValueError) as err:
            raise BadRecord(
                f"the main line cannot be stored as a game: move {number} ({step.text}): {err}",
                line=None,
                column=None,
            ) from None
    if state.position() != final.position() or state.plies != final.plies:
        raise BadRecord(
            "the main line cannot be stored as a game: it has moves out of turn or after the end",
            line=None,
            column=None,
        )
    return steps


async def uploads_of(stream: CommandStream, user: User) -> UploadTotals:
    async with stream.sessions() as db:
        return await upload_totals(db, user.id)


async def store_upload(
    stream: CommandStream, user: User, upload: Upload, caps: UploadCaps
) -> tuple[int, UploadTotals]:
    """Store the upload as the uploader's finished, private game: its id, and the uploader's totals with
    it. Never live, never rated. UploadLimit, and nothing stored, if it would pass one of `caps`."""
    table = GoTable(upload.options)
    final = upload.steps[-1].state if upload.steps else upload.start
    now = stream.now()
    events: list[tuple[str, dict[str, Any]]] = [
        ("created", {"by": user.username, "uploaded": True}),
        ("started", table.started_event(upload.start, now)),
    ]
    for step in upload.steps:
        move = recorded_move(step.state.plies, step.team, step.seat, step.text, None)
        events.append(("move", {**move, "position": table.position(step.state, event=True)}))
    events.append(("finished", {"result": upload.result, "rating": created_unrated("go", upload.options)}))
    game = {
        "kind": "go",
        "status": "finished",
        "options": upload.options.to_json(),
        "visibility": "private",
        "invite_code": secrets.token_urlsafe(12),  # the owner may share the record's link
        "plies": final.plies,
        "clocks": {},
        "to_move": {},
        "result": upload.result,
        "preview": cells_of(table, final),
    }
    moves = [(step.state.plies, step.team, step.seat, step.text) for step in upload.steps]
    new = NewRecord(game, moves, events, upload.sgf, upload.nodes)
    async with stream.sessions() as db:
        totals = await upload_totals(db, user.id, lock=True)  # counted in the transaction that stores
        caps.check(totals, final.plies)
        game_id = await store_record(db, user.id, new, now)
    return game_id, UploadTotals(totals.records + 1, totals.moves + final.plies)


# ----------------------------------------------------------------------------- the result

_LETTER = re.compile(r"[BW]|[0-9]{1,2}")
_MARGIN = re.compile(r"[0-9]{1,4}(\.[0-9]{1,3})?")


def result_of(text: str | None, colours: int) -> dict[str, Any] | None:
    """RE (`B+R`, `W+3.5`, `B=2+1`, `0`, `Draw`) as a result in the API's form; None when it says nothing
    Miai can show (no RE, `Void`, `?`, anything else)."""
    if text is None:
        return None
    value = text.strip().upper()
    teams = list(range(1, colours + 1))
    if value in ("0", "DRAW", "JIGO"):
        return _result("passes", teams, teams, 0.0)
    who, plus, how = value.partition("+")
    if not plus:
        return None
    winners = []
    for letter in who.split("="):
        if not _LETTER.fullmatch(letter):
            return None
        colour = "BW".index(letter) if letter in "BW" else int(letter)
        if colour >= colours:
            return None
        winners.append(colour + 1)
    if how.startswith("R"):
        return _result("resign", winners, teams, None)
    if how.startswith("T"):
        return _result("timeout", winners, teams, None)
    margin = float(how) if _MARGIN.fullmatch(how) else None
    return _result("passes", winners, teams, margin)


def _result(reason: str, winners: list[int], teams: list[int], margin: float | None) -> dict[str, Any]:
    others = [t for t in teams if t not in winners]
    return {
        "reason": reason,
        "winners": sorted(set(winners)),
        "ranking": [sorted(set(winners))] + ([others] if others else []),
        "draw": not others,
        "margin": 0.0 if not others else margin,
        "left": [],
        "scores": [],
        "territory": [],
        "dead": [],
        "seki": [],
        "dame": [],
        "dead_stones_judged": False,
    }


# ----------------------------------------------------------------------------- the tree


def record_nodes(tree: GameTree, start: GoState, budget: Budget) -> list[dict[str, Any]]:
    """Every move of the tree in file order (depth first, main line before variations), as
    `{"id", "parent", "team", "move", "point", "removed", "main", "ply"}`, and `comment` when the record has
    one (its C[] text): `parent` the move before it (None at the start), `point` where its stone went (None
    for a pass), `removed` the points it captured, `ply` its number in its own line. A move the rules refuse
    ends its line: it and what follows are left out. Nodes without a move (comments, markup) are skipped,
    their children joined to the move before, and their comment too.

    `budget` pays for each move played, and for the positions kept: depth first, the positions alive are
    those of the longest line so far (each state keeps its lineage), not every variation's."""
    out: list[dict[str, Any]] = []
    size, colours = start.size, start.colours
    longest = start.plies
    # (node, parent move id, state before the node, on the main line)
    stack: list[tuple[Node, int | None, GoState, bool]] = [(tree.root, None, start, True)]
    while stack:
        node, parent, state, main = stack.pop()
        comment = "\n".join(node.properties.get("C", [])).strip()
        for event in node_events(node, size, colours, budget):
            move = event.move
            if event.error is not None or not isinstance(move, Place | Pass) or event.colour < 0:
                continue
            if state.plies >= longest:
                budget.position(size)
                longest = state.plies + 1
            else:
                budget.spend(limits.PLAY, "its variations' moves")
            try:
                after = state.play_as(event.colour, move, check_ko=False)
            except (IllegalMove, InvalidRules):
                break
            out.append(
                {
                    "id": len(out),
                    "parent": parent,
                    "team": event.colour + 1,
                    "move": format_move(move, size),
                    "point": move.point if isinstance(move, Place) else None,
                    "removed": sorted(after.last_removed),
                    "main": main,
                    "ply": after.plies,
                    **({"comment": comment} if comment else {}),
                }
            )
            comment = ""  # a node of several moves: its comment goes with the first
            parent, state = len(out) - 1, after
        else:
            if comment and parent is not None:  # a node without a move: said of the move before
                before = out[parent].get("comment")
                out[parent]["comment"] = f"{before}\n\n{comment}" if before else comment
            for index, child in reversed(list(enumerate(node.children))):
                stack.append((child, parent, state, main and index == 0))
    return out
