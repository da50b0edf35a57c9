"""Uploading an SGF record as a read-only review game, and reading an uploaded game's whole record."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from miai.server.api.deps import DB, MaybeViewer, MemberViewer, service_of
from miai.server.api.inputs import Id, Invite, Text
from miai.server.api.rate_limits import per_user
from miai.server.errors import NotFound
from miai.server.play import queries
from miai.server.play.uploads import (
    MAX_RECORD_BYTES,
    BadRecord,
    UploadCaps,
    read_upload,
    store_upload,
    upload_counts,
    uploads_of,
)
from miai.server.storage.uploads import record_of
from miai.server.text import clean_text

router = APIRouter(tags=["games"])
UPLOAD_PATH = "/api/v1/games/upload"
SGF_TYPE = "application/x-go-sgf"
# Uploads read at once by one process; the others wait their turn. Reading is Python work on a thread: two
# at once share one interpreter lock, finish no sooner, and leave the event loop (every other request) less
# of it (bench/uploads.md).
READERS_AT_ONCE = 1


class UploadRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sgf: Text = Field(min_length=1, max_length=MAX_RECORD_BYTES, description="the SGF file's text")


async def _record_bytes(request: Request) -> bytes:
    """The file: the raw body for `application/x-go-sgf`, else the `sgf` of a JSON body."""
    body = await request.body()  # at most MAX_RECORD_BYTES: the body limit of this route (app.py)
    if request.headers.get("content-type", "").split(";")[0].strip().lower() == SGF_TYPE:
        return body
    try:
        return UploadRecord.model_validate_json(body).sgf.encode("utf-8")
    except ValidationError as err:
        raise RequestValidationError(err.errors()) from None


def _readers(request: Request) -> asyncio.Semaphore:
    """This app's turn for reading uploads, made in its own event loop the first time it is needed."""
    state = request.app.state
    if not hasattr(state, "upload_readers"):
        state.upload_readers = asyncio.Semaphore(READERS_AT_ONCE)
    readers: asyncio.Semaphore = state.upload_readers
    return readers


def _caps(request: Request) -> UploadCaps:
    settings = request.app.state.settings
    return UploadCaps(settings.upload_records, settings.upload_moves)


@router.post("/games/upload", status_code=201, dependencies=[per_user("games")])
async def upload_record(request: Request, viewer: MemberViewer) -> dict[str, Any]:
    """A Go record (SGF, two colours or Miai's N-colour extension) becomes the uploader's read-only game.

    Body: `{"sgf": text}`, or the file itself with `Content-Type: application/x-go-sgf`; at most 1 MiB."""
    stream, caps = service_of(request).stream, _caps(request)
    caps.check(await uploads_of(stream, viewer.user))  # a member at the cap costs no reading
    data = await _record_bytes(request)
    # Reading replays every node of the tree, within the reader's budget (UPLOAD_LIMITS): off the event loop.
    async with _readers(request):
        upload = await asyncio.to_thread(read_upload, data)
    try:
        clean_text(upload.sgf, multiline=True)  # the database stores text: no NUL, no lone surrogate
    except ValueError as err:
        message = f"the record holds text that cannot be stored: {err}"
        raise BadRecord(message, line=None, column=None) from None
    game_id, totals = await store_upload(stream, viewer.user, upload, caps)
    variations = sum(1 for node in upload.nodes if not node["main"])
    return {
        "id": game_id,
        "moves": len(upload.steps),
        "variation_moves": variations,
        "uploads": upload_counts(totals, caps),
    }


@router.get("/me/uploads")
async def my_uploads(request: Request, viewer: MemberViewer) -> dict[str, int]:
    """How many records the member keeps uploaded and the moves they hold, with the most one may keep."""
    totals = await uploads_of(service_of(request).stream, viewer.user)
    return upload_counts(totals, _caps(request))


@router.get("/games/{game_id}/record")
async def uploaded_record(
    game_id: Id, viewer: MaybeViewer, db: DB, invite: Invite | None = None
) -> dict[str, Any]:
    """An uploaded game's record: its moves with the variations, and its SGF text."""
    user_id = viewer.user.id if viewer else None
    game = await queries.load_visible_game(db, game_id, user_id, invite)
    record = await record_of(db, game.id)
    if record is None:
        raise NotFound(f"game {game_id} was not uploaded: its record is GET /games/{game_id}/sgf")
    return {"id": game.id, "nodes": record.nodes, "sgf": record.sgf}
