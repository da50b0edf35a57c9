"""A Go player on top of the kernel search: its budget, deliberate weakness, and when to pass or resign.

Passing: the player passes when every legal placement would fill one of its own eyes, when the search
itself prefers the pass, when it is not behind and every remaining placement is on a point whose owner
the playouts agree on and none of its chains is in atari (playing there changes nothing; under rules that
score every stone as it stands, the playouts must also agree with the board as it is now), or when its pass
would end the game and the score says it wins (the exact count when every stone counts as it stands, else
the playouts' estimate of the dead stones).

Whatever the level (its deliberate errors and small searches included), a pass that would end the game is
answered with a pass when no placement can change the result (`_nothing_left`): the dead-stone estimator
counts the game as it stands, and the player passes when it wins that count, or when it is behind by more
than the open (neutral) points it could still fill and no capture is left to make. And it passes first when
it wins that count, every border is closed (no neutral point is left) and each placement would only fill a
territory.

Resigning: only when the win rate stays below a threshold for several searches in a row, and never in a
game of more than two colours (leaving hands the other teams an unearned result) unless the caller says
that every team is a computer.

Dynamic komi (two colours, 13×13 and up, when the style asks for it): a search that wins by far looks at
all moves alike, and slack moves give away a lead that its playouts overrate. So while the win rate stays
high the player counts itself a few points short, and gives them back as the game turns closer (Baudiš's
adaptive dynamic komi, simplified).

Memo: `memo()` is the player's state between moves that is not its tree (the resign streak, the dynamic
komi) as JSON-able data, and `restore(memo, state)` takes it back in another player (another process, after
a restart), but only when `state` goes on from the position the memo was made at.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from miai.core.go import PASS, RESIGN, GoState, Move, Place
from miai.core.go.rules import DeadStones
from miai.core.go.scoring import ownership as board_ownership
from miai.core.go.scoring import score
from miai.engines.go_search import DEFAULT_CAPACITY, KernelSearch, first_state, warm_up
from miai.engines.kernel.board import is_eye
from miai.engines.kernel.convert import from_state
from miai.engines.kernel.layout import padded
from miai.engines.result import SearchResult

KOMI_RAISE_ABOVE = 0.8  # dynamic komi: ask for more margin above this win rate ...
KOMI_LOWER_BELOW = 0.6  # ... and give it back below this one
KOMI_MAX_SHARE = 0.1  # at most this share of the board's points
SETTLED = 0.9  # a point whose owner agrees in this share of playouts is settled
MIN_PLAYOUTS_FOR_SETTLED = 64
PASS_MARGIN = 0.05
END_PLAYOUTS = 300  # the estimator's playouts when deciding whether anything is left to play
MEMO_VERSION = 1
MAX_MEMO_STREAK = 1_000  # far more hopeless searches in a row than any policy waits for


@dataclass(frozen=True)
class ResignPolicy:
    threshold: float = 0.05  # resign below this win rate ...
    searches: int = 3  # ... in this many searches in a row
    min_playouts: int = 500  # a search this small is too noisy to resign on
    all_computer: bool = False  # with more than two colours, resign only if every team is a computer


@dataclass(frozen=True)
class Style:
    """How hard the player tries: a playout and a time budget, and how much it deliberately errs."""

    playouts: int | None
    seconds: float | None
    temperature: float = 0.0  # > 0: pick among explored moves with probability ∝ visits^(1/T)
    blunder_rate: float = 0.0  # share of moves played at random among useful placements
    capacity: int = DEFAULT_CAPACITY
    threads: int = 1  # search threads (root parallelism)
    dynamic_komi: bool = False  # keep a margin when far ahead (two colours, 13×13 and up)


class GoPlayer:
    """Chooses Go moves; one instance follows one game so that it can reuse its tree and track resigning.

    Callable as a MoveGenerator: `player(state, colour, seconds) -> Move`.
    """

    def __init__(
        self,
        style: Style,
        seed: int = 0,
        resign: ResignPolicy | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        if style.playouts is None and style.seconds is None:
            raise ValueError("a style needs a playout budget, a time budget or both")
        self.style = style
        self.resign = resign if resign is not None else ResignPolicy()
        self.now = now
        self.search = KernelSearch(seed=seed, capacity=style.capacity, now=now, threads=style.threads)
        if style.seconds is not None:
            warm_up(style.threads)  # a time budget should not pay for loading the kernel
        self._rng = random.Random(seed)
        self._low_searches = 0
        self.last: SearchResult[Move] | None = None
        self.komi = DynamicKomi()
        self._seen = -1  # events of the game at the last move chosen (-1: none yet) ...
        self._at = ""  # ... and the fingerprint of the game up to there

    def __call__(self, state: GoState, colour: int, seconds: float | None = None) -> Move:
        return self.choose(state, colour, seconds)

    def choose(self, state: GoState, colour: int | None = None, seconds: float | None = None) -> Move:
        """The move for `colour` (default: the colour to move); `seconds` caps the time budget."""
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        start = self.now()
        colour = state.to_move if colour is None else colour
        if not 0 <= colour < state.colours or not state.active[colour]:
            raise ValueError(f"colour {colour} is not playing in this game")
        self.last = None
        useful = self._useful_placements(state, colour)
        if not useful or self._nothing_left(state, colour, useful):
            return PASS
        budget = self.style.seconds
        if seconds is not None:
            budget = seconds if budget is None else min(budget, seconds)
        if budget is not None:
            # The whole move keeps within the budget: what came before the search and a margin for what
            # follows it (reading the trees, the pass check) come off the search's share.
            spent = self.now() - start
            budget = max(0.2 * budget, budget - spent - min(0.1, 0.05 * budget))
        dynamic = self.style.dynamic_komi and state.colours == 2 and state.size >= DynamicKomi.MIN_SIZE
        follows = self.search.continues(state) or self._follows(state)
        self._seen, self._at = len(state.moves()), fingerprint(state, len(state.moves()))
        give = self.komi.before(follows) if dynamic else 0.0
        result = self.search.search(state, colour, self.style.playouts, budget, give)
        self.last = result
        if dynamic:
            self.komi.after(state, result.win_rate)
        if give == 0.0 and self._should_resign(state, colour, result):
            return RESIGN
        if self.style.blunder_rate and self._rng.random() < self.style.blunder_rate:
            return Place(self._rng.choice(useful))
        move = self._pick(result)
        if move == PASS or self._should_pass(state, colour, useful, result):
            return PASS
        return move

    # ----------------------------------------------------------------- memo

    def memo(self) -> dict[str, Any]:
        """What this player knows about its game besides its tree, as JSON-able data (see `restore`)."""
        return {
            "v": MEMO_VERSION,
            "moves": self._seen,
            "at": self._at,
            "low": self._low_searches,
            "komi": self.komi.points,
        }

    def restore(self, memo: object, state: GoState) -> bool:
        """Take over a memo of this game's player from elsewhere, if it is newer than what this player
        knows and `state` goes on from the position it was made at. Anything malformed is ignored (a memo
        comes back from storage: it is not trusted). Returns whether it was taken."""
        if not isinstance(memo, dict) or memo.get("v") != MEMO_VERSION:
            return False
        moves, at, low, komi = memo.get("moves"), memo.get("at"), memo.get("low"), memo.get("komi")
        if not (_whole(moves) and 0 <= moves <= len(state.moves()) and moves > self._seen):
            return False
        if not (_whole(low) and 0 <= low <= MAX_MEMO_STREAK):
            return False
        most = KOMI_MAX_SHARE * state.size * state.size
        if isinstance(komi, bool) or not isinstance(komi, int | float) or not 0 <= komi <= most:
            return False  # NaN fails the comparison too
        if not isinstance(at, str) or at != fingerprint(state, moves):
            return False  # another game, or another line of play (an undo)
        self._seen, self._at = moves, at
        # At most one search short of resigning: the last hopeless search is always this player's own.
        self._low_searches = min(low, max(0, self.resign.searches - 1))
        self.komi.points = float(komi)
        return True

    def _follows(self, state: GoState) -> bool:
        """Whether `state` goes on from the last position this player chose a move in (or was restored at)."""
        return 0 <= self._seen <= len(state.moves()) and self._at == fingerprint(state, self._seen)

    # ----------------------------------------------------------------- parts of the decision

    @staticmethod
    def _useful_placements(state: GoState, colour: int) -> list[int]:
        """Legal placements of `colour` that do not fill one of its own eyes."""
        position = from_state(state, colour)
        size = state.size
        return [p for p in state.legal_points(colour) if not is_eye(position.b, colour, padded(p, size))]

    def _nothing_left(self, state: GoState, colour: int, useful: list[int]) -> bool:
        """Whether no placement of `colour` can change the result, by the dead-stone estimator's count:
        asked when the others' passes make ours end the game, or when few points are left open."""
        in_play = state.active_mask.bit_count()
        ends = state.passes >= in_play - 1
        if not ends and len(useful) * 3 > state.size * state.size:
            return False  # the middle of the game: the search decides
        from miai.engines.estimator import estimate, score_judged

        judgement = estimate(state, END_PLAYOUTS)
        dead, owner = judgement.dead, judgement.owner
        if state.rules.dead_stones is DeadStones.ALL_ALIVE:  # every stone counts as it stands
            dead, owner = frozenset(), board_ownership(state)
        if self._capture_left(state, colour, useful, dead):
            return False
        open_points = sum(1 for p in useful if owner[p] is None)
        if not ends and (open_points or any(c is None for c in owner)):
            return False
        result = score_judged(state, judgement)
        if colour in result.winners:
            return True
        if not ends:
            return False  # behind: the search goes on (and may resign)
        totals = {s.colour: s.total for s in result.scores}
        behind = max(t for c, t in totals.items() if c != colour and state.active[c]) - totals[colour]
        return open_points < behind  # each fill gains at most a point: the count cannot turn

    def _capture_left(self, state: GoState, colour: int, useful: list[int], dead: frozenset[int]) -> bool:
        """Whether a live chain, ours or another colour's, has one liberty left at a point `colour` may
        play: a capture to make, or a chain to save."""

        def live(point: int) -> bool:
            return state.colour_at(point) is not None and point not in dead

        return _chain_in_atari(state, useful, live)

    def _pick(self, result: SearchResult[Move]) -> Move:
        placements = [c for c in result.children if c.visits > 0 and c.move != PASS]
        if not placements:
            return PASS
        best = placements[0]
        passing = next((c for c in result.children if c.move == PASS), None)
        # A pass must beat every placement clearly: when all moves look lost, keep playing anyway.
        if result.move == PASS and passing is not None and passing.win_rate > best.win_rate + PASS_MARGIN:
            return PASS
        temperature = self.style.temperature
        if temperature <= 0 or len(placements) < 2:
            return best.move
        weights = [c.visits ** (1.0 / temperature) for c in placements]
        return self._rng.choices([c.move for c in placements], weights)[0]

    def _should_pass(
        self, state: GoState, colour: int, useful: list[int], result: SearchResult[Move]
    ) -> bool:
        ownership = self.search.ownership()
        as_is = state.rules.dead_stones is DeadStones.ALL_ALIVE
        # Only a player who is not behind stops on "nothing left to gain": a losing one keeps trying.
        ahead = result.win_rate >= 1.0 / state.active_mask.bit_count()
        if ahead and result.playouts >= MIN_PLAYOUTS_FOR_SETTLED and ownership:
            if as_is:
                # Every stone counts as it stands, so a point is settled only if the playouts agree with
                # its owner on the board now (a chain in atari inside our area is not settled yet).
                now = board_ownership(state)
                settled = all((who := now[p]) is not None and ownership[who][p] >= SETTLED for p in useful)
            else:
                settled = all(max(share[p] for share in ownership) >= SETTLED for p in useful)
            if settled and not self._own_chain_in_atari(state, colour, useful):
                return True
        in_play = state.active_mask.bit_count()
        if state.passes < in_play - 1:
            return False
        # Our pass ends the game: pass only when we come out on top.
        scores = score(state)
        if as_is:
            totals = {s.colour: s.total for s in scores}
        elif ownership:
            totals = {s.colour: sum(ownership[s.colour]) + s.komi + s.captures for s in scores}
        else:
            return False
        best = max(totals[c] for c in range(state.colours) if state.active[c])
        return totals[colour] >= best

    @staticmethod
    def _own_chain_in_atari(state: GoState, colour: int, useful: list[int]) -> bool:
        """Whether a chain of `colour` has one liberty left, where it may still play. The playouts after a
        pass capture such a chain at once, so their agreement on its points says nothing about whether
        passing is safe (a lost game of the 19×19 match: a pass with five stones in atari)."""
        return _chain_in_atari(state, useful, lambda point: state.colour_at(point) == colour)

    def _should_resign(self, state: GoState, colour: int, result: SearchResult[Move]) -> bool:
        policy = self.resign
        if not policy.all_computer and (state.colours > 2 or len(state.seats[colour]) > 1):
            return False  # leaving would decide the game for other players too
        if result.playouts + result.reused < policy.min_playouts:
            return False
        if result.win_rate < policy.threshold:
            self._low_searches += 1
        else:
            self._low_searches = 0
        return self._low_searches >= policy.searches


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def fingerprint(state: GoState, moves: int) -> str:
    """A digest of the game `state` belongs to, up to its first `moves` events: the same in every process
    (the Zobrist tables are fixed), so a memo made elsewhere can tell whether a position follows on."""
    start = first_state(state)
    key = (state.size, state.colours, state.rules, start.hash, start.to_move, state.moves()[:moves])
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


class DynamicKomi:
    """The points a player gives away in its searches, following its win rate through one game."""

    MIN_SIZE = 13

    def __init__(self) -> None:
        self.points = 0.0

    def before(self, same_game: bool) -> float:
        """The points to give in this search (none when it does not follow on from the last one)."""
        if not same_game:
            self.points = 0.0
        return self.points

    def after(self, state: GoState, win_rate: float) -> None:
        step = max(0.5, state.size * state.size / 361)
        if win_rate > KOMI_RAISE_ABOVE:
            self.points = min(self.points + step, KOMI_MAX_SHARE * state.size * state.size)
        elif win_rate < KOMI_LOWER_BELOW:
            self.points = max(0.0, self.points - 2 * step)  # faster down: a losing search overplays


def _chain_in_atari(state: GoState, useful: list[int], counts: Callable[[int], bool]) -> bool:
    """Whether a chain whose stones `counts` has one liberty left, at one of the `useful` points."""
    open_points = set(useful)
    seen: set[int] = set()
    for point in range(state.size * state.size):
        if point in seen or not counts(point):
            continue
        seen.update(state.chain_points(point))
        liberties = state.liberties(point)
        if len(liberties) == 1 and next(iter(liberties)) in open_points:
            return True
    return False
