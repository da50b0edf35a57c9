"""Playing the computer: practice games, computer seats, undo / redo, and the "Area" estimate."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, model_validator

from miai.server.api.deps import DB, CurrentViewer, MaybeViewer, MemberViewer, service_of
from miai.server.api.guests import viewer_or_new_guest
from miai.server.api.inputs import Id, Invite, Komi, Line, OptionValue, clean_option_names
from miai.server.api.rate_limits import per_user
from miai.server.api.views import user_view
from miai.server.game_options import GoOptions, KindOptions, OptionsError
from miai.server.play.computer import Computers
from miai.server.play.practice import Practice, area
from miai.server.text import clean_text

router = APIRouter(tags=["computer"])
PRACTICE_SIZES = (7, 9, 13, 19)


MAX_ENGINE_NAME = 32


def _computer_level(value: Any) -> int | str:
    """A computer level 1..10, or the name of an external engine configured by the operator."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10:
        return value
    if isinstance(value, str) and 1 <= len(value) <= MAX_ENGINE_NAME:
        return clean_text(value)
    raise ValueError(f"level must be 1..10 or an engine name of 1..{MAX_ENGINE_NAME} characters")


# One validator (not a union of two) so that a refusal is one sentence.
Level = Annotated[
    int | str,
    PlainValidator(
        _computer_level,
        json_schema_input_type=Annotated[int, Field(ge=1, le=10)]
        | Annotated[str, Field(min_length=1, max_length=MAX_ENGINE_NAME)],
    ),
]


class PracticeGame(BaseModel):
    model_config = ConfigDict(extra="allow")  # other kinds' own options, e.g. Hex's `opening`
    __pydantic_extra__: dict[str, OptionValue] = Field(init=False)

    kind: Line = Field("go", max_length=16, description="go, amazons, hex or tanbo (GET /kinds)")
    size: int = Field(9, ge=2, le=26, description="Go: 7, 9, 13 or 19 (Dgo's sizes); other kinds: theirs")
    mode: Literal["computer", "local"] = "computer"
    colour: Line = Field(
        "first", max_length=16, description="yours: first, second, random, or a team name (black, white)"
    )
    level: Level = Field(1, description="1..10, or the name of an external engine configured by the operator")
    handicap: int = Field(0, ge=0, le=9)
    preset: Line = Field("dgo", max_length=32)
    komi: Komi | None = None

    @model_validator(mode="before")
    @classmethod
    def _option_names(cls, data: Any) -> Any:
        return clean_option_names(data)


class ComputerSeat(BaseModel):
    team: int | None = Field(None, ge=1, le=8)
    level: Level = 1


def computers(request: Request) -> Computers:
    return request.app.state.computers  # type: ignore[no-any-return]


def practice(request: Request) -> Practice:
    return request.app.state.practice  # type: ignore[no-any-return]


PRACTICE_ONLY = frozenset({"kind", "mode", "colour", "level", "rated"})  # fields that are not game options


def practice_options(body: PracticeGame) -> GoOptions | KindOptions:
    """The options of a practice game of the body's kind; OptionsError when they do not fit."""
    rated = (body.model_extra or {}).get("rated")
    if rated is not None and rated is not False:
        raise OptionsError("practice games (against the computer or at one screen) are never rated")
    table: dict[str, Any] = {
        "mode": body.mode,
        "level": body.level,
        "seconds_per_move": 30 * 86400,
        "visibility": "private",
    }
    if body.kind != "go":
        given = {**(body.model_extra or {}), **{k: getattr(body, k) for k in body.model_fields_set}}
        own = {k: v for k, v in given.items() if k not in PRACTICE_ONLY and v is not None}
        return KindOptions.build(body.kind, own, table)
    if body.size not in PRACTICE_SIZES:
        raise OptionsError("practice boards are 7, 9, 13 or 19")
    return GoOptions(
        size=body.size,
        preset=body.preset,
        handicap=body.handicap,
        komi=(body.komi,) if body.komi is not None else None,
        **table,
    )


@router.post("/practice", status_code=201, dependencies=[per_user("practice")])
async def create_practice_game(
    body: PracticeGame, request: Request, response: Response, viewer: MaybeViewer, db: DB
) -> dict[str, Any]:
    """Without a login this makes the visitor a guest: the answer then carries `guest` (the new user) and
    `csrf_token`, and sets the session cookie."""
    options = practice_options(body)
    options.validate()  # a refused body makes no guest
    viewer = await viewer_or_new_guest(request, response, viewer, db)
    game_id = await practice(request).create(viewer.user, options, body.colour)
    answer: dict[str, Any] = {"id": game_id}
    if viewer.user.is_guest:
        answer.update(guest=user_view(viewer.user, private=True), csrf_token=viewer.csrf)
    return answer


@router.post("/games/{game_id}/computer")
async def add_computer_player(
    game_id: Id, body: ComputerSeat, request: Request, viewer: MemberViewer
) -> dict[str, Any]:
    await computers(request).add_computer(viewer.user, game_id, body.team, body.level)
    return {"ok": True}


@router.post("/games/{game_id}/undo")
async def undo(game_id: Id, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    """Take back your last move and the computer's replies after it."""
    return await practice(request).undo(viewer.user, game_id)


@router.post("/games/{game_id}/redo")
async def redo(game_id: Id, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    return await practice(request).redo(viewer.user, game_id)


@router.post("/games/{game_id}/start")
async def back_to_start(game_id: Id, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    return await practice(request).undo(viewer.user, game_id, all_the_way=True)


@router.post("/games/{game_id}/end")
async def forward_to_end(game_id: Id, request: Request, viewer: CurrentViewer) -> dict[str, Any]:
    return await practice(request).redo(viewer.user, game_id, all_the_way=True)


@router.get("/games/{game_id}/area", dependencies=[per_user("area")])
async def territory_estimate(
    game_id: Id,
    request: Request,
    db: DB,
    viewer: MaybeViewer,
    invite: Invite | None = None,
) -> dict[str, Any]:
    """Per point (row 0 at the bottom): the estimated owner, for the "Area" view."""
    try:
        stream, estimate = service_of(request).stream, request.app.state.jobs.area
        return await area(stream, db, game_id, viewer.user.id if viewer else None, invite, estimate)
    except ImportError:
        raise HTTPException(
            503, {"error": "unavailable", "message": "no territory estimator installed"}
        ) from None
