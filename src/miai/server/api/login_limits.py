"""Login limits: password checks counted per account name, except for a browser the account logged in from.

Every password check is counted before the password is verified (argon2 takes a while, and guesses sent
all at once must not all slip through before the first failure is counted). Strangers guessing a name use
up its count and lock out logins to it from unknown browsers (with the right password too). A successful
login leaves a signed device cookie (identity/devices.py); a later login to that account from that browser is
counted under the device alone, so the owner still gets in.
"""

from __future__ import annotations

from fastapi import Request, Response

from miai.server.api.rate_limits import RateLimits, client_address, enforce, rate_limits_of
from miai.server.identity import devices


class LoginAttempt:
    """Counts one password check: under its recognised device, or its address and account."""

    @staticmethod
    async def start(request: Request, username: str) -> None:
        """Count the check before the password is verified; 429 with Retry-After when over a limit."""
        limits = rate_limits_of(request.app)
        device = devices.recognise(_secret(request), request.cookies.get(devices.COOKIE), username)
        if device is not None:
            who = ("device", device)
        else:
            await enforce(request, "login", "address", client_address(request))
            who = ("account", username.lower())
        await _count(limits, who)

    @staticmethod
    async def for_session(request: Request, user_id: int) -> None:
        """The password checked by a logged-in session (the current password of a change, or entering sudo):
        guesses by whoever holds a session are limited too (counted per account, apart from logins, so they
        cannot lock the owner's logins out)."""
        limits = rate_limits_of(request.app)
        await _count(limits, ("session-check", str(user_id)))

    @staticmethod
    def remember_device(request: Request, response: Response, username: str) -> None:
        """After a successful login: the cookie that recognises this browser for this account next time."""
        settings = request.app.state.settings
        response.set_cookie(
            devices.COOKIE,
            devices.issue(_secret(request), username),
            max_age=devices.MAX_AGE,
            path=devices.PATH,
            httponly=True,
            samesite="strict",
            secure=bool(settings.cookie_secure),
        )


async def _count(limits: RateLimits, who: tuple[str, str]) -> None:
    await limits.hit("login_checks", *who)  # RateLimited: a 429 with Retry-After


def _secret(request: Request) -> str:
    return str(request.app.state.settings.secret_key)
