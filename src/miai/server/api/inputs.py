"""The input types every HTTP body, path, query and websocket message is validated with.

One place for the rules of text and numbers at the server's edge, so that nothing the database or the JSON
encoder would choke on gets past it: text has no NUL, no lone UTF-16 surrogate and no other control
character (line breaks and tabs are allowed where a text may span lines: `miai.server.text`, which the
command lines use too); ids and versions fit a 63-bit signed integer; real numbers are finite. Values
outside these rules get a 422 (HTTP) or a `bad_message` error (websocket), never a 500.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import AfterValidator, Field, PlainValidator

from miai.server.text import clean_text

MAX_ID = 2**63 - 1  # a whole number a client may send at all (64-bit signed)
# Ids and versions are INTEGER columns (32-bit signed on PostgreSQL): a larger one is never looked up.
MAX_KEY = 2**31 - 1
MAX_OPTION_NAME = 32
MAX_OPTION_TEXT = 64


def _one_line(value: str) -> str:
    return clean_text(value, multiline=False)


def _lines(value: str) -> str:
    return clean_text(value, multiline=True)


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


# A name, a channel, a username, an e-mail address: one line of printable text.
Line = Annotated[str, AfterValidator(_one_line)]
# Chat messages, comments, notes: may hold line breaks and tabs.
Text = Annotated[str, AfterValidator(_lines)]
# A database id (path or body): 1 .. 2**31-1.
Id = Annotated[int, Field(ge=1, le=MAX_KEY)]
# A game version or ply the client saw: 0 .. 2**31-1.
Version = Annotated[int, Field(ge=0, le=MAX_KEY)]
# A real number that must be finite (komi, seconds).
Finite = Annotated[float, Field(allow_inf_nan=False), AfterValidator(_finite)]

# Fields of game requests, shared by the HTTP bodies (api/games.py, api/practice.py) and the websocket
# messages (api/ws_messages.py).
MoveText = Annotated[
    Line,
    Field(
        min_length=1,
        max_length=16,
        description="the game's notation: Go D4, pass; Amazons a4-d4/d7; Hex f6, swap; Tanbo K10; or resign",
    ),
]
# ASCII digits only: str.isdigit() also says yes to "²" or "٣", which int() then refuses or misreads.
Channel = Annotated[
    Line,
    Field(
        max_length=32,
        pattern=r"^(public|team|team:[0-9]{1,19}|user:[0-9]{1,19})$",
        description="public, team, team:N or user:ID",
    ),
]
ChatText = Annotated[Text, Field(min_length=1, max_length=2000)]
Invite = Annotated[Line, Field(max_length=64)]
# Real numbers have a range and refuse NaN and infinities with a clear message (JSON bodies may spell them).
Komi = Annotated[float, Field(ge=-50, le=50, allow_inf_nan=False)]


def _option_value(value: Any) -> bool | int | float | str | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if not -MAX_ID - 1 <= value <= MAX_ID:
            raise ValueError("a whole number must fit in 64 bits")
        return value
    if isinstance(value, float):
        return _finite(value)
    if isinstance(value, str):
        if len(value) > MAX_OPTION_TEXT:
            raise ValueError(f"a text option is at most {MAX_OPTION_TEXT} characters")
        return clean_text(value)
    raise ValueError("an option is a flag, a number or a short text")


# The value of an option another game kind defines (Hex's `opening`, ...), sent as an extra body field:
# a flag, a 64-bit whole number, a finite number or a short line of text; the kind then checks it against
# its offers. One validator (not a union) so that a refusal is one clear sentence.
OptionValue = Annotated[
    Any, PlainValidator(_option_value, json_schema_input_type=bool | int | float | str | None)
]


def clean_option_names(data: Any) -> Any:
    """A `model_validator(mode="before")` for bodies with extra fields: their names must be short clean lines,
    because they are echoed in error messages (and a lone surrogate cannot be encoded as UTF-8)."""
    if isinstance(data, dict):
        for name in data:
            if not isinstance(name, str) or len(name) > MAX_OPTION_NAME:
                raise ValueError(f"an option name is at most {MAX_OPTION_NAME} characters")
            try:
                clean_text(name)
            except ValueError as err:
                raise ValueError(f"option name: {err}") from None
    return data
