"""Games API: lobby, create, join, confirm, play, chat, events, SGF and the dashboard."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from miai.server.api.deps import DB, CurrentViewer, MaybeViewer, MemberViewer, service_of
from miai.server.api.inputs import (
    Channel,
    ChatText,
    Id,
    Invite,
    Komi,
    Line,
    MoveText,
    OptionValue,
    Version,
    clean_option_names,
)
from miai.server.api.rate_limits import enforce, per_user, user_key
from miai.server.api.views import players_view
from miai.server.game_options import TABLE_FIELDS, GoOptions, KindOptions, OptionsError, other_kinds_options
from miai.server.play import queries
from miai.server.play.kinds import GO_TEAM_NAMES, table_of
from miai.server.play.records import sgf_record
from miai.server.storage import finding, repo
from miai.server.storage.uploads import record_of

router = APIRouter(tags=["games"])


class CreateGame(BaseModel):
    """Go's options are listed; other kinds take their own (`GET /kinds`), e.g. Hex's `opening`."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, OptionValue] = Field(init=False)

    kind: Line = Field("go", max_length=16, description="go, amazons, hex or tanbo (GET /kinds)")
    size: int = Field(9, ge=5, le=25, description="Go: default 9; other kinds: their default")
    teams: int = Field(2, ge=2, le=8)
    players_per_team: int = Field(1, ge=1, le=8)
    preset: Line = Field("", max_length=32)
    komi: list[Komi] | None = Field(None, max_length=8, description="numbers -50..50")
    ko: Literal["simple", "positional", "situational"] | None = None
    capture_points: bool | None = None
    remove_inactive_stones: bool | None = None
    move_limit: int | None = Field(None, ge=1, le=10000)
    handicap: int = Field(0, ge=0, le=9)
    seconds_per_move: float = Field(86400, ge=2, le=30 * 86400, allow_inf_nan=False)
    clock: Literal["none", "fischer", "byoyomi"] = "none"
    main_time: float = Field(0, ge=0, le=30 * 86400, allow_inf_nan=False)
    increment: float = Field(0, ge=0, le=86400, allow_inf_nan=False)
    periods: int = Field(0, ge=0, le=100)
    period_time: float = Field(0, ge=0, le=86400, allow_inf_nan=False)
    visibility: Literal["public", "private"] = "public"
    rated: StrictBool = Field(False, description="rated (Glicko-2 / OpenSkill); games between people only")
    team: int | None = Field(None, ge=1, le=8, description="the creator's team; empty: assigned at random")
    challenge: Line | None = Field(None, max_length=32, description="username of the challenged player")
    swap_match: bool = Field(False, description="with a challenge: a second game with the colours swapped")

    @model_validator(mode="before")
    @classmethod
    def _option_names(cls, data: Any) -> Any:
        return clean_option_names(data)


class JoinGame(BaseModel):
    team: int | None = Field(None, ge=1, le=8)
    invite: Invite | None = None


class PlayMove(BaseModel):
    move: MoveText
    version: Version | None = Field(None, description="the game version the move was made against")


class Resign(BaseModel):
    version: Version | None = None


class ChatPost(BaseModel):
    channel: Channel = "public"
    text: ChatText


@router.get("/games")
async def list_open_games(db: DB, viewer: MaybeViewer) -> dict[str, Any]:
    games = await queries.lobby(db, viewer.user.id if viewer else None)
    players = await finding.players_of_games(db, [g["id"] for g in games])
    for game in games:  # named by its seated players as every list names a game (js/gameparts.js, gameName)
        game["seated"] = players_view(players[game["id"]])
    return {"games": games}


@router.get("/presets")
async def list_presets() -> dict[str, Any]:
    """The rules presets with their sizes and default komi, for create-game forms."""
    from miai.core.go.presets import HANDICAP_KOMI, PRESETS

    return {
        "handicap_komi": HANDICAP_KOMI,  # a handicap game's komi unless its creator sets one (SPEC G8)
        "presets": [
            {
                "key": p.key,
                "title": p.title,
                "max_colours": p.max_colours,
                "sizes": list(p.base.allowed_sizes),
                "ko": p.base.ko.value,
                "scoring": p.base.scoring.value,
                "dead_stones": p.base.dead_stones.value,
                "komi": p.base.komi_of(1),
                # Fixed handicap per size: 0 (none) or the most stones, from 2.
                "max_handicap": {str(size): p.max_handicap(size) for size in p.base.allowed_sizes},
            }
            for p in PRESETS.values()
        ],
        "kinds": (await list_kinds())["kinds"],
    }


