"""The input types every HTTP body, path, query and websocket message is validated with.

One place for the rules of text and numbers at the server's edge, so that nothing the database or the JSON
encoder would choke on gets past it: text has no NUL, no lone UTF-16 surrogate and no other control
character (line breaks and tabs are allowed where a text may span lines); ids and versions fit a 63-bit
signed integer; real numbers are finite. Values outside these rules get a 422 (HTTP) or a `bad_message`
error (websocket), never a 500.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

MAX_ID = 2**63 - 1  # the largest id or version any database here stores (BIGINT)
LINE_BREAKS = frozenset("\n\r\t")


def clean_text(value: str, multiline: bool = False) -> str:
    """The text itself, or ValueError saying which character is refused (and where)."""
    for index, char in enumerate(value):
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"a lone surrogate (U+{code:04X}) at position {index} is not text")
        if multiline and char in LINE_BREAKS:
            continue
        if unicodedata.category(char) == "Cc":  # NUL, other C0/C1 controls, DEL
            raise ValueError(f"control character U+{code:04X} at position {index} is not allowed")
    return value


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
# A database id (path or body): 1 .. 2**63-1.
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
# A game version or ply the client saw: 0 .. 2**63-1.
Version = Annotated[int, Field(ge=0, le=MAX_ID)]
# A real number that must be finite (komi, seconds).
Finite = Annotated[float, Field(allow_inf_nan=False), AfterValidator(_finite)]
