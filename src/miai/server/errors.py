"""Errors of commands (game moves, account requests, anything limited), each with the HTTP status and a stable
code the API returns (HTTP: app.py's one handler; websocket: an error message with the same body)."""

from __future__ import annotations

from typing import Any


class CommandError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


class NotFound(CommandError):
    status = 404
    code = "not_found"


class Forbidden(CommandError):
    status = 403
    code = "forbidden"


class GuestsMayNot(Forbidden):
    """What a guest (identity/guests.py) may not do: anything but their own practice games."""

    code = "guest"

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message
            or "guests can only play the computer or a game at one screen: "
            "register (POST /api/v1/accounts) to do this"
        )


class SessionRequired(Forbidden):
    """Account changes that an API token may never make (identity/sudo.py): a leaked token plays and reads,
    it cannot take the account."""

    code = "session_required"


class SudoRequired(Forbidden):
    """Account changes that need the session's password checked a few minutes ago (identity/sudo.py)."""

    code = "sudo_required"


class Conflict(CommandError):
    status = 409
    code = "conflict"


class Stale(Conflict):
    code = "stale_version"


class IllegalMoveError(CommandError):
    status = 422
    code = "illegal_move"


class BadInput(CommandError):
    status = 422
    code = "bad_input"


class NotStored(CommandError):
    """The database refused or lost this command's writes; they were undone, nothing changed."""

    status = 503
    code = "not_stored"


class RateLimited(CommandError):
    """Over a limit (rate limits, mail caps): HTTP 429 with Retry-After, or a websocket error carrying
    `retry_after`. `reason` says which limit, e.g. "too many chat messages"."""

    status = 429
    code = "rate_limited"

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(f"{reason}; try again in {retry_after} s", retry_after=retry_after)
        self.retry_after = retry_after
