"""Values signed with the server's secret key (MIAI_SECRET_KEY): the session cookie, the device cookie.

Each use names its purpose, and each purpose signs with a key of its own derived from the secret, so that a
signature made for one use never passes for another. Changing the secret invalidates every signature.
"""

from __future__ import annotations

import base64
import hashlib
import hmac


def signature(secret: str, purpose: str, message: str) -> str:
    """The HMAC-SHA256 of `message` under the purpose's key, URL-safe base64 without padding."""
    key = hmac.new(secret.encode("utf-8", "surrogatepass"), purpose.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, message.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def matches(secret: str, purpose: str, message: str, sent: str) -> bool:
    """Whether `sent` is the signature of `message`, in constant time. Any text is safe here: bytes are
    compared (compare_digest refuses str beyond ASCII, which a client may send)."""
    expected = signature(secret, purpose, message).encode()
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected)
