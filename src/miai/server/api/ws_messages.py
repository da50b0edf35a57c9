"""The messages clients send on the websockets, validated with the same field types as the HTTP bodies.

A message is one JSON text `{"t": type, "d": data, "id": your id}`; `t` chooses the model. Parsing goes
straight from the text to a model (pydantic's JSON parser), so a hostile message (a lone surrogate escape,
deep nesting, a number beyond 64 bits or not finite, a wrong type) is refused here with one sentence,
before anything reaches the game service or the database. See docs/realtime.md for the protocol.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, Strict, TypeAdapter, ValidationError

from miai.server.api.inputs import MAX_ID, Channel, ChatText, Id, Invite, Line, MoveText, Version

MAX_MESSAGE = 8192  # characters of one text frame
MAX_REASON = 300  # characters of an error sentence sent back (validation errors can be long)
MAX_ID_TEXT = 64

# The client's request id, echoed in the ack or error: a 64-bit integer, a short line of text, or null.
ClientId = (
    Annotated[int, Strict(), Field(ge=-MAX_ID - 1, le=MAX_ID)]
    | Annotated[Line, Strict(), Field(max_length=MAX_ID_TEXT)]
)


class MoveData(BaseModel):
    move: MoveText
    v: Version | None = Field(None, description="the game version the move was made against")


class ResignData(BaseModel):
    v: Version | None = None


class ChatData(BaseModel):
    channel: Channel = "public"
    text: ChatText


class MoveMessage(BaseModel):
    t: Literal["move"]
    d: MoveData
    id: ClientId | None = None


class ResignMessage(BaseModel):
    t: Literal["resign"]
    d: ResignData | None = None
    id: ClientId | None = None


class ChatMessage(BaseModel):
    t: Literal["chat"]
    d: ChatData
    id: ClientId | None = None


class PingMessage(BaseModel):
    t: Literal["ping"]
    id: ClientId | None = None


class Envelope(BaseModel):
    """Only the id of a message, read again when the message as a whole is refused (for the error)."""

    id: ClientId | None = None


GameMessage = Annotated[MoveMessage | ResignMessage | ChatMessage | PingMessage, Field(discriminator="t")]

GAME_MESSAGES: TypeAdapter[GameMessage] = TypeAdapter(GameMessage)
USER_MESSAGES: TypeAdapter[PingMessage] = TypeAdapter(PingMessage)
_ENVELOPES: TypeAdapter[Envelope] = TypeAdapter(Envelope)
T = TypeVar("T")
_SHAPE = 'a message is an object {"t": type, "d": data, "id": your id}'


class BadMessage(ValueError):
    """A message the server cannot accept; `request_id` is its id when that much could be read."""

    def __init__(self, reason: str, request_id: int | str | None = None) -> None:
        super().__init__(reason)
        self.request_id = request_id

    def body(self) -> dict[str, Any]:
        return {"id": self.request_id, "error": "bad_message", "message": str(self)}


def parse_game_message(text: str) -> MoveMessage | ResignMessage | ChatMessage | PingMessage:
    """The message a game socket received, or BadMessage."""
    return _parse(GAME_MESSAGES, text, "use move, resign, chat or ping")


def parse_user_message(text: str) -> PingMessage:
    """The message a user socket received (only `ping`), or BadMessage."""
    return _parse(USER_MESSAGES, text, "the user socket takes only ping")


def _parse(adapter: TypeAdapter[T], text: str, known: str) -> T:
    if len(text) > MAX_MESSAGE:
        raise BadMessage(f"a message is at most {MAX_MESSAGE} characters")
    try:
        return adapter.validate_json(text)
    except ValidationError as err:
        raise BadMessage(_reason(err, known)[:MAX_REASON], _request_id(text)) from None


def _request_id(text: str) -> int | str | None:
    try:
        return _ENVELOPES.validate_json(text).id
    except ValidationError:
        return None


def _reason(err: ValidationError, known: str) -> str:
    """One sentence for the first problem: `d.text: ...`, never the refused value itself."""
    problem = err.errors(include_url=False, include_input=False)[0]
    kind = problem["type"]
    if kind == "json_invalid":
        detail = problem["msg"].removeprefix("Invalid JSON: ")
        if "escape" in detail:  # "\\ud800" alone: a lone UTF-16 surrogate is not text
            return f"not JSON text: {detail} (a lone surrogate escape is not a character)"
        return f"not JSON: {detail}"
    if kind == "union_tag_invalid":
        return f"unknown message type {problem.get('ctx', {}).get('tag', '')!r}; {known}"
    if kind in {"union_tag_not_found", "model_attributes_type", "model_type"} and not problem["loc"]:
        return _SHAPE
    if kind == "literal_error" and problem["loc"] == ("t",):
        return f"unknown message type; {known}"
    # The first element of a location is the message type chosen by "t": leave it out.
    loc = [str(part) for part in problem["loc"]]
    if loc and loc[0] in {"move", "resign", "chat", "ping"} and len(loc) > 1:
        loc = loc[1:]
    if loc[:1] == ["id"]:
        return f"id: a whole number (64 bits) or a text of at most {MAX_ID_TEXT} characters, or null"
    return f"{'.'.join(loc)}: {problem['msg']}" if loc else str(problem["msg"])


_GAME_IDS: TypeAdapter[int] = TypeAdapter(Id)
_VERSIONS: TypeAdapter[int] = TypeAdapter(Version)
_INVITES: TypeAdapter[str] = TypeAdapter(Invite)


def parse_socket_target(
    game_id: str, since: str | None, invite: str | None = None
) -> tuple[int, int | None, str | None]:
    """A game socket's game id (path), `since` and `invite` (query), or BadMessage when one is out of its
    range (1..2**31-1, 0..2**31-1, a clean line of at most 64 characters): such values are never looked up."""
    try:
        number = _GAME_IDS.validate_strings(game_id)
    except ValidationError:
        raise BadMessage("the game id must be a whole number 1..2**31-1") from None
    try:
        code = None if invite is None else _INVITES.validate_python(invite)
    except ValidationError:
        raise BadMessage("invite: at most 64 characters, no control characters") from None
    if not since:  # no `since`, or an empty one: the client has seen nothing
        return number, None, code
    try:
        return number, _VERSIONS.validate_strings(since), code
    except ValidationError:
        raise BadMessage("since must be a whole number 0..2**31-1") from None
