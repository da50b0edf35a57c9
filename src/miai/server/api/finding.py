"""Finding games and players: the live list to watch, the archive of finished games, user profiles.

The statements are storage/finding.py's (the ones bench/queries.py times and the tests EXPLAIN); this
module checks the query values, reads keyset cursors and shapes the JSON.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request

from miai.server.api.deps import DB, MaybeViewer, Viewer, service_of
from miai.server.api.inputs import MAX_KEY, Line
from miai.server.api.views import players_view, rating_view, user_view
from miai.server.errors import BadInput, NotFound
from miai.server.identity.bots import is_computer
from miai.server.play.preview import board_preview, preview_of
from miai.server.play.queries import shown_name
from miai.server.play.stream import RecordMoved
from miai.server.ratings.eligibility import bot_seating_reason
from miai.server.realtime.watchers import Watchers
from miai.server.storage import finding, repo
from miai.server.storage import ratings as rating_store
from miai.server.storage.finding import ArchiveFilter, GameFilter, Outcome
from miai.server.storage.models import Game, GamePlayer, User

router = APIRouter(tags=["finding"])

Name = Annotated[Line, Path(min_length=1, max_length=64)]
Kind = Annotated[Line | None, Query(min_length=1, max_length=16)]
Size = Annotated[int | None, Query(ge=1, le=52)]
Colours = Annotated[int | None, Query(ge=2, le=8)]
Limit = Annotated[int, Query(ge=1, le=100)]
Cursor = Annotated[Line | None, Query(max_length=80)]
UserName = Annotated[Line | None, Query(min_length=1, max_length=64)]
RECENT = 10  # recent and current games on a profile
# `result`: the user's outcome, or how the game ended (`score`: counted after passes)
ResultFilter = Literal["win", "loss", "draw", "resign", "time", "score"]
REASONS = {"resign": "resign", "time": "timeout", "score": "passes"}
OUTCOMES: dict[str, Outcome] = {"win": "win", "loss": "loss", "draw": "draw"}
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def _iso(moment: datetime | None) -> str | None:
    moment = repo.utc(moment)
    return moment.isoformat() if moment else None


def _game_view(game: Game, players: list[tuple[GamePlayer, User]]) -> dict[str, Any]:
    options = game.options
    return {
        "id": game.id,
        "kind": game.kind,
        "size": options.get("size"),
        "colours": options.get("teams"),
        "rated": bool(options.get("rated", False)),
        "players": players_view(players),
        "names": options.get("names"),  # an uploaded record's players: text, not accounts (null otherwise)
        "moves": game.plies,
        "url": f"/games/{game.id}",
        # the board as its last move left it (a thumbnail; null for a game stored before previews were)
        "preview": preview_of(game.preview) if game.preview is not None else None,
    }


def _bad_cursor() -> BadInput:
    return BadInput("cursor: not a cursor this list gave out")


def _encode(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _decode(cursor: str) -> str:
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError) as error:
        raise _bad_cursor() from error


def _id_in_cursor(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= MAX_KEY:
        raise _bad_cursor()
    return int(text)


def _live_cursor(cursor: str | None) -> int | None:
    return None if cursor is None else _id_in_cursor(_decode(cursor))


def _archive_cursor(cursor: str | None) -> tuple[datetime, int] | None:
    if cursor is None:
        return None
    moment, _, game_id = _decode(cursor).partition("|")
    try:
        when = datetime.fromisoformat(moment)
    except ValueError as error:
        raise _bad_cursor() from error
    # bounded like `since`: PostgreSQL's driver cannot send years near 1 or 9999 (a 500, not a 422)
    if when.tzinfo is None or not EARLIEST <= when <= LATEST:
        raise _bad_cursor()
    return when.astimezone(UTC), _id_in_cursor(game_id)


def _moment(name: str, value: datetime | None) -> datetime | None:
    """A `since` / `until` in UTC (no offset given: UTC). SQLite stores UTC without an offset and compares
    text, so 12:00+05:00 must reach it as 07:00 (PostgreSQL would convert it itself)."""
    if value is None:
        return None
    # the year first: converting 0001-01-01T00:00+01:00 to UTC would leave the calendar (OverflowError)
    if not EARLIEST.year <= value.year <= LATEST.year:
        raise BadInput(f"{name}: a date between {EARLIEST.year} and {LATEST.year}")
    value = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    if not EARLIEST <= value <= LATEST:
        raise BadInput(f"{name}: a date between {EARLIEST.year} and {LATEST.year}")
    return value


async def _findable(db: DB, name: str, viewer: Viewer | None, what: str) -> User:
    """The user called `name`, as others may look them up: a guest is found by nobody but themselves
    (guests are private: no profile, no archive for others to browse)."""
    user = await repo.user_by_name(db, name)
    if user is None or (user.is_guest and (viewer is None or viewer.user.id != user.id)):
        raise NotFound(f"{what}no user {name!r}")
    return user


async def _user_id(db: DB, name: str | None, viewer: Viewer | None, what: str) -> int | None:
    return None if name is None else (await _findable(db, name, viewer, f"{what}: ")).id


def game_filter(
    kind: Kind = None, size: Size = None, colours: Colours = None, rated: bool | None = None
) -> GameFilter:
    """The query parameters the live list and the archive share (docs/api.md: the same names, ranges
    and refusals in both)."""
    return GameFilter(kind=kind, size=size, teams=colours, rated=rated)


Filters = Annotated[GameFilter, Depends(game_filter)]


@dataclass(frozen=True)
class PageQuery:
    """The paging parameters the live list and the archive share: a page size and the cursor a previous page
    gave out (read by the list itself: its cursors differ)."""

    limit: int
    cursor: str | None

    def split(self, rows: list[Game]) -> tuple[list[Game], bool]:
        """The page out of `limit + 1` rows read, and whether more follow."""
        return rows[: self.limit], len(rows) > self.limit


def page_query(limit: Limit = 20, cursor: Cursor = None) -> PageQuery:
    return PageQuery(limit, cursor)


Paging = Annotated[PageQuery, Depends(page_query)]


@router.get("/games/live")
async def live_games(request: Request, db: DB, where: Filters, paging: Paging) -> dict[str, Any]:
    """Public games in progress, newest first; `next` is the cursor of the following page (None: last)."""
    query = finding.live_page(finding.dialect_of(db), where, _live_cursor(paging.cursor), paging.limit + 1)
    page, more = paging.split(await finding.games(db, query))
    players = await finding.players_of_games(db, [g.id for g in page])
    watchers: Watchers | None = getattr(request.app.state, "watchers", None)
    spectators = await watchers.counts(g.id for g in page) if watchers is not None else {}
    stream = service_of(request).stream
    games = []
    for game in page:
        view = _game_view(game, players[game.id])
        view["last_move_at"] = _iso(game.turn_started_at)
        # every process's sockets with Redis, this one's without: see docs/api.md, "Live games"
        view["spectators"] = spectators.get(game.id)
        if game.preview is not None:  # stored with its last move
            view["preview"] = preview_of(game.preview)
        else:  # a game not moved since previews were stored: its rules state (replayed once, then cached)
            try:
                live = await stream.current(db, game)
                view["preview"] = board_preview(live.table, live.state)
            except RecordMoved:  # its record kept changing while read: one game's thumbnail, not the list
                view["preview"] = None
        games.append(view)
    following = _encode(str(page[-1].id)) if more else None
    return {"games": games, "next": following}


@router.get("/games/archive")
async def archive(
    db: DB,
    viewer: MaybeViewer,
    shared: Filters,
    paging: Paging,
    user: UserName = None,
    opponent: UserName = None,
    result: ResultFilter | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> dict[str, Any]:
    """Finished games, newest first, narrowed by the filters; private games only to their players."""
    if result in OUTCOMES and user is None:
        raise BadInput("result: win, loss and draw are a user's: give `user` too")
    user_id = await _user_id(db, user, viewer, "user")
    where = ArchiveFilter(
        **asdict(shared),
        user_id=user_id,
        opponent_id=await _user_id(db, opponent, viewer, "opponent"),
        outcome=OUTCOMES.get(result or ""),
        reason=REASONS.get(result or ""),
        since=_moment("since", since),
        until=_moment("until", until),
        viewer_id=viewer.user.id if viewer is not None else None,
    )
    moment = _archive_cursor(paging.cursor)
    query = finding.archive_page(finding.dialect_of(db), where, moment, paging.limit + 1)
    page, more = paging.split(await finding.games(db, query))
    return {"games": await _finished_views(db, page, user_id), "next": _next_archive(page) if more else None}


def _next_archive(page: list[Game]) -> str:
    last = page[-1]
    return _encode(f"{_iso(last.finished_at)}|{last.id}")


def _outcome(game: Game, team: int | None) -> str | None:
    result = game.result or {}
    if team is None:
        return None
    if result.get("draw"):
        return "draw"
    return "win" if team in (result.get("winners") or []) else "loss"


async def _finished_views(db: DB, page: list[Game], user_id: int | None) -> list[dict[str, Any]]:
    players = await finding.players_of_games(db, [g.id for g in page])
    views = []
    for game in page:
        result = game.result or {}
        view = _game_view(game, players[game.id])
        view["finished_at"] = _iso(game.finished_at)
        view["result"] = {
            "reason": result.get("reason"),
            "winners": result.get("winners") or [],
            "draw": bool(result.get("draw")),
            "margin": result.get("margin"),  # counted games: the winner's lead in points
        }
        view["sgf"] = f"/api/v1/games/{game.id}/sgf"
        if user_id is not None:
            team = next((p.team for p, _ in players[game.id] if p.user_id == user_id), None)
            view["outcome"] = _outcome(game, team)  # the user's: win, loss or draw
        views.append(view)
    return views


@router.get("/users/{username}")
async def profile(username: Name, request: Request, db: DB, viewer: MaybeViewer) -> dict[str, Any]:
    """A user's page: member since, badges, record per kind, current and recent games, ratings."""
    user = await _findable(db, username, viewer, "")
    # Whether the viewer's challenge to this account may be rated (eligibility.py's rule), so the challenge
    # form does not offer what the server would refuse.
    flags = [viewer is not None and viewer.user.is_bot, user.is_bot]
    seating = bot_seating_reason(True, flags, request.app.state.settings.bots_rated_vs_people)
    rated_challenges = not is_computer(user) and seating is None
    viewer_id = viewer.user.id if viewer is not None else None
    current = await finding.games(db, finding.current_query(user.id, viewer_id, RECENT))
    current_players = await finding.players_of_games(db, [g.id for g in current])
    recent_query = finding.archive_page(
        finding.dialect_of(db), ArchiveFilter(user_id=user.id, viewer_id=viewer_id), None, RECENT
    )
    recent = await finding.games(db, recent_query)
    return {
        "user": user_view(user),
        "name": shown_name(user),
        "member_since": _iso(user.created_at),
        "is_bot": user.is_bot,
        "computer": is_computer(user),  # the server's own computer player
        "rated_challenges": rated_challenges,
        "record": await finding.record(db, user.id),
        "current": [
            {
                **_game_view(g, current_players[g.id]),
                "status": g.status,
                "last_move_at": _iso(g.turn_started_at),
            }
            for g in current
        ],
        "recent": await _finished_views(db, recent, user.id),
        "ratings": [rating_view(row) for row in await rating_store.user_ratings(db, user.id)],
    }
