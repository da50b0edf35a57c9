"""How computer players are named to people: by engine and level, never by their account's name."""

from __future__ import annotations


def computer_name(level: int | str) -> str:
    """`Miai, level 3` for Miai's own levels; an external engine (MIAI_EXTERNAL_ENGINES) by its name."""
    return f"Miai, level {level}" if isinstance(level, int) else str(level)
