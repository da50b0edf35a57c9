"""Miai's computer (level 10 by default) against OpenSpiel's MCTS in the games other than Go.

    python bench/strength_games.py --game hex --games 20 --seconds 2

OpenSpiel's C++ `MCTSBot` (UCT, random rollouts) is the opponent, its number of simulations calibrated in
the same run so that it thinks as long per move as Miai does: first on the opening position (the
simulations it runs in `--seconds`), then after every game by the ratio of the two sides' measured seconds
per move so far. Colours alternate, Miai first in game 1. Reported: Miai's wins with a 95% Wilson interval,
the seconds per move of each side and the simulations used. Progress goes to stderr.

Each game has an adapter between Miai's state and moves and OpenSpiel's actions (an OpenSpiel player may
take several actions for one Miai move, as in Amazons). The two engines' states advance side by side; a
game where they disagree on legality, on the end or on the winner stops the run with an error, and
`--check N` plays N random games through both before the match to verify the mapping.

Tanbo is not in OpenSpiel: `--game tanbo` plays flat Monte Carlo given `--factor` (4) times Miai's time
instead (bench/flat_mc.py, no OpenSpiel needed).

OpenSpiel is a development dependency of this benchmark only: `pip install open-spiel` (or the project's
`bench` extra, `pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from miai.core import amazons
from miai.core.hex import FIRST, MAX_SIZE, MIN_SIZE, HexState, new_game
from miai.core.twoplayer import Place, Resign, Timeout
from miai.engines.players import AnyGameSeat
from miai.engines.pool import portable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength import mean, wilson

INSTALL_HINT = "OpenSpiel is missing: pip install open-spiel (or pip install -e '.[bench]')"


class Adapter(Protocol):
    """One game as both engines see it."""

    name: str

    def miai_start(self) -> Any:
        """Miai's starting state."""
        ...

    def spiel_game(self, pyspiel: Any) -> Any:
        """The same game loaded in OpenSpiel."""
        ...

    def actions(self, state: Any, move: Any) -> list[int]:
        """The OpenSpiel actions that make Miai's `move` in `state`."""
        ...

    def move(self, state: Any, actions: list[int]) -> Any:
        """Miai's move for the OpenSpiel actions one player took in `state`."""
        ...


@dataclass
class HexAdapter:
    """OpenSpiel's hex numbers cells `row * size + column` from the top-left corner, as Miai does, and its
    first player ("x") joins top and bottom as Miai's Black does. No swap (OpenSpiel's default)."""

    size: int = 11
    name: str = "hex"

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"Hex boards here are {MIN_SIZE}..{MAX_SIZE} cells wide, not {self.size}")

    def miai_start(self) -> HexState:
        return new_game(self.size, "none")

    def spiel_game(self, pyspiel: Any) -> Any:
        return pyspiel.load_game("hex", {"board_size": self.size})

    def actions(self, state: HexState, move: Any) -> list[int]:
        if not isinstance(move, Place):
            raise ValueError(f"OpenSpiel's hex has no move like {move!r}")
        return [move.point]

    def move(self, state: HexState, actions: list[int]) -> Place:
        (action,) = actions
        return Place(action)


@dataclass
class AmazonsAdapter:
    """OpenSpiel's amazons (10×10 only) takes a turn as three actions, from, to and arrow, each a square
    numbered `row * 10 + column` from the top-left corner; Miai's rows count from the bottom. Its first
    player ("X") starts on d1, g1, a4, j4 as Miai's White does."""

    size: int = amazons.SIZE
    name: str = "amazons"

    def miai_start(self) -> amazons.AmazonsState:
        return amazons.new_game()

    def spiel_game(self, pyspiel: Any) -> Any:
        return pyspiel.load_game("amazons")

    def _action(self, square: int) -> int:
        row, col = divmod(square, self.size)
        return (self.size - 1 - row) * self.size + col

    def actions(self, state: amazons.AmazonsState, move: Any) -> list[int]:
        if not isinstance(move, amazons.QueenMove):
            raise ValueError(f"OpenSpiel's amazons has no move like {move!r}")
        return [self._action(square) for square in move]

    def move(self, state: amazons.AmazonsState, actions: list[int]) -> amazons.QueenMove:
        frm, to, arrow = (self._action(action) for action in actions)  # the mapping is its own inverse
        return amazons.QueenMove(frm, to, arrow)


def make_adapter(game: str, size: int | None) -> Adapter:
    if game == "hex":
        return HexAdapter(size or 11)
    if game == "amazons":
        if size not in (None, amazons.SIZE):
            raise ValueError(f"OpenSpiel's amazons is {amazons.SIZE}x{amazons.SIZE} only")
        return AmazonsAdapter()
    raise ValueError(f"no adapter for {game!r} (known: {', '.join(sorted(GAMES))})")


