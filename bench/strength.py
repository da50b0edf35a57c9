"""Match Miai against GNU Go over GTP and report its strength per level.

    python bench/strength.py --size 9 --games 10 --levels 1 5 10 --seconds 2

Each level plays `--games` games against GNU Go (level 10 by default), colours alternating, area scoring
with komi 7.5 unless told otherwise. A separate GNU Go process started with --chinese-rules referees: it
receives every move and gives the final score (its dead-stone judgement) when both sides pass or the move
cap is reached, or its score estimate of the position when the GNU Go player crashes (GNU Go 3.8 does, in
some 19×19 positions). Reported per level: wins with a 95% Wilson interval, average seconds per Miai
move, and Miai's playouts per second (from its `miai-stats` command when available). Progress goes to
stderr; `--sgf-dir` keeps every game's record and a log of its moves.

Miai is driven through bench/miai_gtp.py by default; `--miai-command` runs any other command instead, with
{level}, {seconds} and {seed} filled in, e.g. "python -m miai gtp --level {level} --time {seconds}".
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from miai.core.errors import IllegalMove
from miai.core.go import PASS, Place, new_game, preset
from miai.formats.gtp import GtpChannelError, GtpController, SubprocessChannel, find_gnugo
from miai.formats.gtp.protocol import Vertex, format_vertex
from miai.formats.sgf.go import dump_go

HERE = Path(__file__).resolve().parent


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean(values: list[float] | list[int]) -> float:
    """The average, 0 for no values (a benchmark's seconds or playouts a move)."""
    return sum(values) / len(values) if values else 0.0


@dataclass
class LevelResult:
    level: str
    wins: float = 0.0
    games: int = 0
    move_seconds: list[float] = field(default_factory=list)
    playouts: int = 0
    search_seconds: float = 0.0
    results: list[str] = field(default_factory=list)
    void: int = 0  # games GNU Go could neither finish nor judge
    adjudicated: int = 0  # games GNU Go could not finish, judged by the referee's estimate

    def seconds_per_move(self) -> float:
        return sum(self.move_seconds) / len(self.move_seconds) if self.move_seconds else 0.0

    def playouts_per_second(self) -> float:
        return self.playouts / self.search_seconds if self.search_seconds else 0.0


def miai_argv(template: str | None, level: str, seconds: float, seed: int) -> list[str]:
    if template:
        return shlex.split(template.format(level=level, seconds=seconds, seed=seed))
    return [
        sys.executable,
        str(HERE / "miai_gtp.py"),
        "--level",
        level,
        "--time",
        str(seconds),
        "--seed",
        str(seed),
    ]


def play_game(
    miai: GtpController,
    gnugo: GtpController,
    referee: GtpController,
    miai_colour: str,
    size: int,
    komi: float,
    max_moves: int,
    tally: LevelResult,
    record: list[Vertex | None],
    log: TextIO | None = None,
) -> str:
    """One game; returns the referee's result text such as 'B+12.5' or 'W+R'. The moves (None for a pass)
    go to `record`; `log` gets a line per move: number, colour, player, move, seconds and Miai's playouts,
    search seconds and win rate."""
    for engine in (miai, gnugo, referee):
        engine.boardsize(size)
        engine.clear_board()
        engine.komi(komi)
    players = {miai_colour: miai, ("w" if miai_colour == "b" else "b"): gnugo}
    colour = "b"
    passes = 0
    for _ in range(max_moves):
        mover = players[colour]
        other = players["w" if colour == "b" else "b"]
        start = time.monotonic()
        move = mover.genmove(colour)
        seconds = time.monotonic() - start
        stats: list[str] = []
        if mover is miai:
            tally.move_seconds.append(seconds)
            try:
                stats = miai.command("miai-stats").split()
                tally.playouts += int(stats[0])
                tally.search_seconds += float(stats[1])
            except Exception:  # an engine without the command: no playout statistics
                stats = []
        if log is not None:
            who = "miai" if mover is miai else "gnugo"
            shown = "resign" if move == "resign" else format_vertex(move, size)
            log.write(f"{len(record) + 1} {colour} {who} {shown} {seconds:.2f}s {' '.join(stats)}\n")
            log.flush()
        if move == "resign":
            return ("W" if colour == "b" else "B") + "+R"
        record.append(move)
        other.play(colour, move)
        referee.play(colour, move)
        passes = passes + 1 if move is None else 0
        if passes >= 2:
            break
        colour = "w" if colour == "b" else "b"
    return referee.final_score()


def game_record(moves: list[Vertex | None], size: int, komi: float, info: dict[str, str]) -> bytes:
    """The game as SGF, written by Miai's own SGF writer from a replay under Chinese rules. A move those
    rules refuse (GNU Go knows no superko) ends the replay there, with a comment saying so."""
    state = new_game(size, preset("chinese", size, komi=komi))
    for number, vertex in enumerate(moves, 1):
        move = PASS if vertex is None else Place(vertex[1] * size + vertex[0])
        try:
            state = state.play(move)
        except IllegalMove as refused:
            info = {**info, "C": f"replay stopped at move {number}: {refused}"}
            break
    return dump_go(state, info, "chinese")


def gnugo_failed(exc: GtpChannelError, gnugo_path: str) -> bool:
    """Whether the channel error came from a GNU Go process (player or referee), not from Miai."""
    return str(exc).startswith(f"engine {gnugo_path} ")


def run_level(args: argparse.Namespace, level: str, gnugo_path: str) -> LevelResult:
    tally = LevelResult(level)
    gnugo_argv = [gnugo_path, "--mode", "gtp", "--level", str(args.gnugo_level), "--chinese-rules"]
    referee_argv = [gnugo_path, "--mode", "gtp", "--chinese-rules"]
    timeout = max(120.0, 20 * args.seconds)
    miai_channel = SubprocessChannel(miai_argv(args.miai_command, level, args.seconds, args.seed), timeout)
    with GtpController(miai_channel) as miai:
        for game in range(args.games):
            miai_colour = "b" if game % 2 == 0 else "w"
            start = time.monotonic()
            record: list[Vertex | None] = []
            log = None
            if args.sgf_dir:
                Path(args.sgf_dir).mkdir(parents=True, exist_ok=True)
                log = (Path(args.sgf_dir) / f"level{level}-game{game + 1}.log").open("w")
            try:
                # GNU Go afresh for every game: GNU Go 3.8 sometimes crashes on big boards (a segmentation
                # fault in genmove, at every level, in some positions); the referee then judges the game
                # as it stands by its score estimate, and only if it cannot either is the game void.
                with (
                    GtpController(SubprocessChannel(gnugo_argv, timeout)) as gnugo,
                    GtpController(SubprocessChannel(referee_argv, timeout)) as referee,
                ):
                    try:
                        result = play_game(
                            miai, gnugo, referee, miai_colour, args.size, args.komi, args.max_moves, tally,
                            record, log,
                        )
                    except GtpChannelError as exc:
                        if not gnugo_failed(exc, gnugo_path):
                            raise
                        result = referee.command("estimate_score").split()[0]
                        tally.adjudicated += 1
                        print(
                            f"level {level} game {game + 1}: {exc}; adjudicated by the referee's estimate",
                            file=sys.stderr,
                            flush=True,
                        )
            except GtpChannelError as exc:
                if not gnugo_failed(exc, gnugo_path):
                    raise
                print(f"level {level} game {game + 1}: void, {exc}", file=sys.stderr, flush=True)
                tally.void += 1
                continue
            finally:
                if log is not None:
                    log.close()
            if args.sgf_dir:
                names = ("Miai level " + level, f"GNU Go level {args.gnugo_level}")
                black, white = names if miai_colour == "b" else names[::-1]
                path = Path(args.sgf_dir) / f"level{level}-game{game + 1}-{result.replace('+', '_')}.sgf"
                path.parent.mkdir(parents=True, exist_ok=True)
                info = {"PB": black, "PW": white, "RE": result}
                path.write_bytes(game_record(record, args.size, args.komi, info))
            winner = result[:1].lower()
            score = 1.0 if winner == miai_colour else 0.5 if result.strip() == "0" else 0.0
            tally.wins += score
            tally.games += 1
            tally.results.append(result)
            side = "Black" if miai_colour == "b" else "White"
            print(
                f"level {level} game {game + 1}/{args.games}: Miai {side},"
                f" {result} ({'win' if score == 1 else 'loss' if score == 0 else 'draw'}),"
                f" {time.monotonic() - start:.0f} s; so far {tally.wins:g}/{tally.games},"
                f" {tally.seconds_per_move():.2f} s/move, {tally.playouts_per_second():,.0f} playouts/s",
                file=sys.stderr,
                flush=True,
            )
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Miai vs GNU Go: wins per level with 95% intervals")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=10, help="games per level")
    parser.add_argument("--levels", nargs="+", default=["1", "5", "10"])
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--seconds", type=float, default=2.0, help="Miai's seconds per move")
    parser.add_argument("--gnugo-level", type=int, default=10)
    parser.add_argument("--max-moves", type=int, default=0, help="move cap (default 3 × size²)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sgf-dir", default=None, help="save each game's record (SGF) and a log of its moves in this folder"
    )
    parser.add_argument("--miai-command", default=None, help="command template to run Miai's GTP engine")
    args = parser.parse_args(argv)
    if not 5 <= args.size <= 25 or args.games < 1 or args.seconds <= 0:
        parser.error("need a size of 5..25, at least one game and a positive time per move")
    args.max_moves = args.max_moves or 3 * args.size * args.size
    gnugo = find_gnugo()
    if gnugo is None:
        print("GNU Go not found: install it (apt-get install gnugo) or set MIAI_GNUGO", file=sys.stderr)
        return 2
    print(
        f"Miai vs GNU Go level {args.gnugo_level}: {args.size}x{args.size}, komi {args.komi}, area scoring,"
        f" {args.games} games per level, {args.seconds} s per Miai move",
    )
    print(f"{'level':>6} {'wins':>8} {'win rate':>9} {'95% CI':>15} {'s/move':>7} {'playouts/s':>11}")
    for level in args.levels:
        tally = run_level(args, level, gnugo)
        low, high = wilson(tally.wins, tally.games)
        per_move = tally.seconds_per_move()
        rate = tally.playouts_per_second()
        crashes = [f"{tally.adjudicated} adjudicated"] if tally.adjudicated else []
        crashes += [f"{tally.void} void"] if tally.void else []
        void = f"  ({', '.join(crashes)}: GNU Go crashed)" if crashes else ""
        print(
            f"{level:>6} {tally.wins:>4g}/{tally.games:<3} {tally.wins / max(1, tally.games):>9.0%}"
            f" {f'[{low:.0%}, {high:.0%}]':>15} {per_move:>7.2f} {rate:>11,.0f}{void}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
