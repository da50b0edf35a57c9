"""Bot accounts: the server's own computer players, and members who turned their account into a bot.

Both carry the stored `is_bot` flag. The server's computer players also have `settings.bot_level` (the
engine the server runs for them) and are never used from outside; a member's bot (driven by `miai bot`
through an API token) has no level, logs in and plays through the public API like anyone else.
"""

from __future__ import annotations

from miai.server.errors import BadInput
from miai.server.storage.models import User


def is_computer(user: User) -> bool:
    """The server's own computer player (never logged into, never rated): a bot account with an engine
    level (a number, or an external engine's name; an empty or zero level is none, as migration 0006
    decided). The one rule: every place that tells computers from people asks this."""
    return user.is_bot and bool((user.settings or {}).get("bot_level"))


def become_bot(user: User) -> bool:
    """Mark a member's own account as a bot, for good; False when it already was one."""
    if user.is_guest:
        raise BadInput("a guest cannot become a bot: register an account first")
    if user.is_admin:
        raise BadInput("an administrator's account cannot become a bot")
    if user.is_bot:
        return False
    user.is_bot = True
    return True
