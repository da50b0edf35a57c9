"""The texts a game's record stores for what is not a placed stone or piece: the play package writes them,
the ratings count around them (a leaf module, so that both may use it)."""

from __future__ import annotations

PASS = "pass"
AUTO_PASS = "autopass"  # a pass the server made for a player (a team left, a turn skipped)
RESIGN = "resign"
TIMEOUT = "timeout"
AGREED_DRAW = "draw"  # stored as team 0: no team made it
NOT_MOVES = frozenset({PASS, AUTO_PASS, RESIGN, TIMEOUT, AGREED_DRAW})