GAMES = ("hex", "amazons", "tanbo")  # tanbo: against flat Monte Carlo (bench/flat_mc.py)


class MismatchError(RuntimeError):
    """Miai and OpenSpiel disagree about a game: the adapter is wrong (or one of the engines is)."""


@dataclass
class Tally:
    wins: float = 0.0
    games: int = 0
    miai_seconds: list[float] = field(default_factory=list)
    spiel_seconds: list[float] = field(default_factory=list)
    simulations: list[int] = field(default_factory=list)
    miai_playouts: list[int] = field(default_factory=list)


def agree_at_end(adapter: Adapter, state: Any, spiel_state: Any) -> int:
    """The winner both engines report for a finished game; MismatchError when they differ."""
    if state.is_over != spiel_state.is_terminal():
        raise MismatchError(
            f"{adapter.name}: Miai over={state.is_over}, OpenSpiel over={spiel_state.is_terminal()}"
        )
    if state.winner is None:
        raise MismatchError(f"{adapter.name}: a finished game without a winner")
    returns = spiel_state.returns()
    if returns[state.winner] <= returns[1 - state.winner]:
        raise MismatchError(f"{adapter.name}: Miai says player {state.winner} won, OpenSpiel {returns}")
    return int(state.winner)


def spiel_turn(bot: Any, spiel_state: Any) -> list[int]:
    """The actions OpenSpiel's bot takes while it stays on move (one Miai move)."""
    player = spiel_state.current_player()
    taken: list[int] = []
    while not spiel_state.is_terminal() and spiel_state.current_player() == player:
        action = bot.step(spiel_state)
        taken.append(action)
        spiel_state.apply_action(action)
    return taken


def apply_miai(adapter: Adapter, spiel_state: Any, state: Any, move: Any) -> None:
    for action in adapter.actions(state, move):
        if action not in spiel_state.legal_actions():
            raise MismatchError(f"{adapter.name}: OpenSpiel refuses action {action} for Miai's {move!r}")
        spiel_state.apply_action(action)


def check_mapping(adapter: Adapter, pyspiel: Any, games: int, seed: int) -> None:
    """Random games through both engines: same legal moves each turn, same winner at the end."""
    rng = random.Random(seed)
    game = adapter.spiel_game(pyspiel)
    for _ in range(games):
        state, spiel_state = adapter.miai_start(), game.new_initial_state()
        while not state.is_over:
            moves = state.legal_moves()
            wanted = sorted(tuple(adapter.actions(state, m)) for m in moves)
            one_action = len(adapter.actions(state, moves[0])) == 1  # then compare the whole lists
            if one_action and [a for (a,) in wanted] != sorted(spiel_state.legal_actions()):
                raise MismatchError(f"{adapter.name}: legal moves differ at ply {state.plies}")
            move = rng.choice(moves)
            apply_miai(adapter, spiel_state, state, move)
            state = state.play(move)
        agree_at_end(adapter, state, spiel_state)


def make_bot(pyspiel: Any, game: Any, simulations: int, seed: int) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)


def calibrate(pyspiel: Any, game: Any, seconds: float, seed: int) -> int:
    """The simulations OpenSpiel's MCTS runs in `seconds` on the opening position."""
    probe = 100
    while True:
        bot = make_bot(pyspiel, game, probe, seed)
        start = time.monotonic()
        spiel_turn(bot, game.new_initial_state())  # a whole turn: several actions in Amazons
        spent = time.monotonic() - start
        if spent >= seconds / 2 or probe >= 1_000_000:  # a long enough probe to see a busy machine
            return max(10, int(probe * seconds / max(spent, 1e-6)))
        probe *= 4


def play_game(
    adapter: Adapter,
    pyspiel: Any,
    game: Any,
    simulations: int,
    seconds: float,
    level: int,
    miai_player: int,
    seed: int,
    tally: Tally,
) -> int:
    """One game; returns the winner (0 moves first)."""
    seat = AnyGameSeat(level)
    bot = make_bot(pyspiel, game, simulations, seed)
    state, spiel_state = adapter.miai_start(), game.new_initial_state()
    try:
        while not state.is_over:
            if state.to_move == miai_player:
                start = time.monotonic()
                move = seat.move(portable(state), seconds, seed + state.plies)  # as the server sends it
                tally.miai_seconds.append(time.monotonic() - start)
                tally.miai_playouts.append(getattr(seat.searcher, "last_playouts", 0))  # 0: not reported
                if isinstance(move, Resign | Timeout):
                    return 1 - miai_player
                apply_miai(adapter, spiel_state, state, move)
            else:
                start = time.monotonic()
                actions = spiel_turn(bot, spiel_state)
                tally.spiel_seconds.append(time.monotonic() - start)
                move = adapter.move(state, actions)
            state = state.play(move)
        return agree_at_end(adapter, state, spiel_state)
    finally:
        seat.close()


