"""Whether a finished game counts for ratings: the one place that decides (docs/api.md, "Ratings").

A game marked rated by its creator moves ratings only if it is a fair test of strength, so that nobody can
farm rating points from a second account, a guest, a throw-away game or a lopsided setting:

- played by people with accounts: at least two different accounts, nobody twice, no guest and none of
  the server's computer players (practice games are never rated: `mode` is `standard`);
- bot accounts (`POST /me/bot`) and people do not sit together in a rated game unless the operator allows it
  (MIAI_BOTS_RATED_VS_PEOPLE): `bot_seating_reason`, checked when a challenge is made, at every seat, and
  again on the result (a player may switch to a bot mid-game);
- at least `MIN_RATED_MOVES` moves played before a resignation or timeout ended it (OGS lets either player
  cancel a game without result during its first 6 moves; lichess aborts a game unrated until both players
  have moved): a resignation after one move is not rated;
- on a standard board: Go on 9x9, 13x13 or 19x19 (the sizes the kind keys are named after), other kinds on
  the sizes the kind suggests (Hex 11, 13, 19; Amazons and Tanbo have one size);
- Hex with a fair opening (swap, or the centre-row ban): without one the first player wins with the centre
  stone, so the game tests nothing;
- Go's komi and handicap within what real games use: komi 0..9 for every colour (the presets' 6.5 and
  7.5, 0.5 in handicap games, 0 without komi), at most 9 handicap stones (OGS's limit for ranked games).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from miai.core.hex import Opening
from miai.server.game_options import GoOptions, KindOptions

MIN_RATED_MOVES = 6
RATED_GO_SIZES = frozenset({9, 13, 19})
RATED_KOMI = (0.0, 9.0)
MAX_RATED_HANDICAP = 9
RATED_HEX_OPENINGS = frozenset({Opening.SWAP, Opening.CENTRE_ROW_BAN})


@dataclass(frozen=True)
class Seated:
    """What the rules need to know of one seated account."""

    user_id: int
    is_guest: bool
    is_computer: bool  # the server's own computer player (a `miai bot` account is a player like any other)
    is_bot: bool  # the account's stored `is_bot`: a bot account (`POST /me/bot`), under `bot_seating_reason`


def setup_unrated_reason(kind: str, options: GoOptions | KindOptions) -> str | None:
    """Why a game with these options would not be rated (None: it can be), before anyone has played."""
    if not options.rated:
        return "the game is not rated"
    if options.mode != "standard":
        return "practice games are never rated"
    if isinstance(options, GoOptions):
        return _go_setup(options)
    return _kind_setup(kind, options.game)


def _go_setup(options: GoOptions) -> str | None:
    if options.size not in RATED_GO_SIZES:
        return "rated Go is played on 9x9, 13x13 or 19x19"
    if not 0 <= options.handicap <= MAX_RATED_HANDICAP:
        return f"a rated game has at most {MAX_RATED_HANDICAP} handicap stones"
    low, high = RATED_KOMI
    if options.komi is not None and not all(low <= float(k) <= high for k in options.komi):
        return f"a rated game's komi is {low:g}..{high:g}"
    return None


def _kind_setup(kind: str, chosen: Mapping[str, Any]) -> str | None:
    from miai.core.registry import kind as game_kind

    for offer in game_kind(kind).offers:
        standard = offer.suggested or offer.values
        if offer.name == "size" and standard and chosen.get("size", offer.default) not in standard:
            sizes = ", ".join(map(str, standard))
            return f"rated {kind} is played on size {sizes}"
    if kind == "hex" and chosen.get("opening", Opening.SWAP.value) not in RATED_HEX_OPENINGS:
        return "rated hex is played with the swap or the centre-row ban opening"
    return None


BOTS_VS_PEOPLE = "bots play rated games against people only where the operator allows it"


def bot_seating_reason(rated: bool, bot_flags: Sequence[bool], bots_vs_people: bool) -> str | None:
    """Why these accounts may not sit together in this game (None: they may). `bot_flags`: each account's
    stored `is_bot`; `bots_vs_people`: the operator's MIAI_BOTS_RATED_VS_PEOPLE. A rated game may not mix
    bot accounts and people unless the operator allows it (bots among themselves may play rated)."""
    if rated and not bots_vs_people and any(bot_flags) and not all(bot_flags):
        return BOTS_VS_PEOPLE
    return None


def moves_played(plies: int, result: Mapping[str, Any]) -> int:
    """The moves of a finished game (placements and passes): its plies less the resignations and
    timeouts, which the stored result lists under `left`."""
    left = result.get("left")
    return plies - (len(left) if isinstance(left, list) else 0)


def unrated_reason(
    kind: str,
    options: GoOptions | KindOptions,
    players: Sequence[Seated],
    moves: int,
    bots_vs_people: bool,
) -> str | None:
    """Why a finished game does not count for ratings (None: it does). `players`: every seat's account
    (a player in two seats appears twice); `moves`: `moves_played`; `bots_vs_people`: the operator's
    MIAI_BOTS_RATED_VS_PEOPLE."""
    setup = setup_unrated_reason(kind, options)
    if setup is not None:
        return setup
    ids = [p.user_id for p in players]
    if len(set(ids)) != len(ids) or len(ids) < 2:
        return "a rated game is between different accounts"
    if any(p.is_guest for p in players):
        return "guests are never rated"
    if any(p.is_computer for p in players):
        return "games against the computer are never rated"
    mixed = bot_seating_reason(True, [p.is_bot for p in players], bots_vs_people)
    if mixed is not None:
        return mixed
    if moves < MIN_RATED_MOVES:
        return f"a game of fewer than {MIN_RATED_MOVES} moves is not rated"
    return None
