"""One rule for "a computer player" (identity/bots.is_computer): a bot account with an engine level. The
names shown, the engine seats of a game and the ratings all follow it, so a member's bot (no level) or an
account whose level was emptied is a player, never a computer that nobody would move for."""

from __future__ import annotations

from typing import Any

import pytest

from miai.server.identity.bots import is_computer
from miai.server.play.queries import shown_name
from miai.server.storage.models import User


def account(is_bot: bool, settings: dict[str, Any]) -> User:
    return User(
        username="someone",
        password_hash="!",
        is_guest=False,
        is_admin=False,
        is_bot=is_bot,
        settings=settings,
    )


@pytest.mark.parametrize(
    ("is_bot", "settings", "computer"),
    [
        (True, {"bot_level": 3}, True),
        (True, {"bot_level": "gnugo"}, True),  # an external engine, by name
        (True, {}, False),  # a member's bot (POST /me/bot)
        (True, {"bot_level": ""}, False),
        (True, {"bot_level": 0}, False),
        (True, {"bot_level": None}, False),
        (False, {"bot_level": 3}, False),  # a person's settings never make them a computer
    ],
)
def test_a_computer_is_a_bot_account_with_an_engine_level(
    is_bot: bool, settings: dict[str, Any], computer: bool
) -> None:
    user = account(is_bot, settings)
    assert is_computer(user) is computer
    assert (shown_name(user) != "someone") is computer  # shown by engine and level, or by name
