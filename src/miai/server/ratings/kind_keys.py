"""Which rating a game counts for (its kind key) and with which system.

Go is rated per board-size class as OGS does: "go-9" (boards up to 11x11), "go-13" (12..15), "go-19"
(16 and up). Go with more than two colours is "go-multi"; Amazons, Hex and Tanbo have one key each, their
kind's. Two teams of one player each are rated with Glicko-2; teams of several players (pair Go, say) with
OpenSkill under the key's "-teams" variant ("go-19-teams"), since one key holds ratings of one system only.
"""

from __future__ import annotations

from miai.server.game_options import GoOptions, KindOptions
from miai.server.ratings.systems import System

MAX_KEY_LENGTH = 24


def go_size_class(size: int) -> str:
    if size <= 11:
        return "go-9"
    if size <= 15:
        return "go-13"
    return "go-19"


def kind_key(kind: str, options: GoOptions | KindOptions) -> str:
    """The key of the ratings a game of `kind` with `options` counts for."""
    if kind == "go" and isinstance(options, GoOptions):
        if options.teams > 2:
            return "go-multi"
        base = go_size_class(options.size)
    else:
        base = kind
    return f"{base}-teams" if options.players_per_team > 1 else base


def system_of(key: str) -> System:
    """Glicko-2 for one-on-one keys, OpenSkill for team and multi-colour keys."""
    return "openskill" if key.endswith("-teams") or key == "go-multi" else "glicko2"


def known_key(key: str) -> bool:
    """Whether `key` names a rating this server can have (path parameters of the leaderboard)."""
    from miai.core.registry import KINDS

    bases = {"go-9", "go-13", "go-19", *(k for k in KINDS if k != "go")}
    return key == "go-multi" or key in bases or key.removesuffix("-teams") in bases
