"""Recognised devices: a signed cookie that a successful login or registration leaves in the browser.

A later login to the same account from that browser is counted under the device, not under the account's
failure counter, so strangers failing logins on a name cannot lock its owner out. The cookie holds a
random device id and an HMAC of it and the account name with the server's secret key; it is sent only to the
login route.
"""

from __future__ import annotations

import secrets

from miai.server.identity.signing import matches, signature

COOKIE = "miai_device"
PATH = "/api/v1/session"  # the only route that reads it
MAX_AGE = 365 * 86400
PURPOSE = "device cookie"


def _message(username: str, device: str) -> str:
    return f"{username.lower()}\x00{device}"


def issue(secret: str, username: str) -> str:
    """A new device cookie for an account that just logged in."""
    device = secrets.token_urlsafe(16)
    return f"{device}.{signature(secret, PURPOSE, _message(username, device))}"


def recognise(secret: str, cookie: str | None, username: str) -> str | None:
    """The device id when `cookie` is a genuine device cookie of the account `username`, else None."""
    if not cookie or cookie.count(".") != 1:
        return None
    device, sent = cookie.split(".")
    return device if matches(secret, PURPOSE, _message(username, device), sent) else None
