"""Whether a finished game counts for ratings: the one place that decides (docs/api.md, "Ratings").

A game marked rated by its creator moves ratings only if it is a fair test of strength, so that nobody can
farm rating points from a second account, a guest, a throw-away game or a lopsided setting:

- played by people with accounts: at least two different accounts, nobody twice, no guest and none of
  the server's computer players (practice games are never rated: `mode` is `standard`);
- bot accounts (`POST /me/bot`) and people do not sit together in a rated game unless the operator allows it
  (MIAI_BOTS_RATED_VS_PEOPLE): `bot_seating_reason`, checked when a challenge is made, at every seat, and
  again on the result (a player may switch to a bot mid-game);
- every side has played its share before the game ended, however it ended (resignation, timeout, passes):
  at least `min_moves_each` moves, passes not counted (lichess aborts a game unrated until both sides have
  moved; OGS lets a game be cancelled during its first moves). A booster account that resigns, times out
  or passes after a few moves hands out no rating: 10 moves on 9x9, 15 on 13x13, 20 on 19x19 (a quarter
  of a 9x9 board's points, a ninth of 19x19's: real games are rarely decided sooner), half the side on
  Hex (5, 6, 9: a win takes a whole side), 10 in Amazons and Tanbo;
- at most `RATED_GAMES_PER_PAIR` rated games of one kind key between the same two opponents within
  `PAIR_WINDOW`: later ones are stored unrated, so that a booster's account hands out a few games' worth
  a day, not hundreds. In team and multi-colour games every two players on different teams are a pair;
- on a standard board: Go on 9x9, 13x13 or 19x19 (the sizes the kind keys are named after), other kinds on
  the sizes the kind suggests (Hex 11, 13, 19; Amazons and Tanbo have one size);
- Hex with a fair opening (swap, or the centre-row ban): without one the first player wins with the centre
  stone, so the game tests nothing;
- Go's komi and handicap within what real games use: komi 0..9 for every colour (the presets' 6.5 and
  7.5, 0.5 in handicap games, 0 without komi), at most 9 handicap stones (OGS's limit for ranked games).

A game that does not count is recorded with its reason (`RULES`: which check refused it); `miai ratings
recompute` checks the moves and the pair allowance again over the whole history (store.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from itertools import combinations
from typing import Any

from miai.core.hex import Opening
from miai.server.game_options import GoOptions, KindOptions
from miai.server.move_texts import NOT_MOVES

GO_MOVES_EACH = {9: 10, 13: 15, 19: 20}  # by board size (the rated sizes)
KIND_MOVES_EACH = {"amazons": 10, "tanbo": 10}  # Hex: half the board's side
RATED_GAMES_PER_PAIR = 3
PAIR_WINDOW = timedelta(hours=24)
# Why a game marked rated did not count: `setup` (options, players, bots) is decided once, for good;
# `moves` and `pair` are checked again by a recompute (the stored moves and the rated history decide them).
SETUP, MOVES, PAIR = "setup", "moves", "pair"
RULES = (SETUP, MOVES, PAIR)
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


def min_moves_each(kind: str, options: GoOptions | KindOptions) -> int:
    """The moves every side must have played for the game to be rated (passes not counted)."""
    if isinstance(options, GoOptions):
        return GO_MOVES_EACH.get(options.size, options.size + 1)
    if kind == "hex":
        size = options.game.get("size", 11)
        return max(1, size // 2) if isinstance(size, int) else 1
    return KIND_MOVES_EACH.get(kind, 10)


def moves_by_team(record: Iterable[tuple[int, str]]) -> dict[int, int]:
    """Team -> its moves in a game's record of (team, stored move text): stones and pieces placed and
    Hex's swap, not passes, resignations, timeouts or an agreed draw."""
    counts: dict[int, int] = {}
    for team, text in record:
        if text not in NOT_MOVES:
            counts[team] = counts.get(team, 0) + 1
    return counts


def short_game_reason(kind: str, options: GoOptions | KindOptions, moves: Mapping[int, int]) -> str | None:
    """Why a game is too short to be rated (None: every team played enough); `moves`: `moves_by_team`."""
    needed = min_moves_each(kind, options)
    if any(moves.get(team, 0) < needed for team in range(1, options.teams + 1)):
        return f"each side must play at least {needed} moves (passes not counted) for the game to be rated"
    return None


def opponent_pairs(teams: Mapping[int, Sequence[int]]) -> set[tuple[int, int]]:
    """Every two accounts on different teams, as (lower id, higher id)."""
    seated = [(team, user) for team, members in teams.items() for user in members]
    return {(min(a, b), max(a, b)) for (ta, a), (tb, b) in combinations(seated, 2) if ta != tb and a != b}


def pair_reason(games_before: Mapping[tuple[int, int], int]) -> str | None:
    """Why a game is over the pair allowance (None: it is not); `games_before`: per opponent pair, the
    rated games of the key between them within `PAIR_WINDOW` before this one."""
    if any(n >= RATED_GAMES_PER_PAIR for n in games_before.values()):
        hours = round(PAIR_WINDOW.total_seconds() / 3600)
        return (
            f"only the first {RATED_GAMES_PER_PAIR} rated games between the same two players "
            f"in {hours} hours count"
        )
    return None


def unrated_reason(
    kind: str,
    options: GoOptions | KindOptions,
    players: Sequence[Seated],
    moves: Mapping[int, int],
    bots_vs_people: bool,
) -> tuple[str, str] | None:
    """Why a finished game does not count for ratings, as (rule, reason), before the pair allowance
    (None: it may count). `players`: every seat's account (a player in two seats appears twice); `moves`:
    `moves_by_team`; `bots_vs_people`: the operator's MIAI_BOTS_RATED_VS_PEOPLE."""
    fixed = _setup_and_players(kind, options, players, bots_vs_people)
    if fixed is not None:
        return SETUP, fixed
    short = short_game_reason(kind, options, moves)
    return (MOVES, short) if short is not None else None


def _setup_and_players(
    kind: str, options: GoOptions | KindOptions, players: Sequence[Seated], bots_vs_people: bool
) -> str | None:
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
    return bot_seating_reason(True, [p.is_bot for p in players], bots_vs_people)
