"""Sudo: the account changes a stolen credential must not make, and what may make them.

Changing the e-mail address or the password, and creating or deleting API tokens, open a way into the
account (a new address receives password resets; a new token is a new key). API tokens live on bot servers
and in scripts, so they leak: a token never makes such changes. A login session does, within `sudo_minutes`
of proving its password: logging in or registering proves it, and `POST /session/sudo` proves it again
(as GitHub's sudo mode), so a session cookie left in an unlocked browser has a short window too. A password
change carries the current password itself, which is that proof.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from miai.server.errors import SessionRequired, SudoRequired


def sudo_until(checked_at: datetime | None, minutes: int) -> datetime | None:
    """Until when a session whose password was checked at `checked_at` may change the account."""
    return None if checked_at is None else checked_at + timedelta(minutes=minutes)


def refuse_tokens(via_session: bool) -> None:
    """SessionRequired unless the request came with a login session (not an API token)."""
    if not via_session:
        raise SessionRequired(
            "an API token cannot change the account (address, password, API tokens): "
            "log in with the password and do it from that session"
        )


def require(via_session: bool, checked_at: datetime | None, now: datetime, minutes: int) -> None:
    """The one rule: SessionRequired for an API token, SudoRequired for a session whose password was not
    checked in the last `minutes` (enter it again: POST /api/v1/session/sudo)."""
    refuse_tokens(via_session)
    until = sudo_until(checked_at, minutes)
    if until is None or until <= now:
        raise SudoRequired(
            f"confirm your password first (POST /api/v1/session/sudo): account changes need it "
            f"entered in the last {minutes} minutes"
        )
