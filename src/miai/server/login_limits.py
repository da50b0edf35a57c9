"""Login limits: failed passwords counted per account name, except for a browser the account logged in from.

Strangers failing logins on a name use up its failure count and lock out logins to it from unknown browsers
(with the right password too). A successful login leaves a signed device cookie (devices.py); a later login
to that account from that browser is counted under the device alone, so the owner still gets in.
"""

from __future__ import annotations

import contextlib

from fastapi import Request, Response

from miai.server import devices
from miai.server.ratelimit import RateLimited, RateLimits, client_address, enforce, rate_limits_of


class LoginAttempt:
    """One password check's place in the limits: under its recognised device, or its address and account."""

    def __init__(self, limits: RateLimits, who: tuple[str, str]) -> None:
        self.limits = limits
        self.who = who

    @staticmethod
    async def start(request: Request, username: str) -> LoginAttempt:
        """Check the limits before a password is verified; 429 with Retry-After when over one."""
        limits = rate_limits_of(request.app)
        device = devices.recognise(_secret(request), request.cookies.get(devices.COOKIE), username)
        if device is not None:
            who = ("device", device)
        else:
            await enforce(request, "login", "address", client_address(request))
            who = ("account", username.lower())
        try:
            await limits.check("login_failures", *who)
        except RateLimited as err:
            raise err.http() from None
        return LoginAttempt(limits, who)

    @staticmethod
    async def for_password_change(request: Request, user_id: int) -> LoginAttempt:
        """The current password checked before a change: guesses by whoever holds a session are limited too
        (counted per account, apart from logins, so they cannot lock the owner's logins out)."""
        limits = rate_limits_of(request.app)
        who = ("password-change", str(user_id))
        try:
            await limits.check("login_failures", *who)
        except RateLimited as err:
            raise err.http() from None
        return LoginAttempt(limits, who)

    async def failed(self) -> None:
        """Count a wrong password (the next attempt over the limit gets the 429, this one its 401)."""
        with contextlib.suppress(RateLimited):
            await self.limits.hit("login_failures", *self.who)

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


def _secret(request: Request) -> str:
    return str(request.app.state.settings.secret_key)

