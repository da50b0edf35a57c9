"""A game's position in a few bytes, for thumbnails in lists (the live list's `preview`).

`cells` has one character per point, `row * size + col` as in the game's own views (row 0: the first row of
the game's notation): `.` empty, `1`..`8` a stone or piece of that team, `x` a neutral blocker (an Amazons
arrow). A 19×19 board is 361 characters, where the full position view is a JSON list several times that.
"""

from __future__ import annotations

import math
from typing import Any

from miai.server.play.kinds import GoTable, KindTable, Table

BLOCKER = "x"
EMPTY = "."
TEAMS = range(1, 9)  # the server's teams (2..8 colours)
# Per point by a dict lookup in C (map): fast enough for a list of 19×19 boards on every request.
GO_CHARS: dict[int | None, str] = {None: EMPTY, **{t - 1: str(t) for t in TEAMS}}  # Go: a colour from 0
KIND_CHARS: dict[int, str] = {-1: BLOCKER, 0: EMPTY, **{t: str(t) for t in TEAMS}}  # Board: team + 1


def board_preview(table: Table, state: Any) -> dict[str, Any]:
    """`{"size": n, "cells": "..1.2.."}` of the state, for every kind with a board view."""
    return preview_of(cells_of(table, state))


def preview_of(cells: str) -> dict[str, Any]:
    """The preview of stored cells (every kind's board is square: its size is the root of their count)."""
    return {"size": math.isqrt(len(cells)), "cells": cells}


def cells_of(table: Table, state: Any) -> str:
    """The state's board, one character per point (see the module's docstring): stored with each move."""
    if isinstance(table, GoTable):
        return "".join(map(GO_CHARS.__getitem__, state.board()))
    assert isinstance(table, KindTable) and table.kind.board is not None
    return "".join(map(KIND_CHARS.__getitem__, table.kind.board(state).cells))