@router.get("/kinds")
async def list_kinds() -> dict[str, Any]:
    """The games this server offers, with their team names and options, for create-game forms."""
    from miai.core.go.presets import PRESETS
    from miai.core.registry import KINDS

    go = {
        "key": "go",
        "title": "Go",
        "teams": {"min": 2, "max": 8, "default": 2},
        "team_names": list(GO_TEAM_NAMES),
        "options": [
            {"name": "size", "default": 9, "min": 5, "max": 25, "suggested": [9, 13, 19]},
            {"name": "preset", "default": "dgo", "values": list(PRESETS), "more_teams": "dipgo"},
            {"name": "komi", "default": None, "list_of": "number", "min": -50, "max": 50},
            {"name": "ko", "default": None, "values": ["simple", "positional", "situational"]},
            {"name": "capture_points", "default": None, "values": [True, False]},
            {"name": "remove_inactive_stones", "default": None, "values": [True, False]},
            {"name": "move_limit", "default": None, "min": 1, "max": 10000},
            {"name": "handicap", "default": 0, "min": 0, "max": 9},
        ],
        "presets": "/api/v1/presets",
    }
    others = [
        {
            "key": k.key,
            "title": k.title,
            "teams": {"min": len(k.player_names), "max": len(k.player_names), "default": len(k.player_names)},
            "team_names": list(k.player_names),
            "options": [offer.describe() for offer in k.offers],
        }
        for k in KINDS.values()
        if k.key != "go" and k.board is not None
    ]
    return {"kinds": [go, *others]}


API_ONLY = frozenset({"kind", "team", "challenge", "swap_match"})  # fields that are not game options


def _given(body: BaseModel) -> dict[str, Any]:
    """The fields the client actually sent (defaults left out), extra ones included."""
    return {**(body.model_extra or {}), **{name: getattr(body, name) for name in body.model_fields_set}}


def options_from(body: CreateGame) -> GoOptions | KindOptions:
    """The game options of a create request, for its kind; OptionsError when they do not fit."""
    table = {name: getattr(body, name) for name in TABLE_FIELDS if name in CreateGame.model_fields}
    given = _given(body)
    if body.kind != "go":
        # A null is "not given": forms may send every field they know, Go's left empty.
        own = {
            k: v for k, v in given.items() if k not in TABLE_FIELDS and k not in API_ONLY and v is not None
        }
        return KindOptions.build(body.kind, own, table).validate()
    foreign = other_kinds_options(given)
    if foreign:
        raise OptionsError(f'{", ".join(foreign)}: not a Go option; choose the game with "kind"')
    fields = {k: v for k, v in body.model_dump().items() if k in GoOptions.__dataclass_fields__}
    fields["komi"] = tuple(body.komi) if body.komi is not None else None
    return GoOptions(**fields).validate()


@router.post("/games", status_code=201, dependencies=[per_user("games")])
async def create_game(body: CreateGame, request: Request, viewer: MemberViewer, db: DB) -> dict[str, Any]:
    options = options_from(body)  # a rated game's setup is checked by Lobby.create
    challenged = None
    if body.challenge:
        await enforce(request, "challenge", *user_key(viewer.user.id))
        challenged = await repo.user_by_name(db, body.challenge)
        if challenged is None or challenged.is_guest:  # guests are not found by name
            raise HTTPException(404, {"error": "not_found", "message": f"no user {body.challenge!r}"})
        if challenged.id == viewer.user.id:
            raise HTTPException(422, {"error": "bad_input", "message": "you cannot challenge yourself"})
        if options.seats != 2:
            raise HTTPException(422, {"error": "bad_input", "message": "challenges are for two-player games"})
    elif body.swap_match:
        raise HTTPException(422, {"error": "bad_input", "message": "a swap match needs a challenge"})
    service = service_of(request)
    first = await service.lobby.create(
        viewer.user, options, body.team or (1 if body.swap_match else None), challenged, body.swap_match
    )
    ids = [first]
    if body.swap_match:
        ids.append(await service.lobby.create(viewer.user, options, 2, challenged, False, match_of=first))
    game = await repo.game_row(db, first)
    assert game is not None
    return {"id": first, "games": ids, "invite_code": game.invite_code, "version": game.version}


@router.get("/games/{game_id}")
async def get_game(
    game_id: Id,
    request: Request,
    viewer: MaybeViewer,
    db: DB,
    invite: Invite | None = None,
) -> dict[str, Any]:
    user_id = viewer.user.id if viewer else None
    game = await queries.load_visible_game(db, game_id, user_id, invite)
    return await queries.snapshot(service_of(request).stream, db, game, user_id)


@router.get("/games/{game_id}/events")
async def get_events(
    game_id: Id,
    viewer: MaybeViewer,
    db: DB,
    since: Version = 0,
    invite: Invite | None = None,
) -> dict[str, Any]:
    user_id = viewer.user.id if viewer else None
    game = await queries.load_visible_game(db, game_id, user_id, invite)
    page = await queries.visible_events(db, game, since, user_id)
    return {"version": game.version, "events": page.events, "until": page.until}


