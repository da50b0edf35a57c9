"""Recognised devices: a signed cookie that a successful login or registration leaves in the browser.

A later login to the same account from that browser is counted under the device, not under the account's
failure counter, so strangers failing logins on a name cannot lock its owner out. The cookie holds a
random device id and an HMAC of it and the account name with the server's secret key; it is sent only to the
login route.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

COOKIE = "miai_device"
PATH = "/api/v1/session"  # the only route that reads it
MAX_AGE = 365 * 86400


def _signature(secret: str, username: str, device: str) -> str:
    key = hashlib.sha256(b"miai device cookie\x00" + secret.encode("utf-8", "surrogatepass")).digest()
    message = f"{username.lower()}\x00{device}".encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def issue(secret: str, username: str) -> str:
    """A new device cookie for an account that just logged in."""
    device = secrets.token_urlsafe(16)
    return f"{device}.{_signature(secret, username, device)}"


def recognise(secret: str, cookie: str | None, username: str) -> str | None:
    """The device id when `cookie` is a genuine device cookie of the account `username`, else None."""
    if not cookie or cookie.count(".") != 1:
        return None
    device, signature = cookie.split(".")
    expected = _signature(secret, username, device).encode()
    if not hmac.compare_digest(signature.encode("utf-8", "surrogatepass"), expected):  # any text, no error
        return None
    return device