def run(args: argparse.Namespace, pyspiel: Any) -> Tally:
    adapter = make_adapter(args.game, args.size)
    if args.check:
        check_mapping(adapter, pyspiel, args.check, args.seed)
        print(f"mapping checked on {args.check} random games", file=sys.stderr, flush=True)
    game = adapter.spiel_game(pyspiel)
    warm_up = AnyGameSeat(args.level)  # compiling (or loading) Miai's engine is not thinking time
    warm_up.move(adapter.miai_start(), 0.05, args.seed)
    warm_up.close()
    simulations = args.simulations or calibrate(pyspiel, game, args.seconds, args.seed)
    print(f"OpenSpiel MCTS starts at {simulations} simulations a move", file=sys.stderr, flush=True)
    tally = Tally()
    for number in range(args.games):
        miai_player = FIRST if number % 2 == 0 else 1 - FIRST
        tally.simulations.append(simulations)
        miai_before, spiel_before = len(tally.miai_seconds), len(tally.spiel_seconds)
        winner = play_game(
            adapter,
            pyspiel,
            game,
            simulations,
            args.seconds,
            args.level,
            miai_player,
            args.seed + number,
            tally,
        )
        tally.games += 1
        tally.wins += winner == miai_player
        low, high = wilson(tally.wins, tally.games)
        result = "won" if winner == miai_player else "lost"
        miai_spm, spiel_spm = mean(tally.miai_seconds), mean(tally.spiel_seconds)
        print(
            f"game {number + 1}: Miai {'first' if miai_player == FIRST else 'second'}, "
            f"{result}; {tally.wins:g}/{tally.games} [{low:.2f}, {high:.2f}]; "
            f"s/move Miai {miai_spm:.2f} OpenSpiel {spiel_spm:.2f} "
            f"({simulations} sims)",
            file=sys.stderr,
            flush=True,
        )
        spiel_game = tally.spiel_seconds[spiel_before:]
        if not args.simulations and spiel_game:  # keep OpenSpiel's think time level with Miai's (this game)
            ratio = mean(tally.miai_seconds[miai_before:]) / max(mean(spiel_game), 1e-6)
            simulations = max(10, int(simulations * min(2.0, max(0.5, ratio))))
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Miai vs OpenSpiel MCTS: wins with a 95% interval")
    parser.add_argument("--game", choices=GAMES, default="hex")
    parser.add_argument("--size", type=int, default=None, help="board size (hex: 11 by default)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=2.0, help="Miai's seconds per move")
    parser.add_argument("--level", type=int, default=10, help="Miai's level (1..10)")
    parser.add_argument(
        "--simulations", type=int, default=0, help="fix OpenSpiel's simulations (no calibration)"
    )
    parser.add_argument("--check", type=int, default=20, help="random games to verify the mapping first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--factor", type=float, default=4.0, help="tanbo: the flat player's time factor")
    args = parser.parse_args(argv)
    if args.games < 1 or not (0 < args.seconds < 3600) or not 1 <= args.level <= 10:
        parser.error("--games must be at least 1, --seconds in (0, 3600) and --level 1..10")
    if args.check < 0 or args.simulations < 0:
        parser.error("--check and --simulations cannot be negative")
    if args.game == "tanbo":  # not in OpenSpiel: a flat Monte Carlo player given --factor times the time
        from flat_mc import tanbo_main

        return tanbo_main(args)
    try:
        make_adapter(args.game, args.size)
    except ValueError as error:  # e.g. an Amazons size OpenSpiel does not have
        parser.error(str(error))
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    tally = run(args, pyspiel)
    low, high = wilson(tally.wins, tally.games)
    sims = sorted(tally.simulations)
    print(
        f"{args.game} {args.size or 'default'} Miai level {args.level} vs OpenSpiel MCTS "
        f"at {args.seconds:g} s a move: "
        f"{tally.wins:g}/{tally.games} = {tally.wins / tally.games:.0%}, 95% [{low:.2f}, {high:.2f}]; "
        f"s/move Miai {mean(tally.miai_seconds):.2f}, OpenSpiel {mean(tally.spiel_seconds):.2f}; "
        f"OpenSpiel simulations {sims[0]}..{sims[-1]} (median {sims[len(sims) // 2]}); "
        f"Miai playouts a move {mean([float(n) for n in tally.miai_playouts]):.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