@router.post("/games/{game_id}/join", dependencies=[per_user("seats")])
async def join_game(game_id: Id, body: JoinGame, request: Request, viewer: MemberViewer) -> dict[str, Any]:
    await service_of(request).lobby.join(viewer.user, game_id, body.team, body.invite)
    return {"ok": True}


@router.post("/games/{game_id}/leave", dependencies=[per_user("seats")])
async def leave_game(game_id: Id, request: Request, viewer: MemberViewer) -> dict[str, Any]:
    await service_of(request).lobby.leave(viewer.user, game_id)
    return {"ok": True}


@router.post("/games/{game_id}/confirm")
async def confirm_game(game_id: Id, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    await service_of(request).lobby.confirm(viewer.user, game_id)
    return {"ok": True}


class Decline(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not a silent no-reason

    reason: Line | None = Field(None, max_length=200, description="shown to the challenger")


@router.post("/games/{game_id}/decline")
async def decline_challenge(
    game_id: Id, request: Request, viewer: MemberViewer, body: Decline | None = None
) -> dict[str, Any]:
    """Decline a challenge to you; the body (`reason`) is optional."""
    reason = body.reason if body is not None else None
    await service_of(request).lobby.decline(viewer.user, game_id, reason)
    return {"ok": True}


@router.post("/games/{game_id}/moves")
async def play_move(game_id: Id, body: PlayMove, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    return await service_of(request).moves.move(viewer.user, game_id, body.move, body.version)


@router.post("/games/{game_id}/resign")
async def resign(
    game_id: Id, request: Request, viewer: CurrentViewer, body: Resign | None = None
) -> dict[str, Any]:
    """Resign for your team; the body (`version`) is optional, as documented."""
    version = body.version if body is not None else None
    return await service_of(request).moves.move(viewer.user, game_id, "resign", version)


class DrawVote(BaseModel):
    accept: bool = True


@router.post("/games/{game_id}/draw")
async def agree_draw(game_id: Id, body: DrawVote, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    """Offer, accept or withdraw an agreed draw (games with more than two colours)."""
    return await service_of(request).moves.draw(viewer.user, game_id, body.accept)


@router.post("/games/{game_id}/chat", status_code=201, dependencies=[per_user("chat")])
async def post_chat(game_id: Id, body: ChatPost, request: Request, viewer: MemberViewer) -> dict[str, Any]:
    return await service_of(request).chat.post(viewer.user, game_id, body.channel, body.text)


@router.get("/games/{game_id}/sgf")
async def download_sgf(
    game_id: Id,
    request: Request,
    viewer: MaybeViewer,
    db: DB,
    invite: Invite | None = None,
) -> Response:
    user_id = viewer.user.id if viewer else None
    game = await queries.load_visible_game(db, game_id, user_id, invite)
    if game.status not in {"active", "finished", "cancelled"}:
        raise HTTPException(409, {"error": "conflict", "message": "the game has not started"})
    uploaded = await record_of(db, game.id)
    if uploaded is not None:  # the record as uploaded: its variations and comments too
        return Response(
            uploaded.sgf.encode("utf-8"),
            media_type="application/x-go-sgf",
            headers={"Content-Disposition": f'attachment; filename="miai-{game_id}.sgf"'},
        )
    if game.status == "cancelled":  # never started: the empty board, as the record's start
        state = table_of(game.kind, game.options).new_state()
    else:
        state = await service_of(request).stream.current_state(db, game)
    data = await sgf_record(db, game, state, request.app.state.settings.base_url)
    return Response(
        data,
        media_type="application/x-go-sgf",
        headers={"Content-Disposition": f'attachment; filename="miai-{game_id}.sgf"'},
    )


@router.get("/dashboard")
async def my_dashboard(request: Request, viewer: CurrentViewer, db: DB) -> dict[str, Any]:
    challenges = await repo.challenges_for(db, viewer.user.id)
    names = {
        u.id: u.username for u in (await repo.users_by_ids(db, [g.created_by for g in challenges])).values()
    }
    now = service_of(request).stream.now()
    games = await queries.dashboard(db, viewer.user.id)
    players = await finding.players_of_games(db, [g["id"] for g in games])
    for game in games:  # named by its players, as every list names a game (js/gameparts.js, gameName)
        game["players"] = players_view(players[game["id"]])
    return {
        "now": now.isoformat(),  # deadlines count down on the server's time
        "games": games,
        "removals": await queries.recent_removals(db, viewer.user.id, now),
        "challenges": [
            {
                "id": g.id,
                "kind": g.kind,
                "options": g.options,
                "from": g.created_by,
                "from_username": names.get(g.created_by),
                "invite_code": g.invite_code,
                "match_id": g.match_id,
            }
            for g in challenges
        ],
    }
