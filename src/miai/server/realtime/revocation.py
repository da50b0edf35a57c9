"""Closing the websockets of a credential that stopped being valid (a deleted API token, a logout, a password
change or reset that ends sessions), in every server process.

A websocket remembers the credential it was opened with: its key is the hash stored for it
(`api_tokens.token_hash` or `sessions.token_hash`, i.e. `auth.token_hash(token)`), never the token itself.
Sockets of a revoked credential are closed with code 4401; commands in flight on them finish.
"""

from __future__ import annotations

from miai.server.realtime.hub import REVOKED, Hub

__all__ = ["REVOKED", "revoke"]


async def revoke(hub: Hub, user_id: int, credential: str | None = None) -> None:
    """Close every open websocket of `user_id` authenticated by `credential` (a stored token hash), or
    every websocket of that user when `credential` is None. Call it after the change is committed. Without
    Redis (or while it is away) this process's sockets close at once and the other processes are told as
    soon as Redis is back."""
    await hub.revoke(user_id, credential)
