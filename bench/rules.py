"""Speed of Miai's pure-Python Go rules core, beside GNU Go measured in the same run.

    .venv/bin/python bench/rules.py [--quick]

Measures on the 9x9 and 19x19 games of ../shared/data/gnugo/games:
* plays per second replaying the games with `play_as` (positional superko and simple ko) and with the
  turn-based `play` (games whose colours alternate from the start);
* `legal_points` calls per second over positions taken from those games;
* random playouts per second from the empty board (uniform over legal points, never filling a single-point
  eye of the mover, positional superko);
* the whole corpus (every size) replayed with `play_as` under simple ko, beside GNU Go replaying the same
  moves over GTP (`play` and nothing else, commands pipelined through one process).
Every Miai rate is also given as a ratio to GNU Go's plays per second on the same board size. At the end
it says whether the target holds: at least 100,000 plays per second on 19x19 with positional superko.
All rates are per CPU second (this process for Miai, the GNU Go process for GNU Go, which includes its GTP
reading and writing), so that other jobs on a shared machine distort neither side. GNU Go's startup is
included once per measurement. Progress goes to stderr, the report to stdout. Records are cut before
their first mid-game setup node and before a move that the measured rules refuse, the same way for Miai
and GNU Go.
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from miai.core.errors import IllegalMove, InvalidRules
from miai.core.go import PASS, GoState, KoRule, Pass, Place, Rules, new_game
from miai.formats.gtp import find_gnugo
from miai.formats.gtp.protocol import COLUMNS
from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.values import decode_move, decode_number, decode_point_list

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "gnugo" / "games"
TARGET = 100_000  # plays per second on 19x19 with positional superko
SIZES = (9, 19)
GNUGO_MAX = 19


def clock() -> float:
    """CPU time of this process: other jobs on a shared machine then slow neither side's numbers."""
    return time.process_time()


def children_cpu() -> float:
    """CPU time of the finished child processes (GNU Go), user and system."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Game:
    path: Path
    size: int
    setup: dict[int, int]
    moves: list[tuple[int, Place | Pass]]


def read_game(path: Path) -> Game | None:
    """The root setup and main-line moves of a record, cut before any later setup node; None if unusable."""
    try:
        tree = parse_sgf(path.read_bytes())[0]
        text = tree.root.get("SZ")
        size = decode_number(text.split(":")[0]) if text and text.strip() else 19
        if not 2 <= size <= GNUGO_MAX:
            return None
        setup: dict[int, int] = {}
        moves: list[tuple[int, Place | Pass]] = []
        for node in tree.main_line():
            if any(node.has(prop) for prop in ("AB", "AW", "AE")):
                if moves:
                    break
                for prop, colour in (("AB", 0), ("AW", 1)):
                    for col, row in decode_point_list(node.get_all(prop), size):
                        setup[row * size + col] = colour
                for col, row in decode_point_list(node.get_all("AE"), size):
                    setup.pop(row * size + col, None)
            for prop, colour in (("B", 0), ("W", 1)):
                for value in node.get_all(prop):
                    point = decode_move(value, size)
                    moves.append((colour, PASS if point is None else Place(point[1] * size + point[0])))
    except (SgfError, IndexError):
        return None
    return Game(path, size, setup, moves)


def load_corpus() -> list[Game]:
    games = []
    for path in sorted(CORPUS.rglob("*.sgf")):
        game = read_game(path)
        if game is not None and game.moves:
            games.append(game)
    return games


def rules_for(size: int, ko: KoRule) -> Rules:
    return Rules(ko=ko, allowed_sizes=(size,))


def start(game: Game, rules: Rules) -> GoState | None:
    try:
        return new_game(game.size, rules, setup=game.setup)
    except InvalidRules:
        return None


def legal_prefix(game: Game, rules: Rules) -> int:
    """How many moves of the game the rules accept before the first refused one."""
    state = start(game, rules)
    if state is None:
        return 0
    for number, (colour, move) in enumerate(game.moves):
        try:
            state = state.play_as(colour, move)
        except IllegalMove:
            return number
    return len(game.moves)


def turn_based_prefix(game: Game, rules: Rules) -> int:
    """How many moves `play` can replay: the colour to move must be the record's, with no automatic pass."""
    state = start(game, rules)
    if state is None:
        return 0
    for number, (colour, move) in enumerate(game.moves):
        if state.to_move != colour or state.is_over:
            return number
        try:
            after = state.play(move)
        except IllegalMove:
            return number
        if after.plies != state.plies + 1:
            return number  # the rules passed automatically for someone: no longer the record's sequence
        state = after
    return len(game.moves)


Job = list[tuple[GoState, list[tuple[int, Place | Pass]]]]


def timed(function: Callable[[], int], repeats: int) -> tuple[int, float]:
    """(work done, best seconds) over `repeats` runs."""
    best = float("inf")
    work = 0
    for _ in range(repeats):
        began = clock()
        work = function()
        best = min(best, clock() - began)
    return work, best


def replay_as(job: Job) -> int:
    plays = 0
    for first, moves in job:
        state = first
        for colour, move in moves:
            state = state.play_as(colour, move)
        plays += len(moves)
    return plays


def replay_turns(job: Job) -> int:
    plays = 0
    for first, moves in job:
        state = first
        for _, move in moves:
            state = state.play(move)
        plays += len(moves)
    return plays


Prefix = Callable[[Game, Rules], int]


def make_job(games: Sequence[Game], rules_of: Callable[[int], Rules], prefix: Prefix) -> Job:
    job: Job = []
    for game in games:
        rules = rules_of(game.size)
        state = start(game, rules)
        count = prefix(game, rules)
        if state is not None and count:
            job.append((state, game.moves[:count]))
    return job


def positions(job: Job, every: int) -> list[GoState]:
    found = []
    for first, moves in job:
        state = first
        for number, (colour, move) in enumerate(moves):
            state = state.play_as(colour, move)
            if number % every == 0:
                found.append(state)
    return found


def legal_points_calls(states: Sequence[GoState]) -> int:
    for state in states:
        state.legal_points()
    return len(states)


def playouts(size: int, count: int, seed: int) -> tuple[int, int]:
    """`count` random playouts from the empty board; returns (playouts, plays)."""
    rng = random.Random(seed)
    rules = rules_for(size, KoRule.POSITIONAL)
    neighbours = None
    plays = 0
    limit = 3 * size * size
    for _ in range(count):
        state = new_game(size, rules)
        neighbours = state.geo.neighbours
        while not state.is_over and state.plies < limit:
            colour = state.to_move
            empty = [p for p in state.geo.points if state.colour_at(p) is None]
            rng.shuffle(empty)
            chosen: Place | Pass = PASS
            for p in empty:
                if all(state.colour_at(n) == colour for n in neighbours[p]):
                    continue  # the mover's own single-point eye
                if state.is_legal(Place(p), colour):
                    chosen = Place(p)
                    break
            state = state.play(chosen)
            plays += 1
    return count, plays


def vertex(point: int, size: int) -> str:
    row, col = divmod(point, size)
    return f"{COLUMNS[col]}{row + 1}"


def gnugo_script(games: Sequence[Game], prefixes: Sequence[int]) -> tuple[list[str], int]:
    """GTP lines replaying `games` (their first `prefixes` moves) and the number of move plays in them."""
    lines: list[str] = []
    plays = 0
    for game, count in zip(games, prefixes, strict=True):
        size = game.size
        lines += [f"boardsize {size}", "clear_board"]
        lines += [f"play {'bw'[c]} {vertex(p, size)}" for p, c in game.setup.items()]
        for colour, move in game.moves[:count]:
            where = "pass" if isinstance(move, Pass) else vertex(move.point, size)
            lines.append(f"play {'bw'[colour]} {where}")
        plays += count
    return lines, plays


def run_gnugo(gnugo: str, lines: Sequence[str]) -> tuple[float, int]:
    """CPU seconds GNU Go spends answering `lines` (pipelined), and how many answers were errors."""
    before = children_cpu()
    proc = subprocess.Popen([gnugo, "--mode", "gtp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    data = ("\n".join(lines) + "\n").encode()
    stdin = proc.stdin

    def write() -> None:
        stdin.write(data)
        stdin.flush()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    answers = errors = 0
    in_answer = False
    for raw in proc.stdout:
        if raw.strip():
            if not in_answer and raw.startswith(b"?"):
                errors += 1
            in_answer = True
        elif in_answer:
            in_answer = False
            answers += 1
            if answers == len(lines):
                break
    writer.join()
    stdin.close()
    proc.wait()
    proc.stdout.close()
    seconds = children_cpu() - before
    if answers != len(lines):
        raise RuntimeError(f"GNU Go answered {answers} of {len(lines)} commands")
    return seconds, errors


def rate(work: int, seconds: float) -> float:
    return work / seconds if seconds > 0 else float("inf")


def ratio(value: float, reference: float | None) -> str:
    return f"{value / reference:6.2f}x" if reference else "     -"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of everything, fewer playouts")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"bench/rules.py: no corpus at {CORPUS} (see ../shared/data/README.md)", file=sys.stderr)
        return 1
    repeats = 1 if args.quick else 3
    playout_counts = {9: 20, 19: 3} if args.quick else {9: 100, 19: 12}
    gnugo = find_gnugo()

    log("reading the corpus ...")
    corpus = load_corpus()
    by_size = {size: [g for g in corpus if g.size == size] for size in SIZES}

    rows: list[tuple[str, dict[int, float], str]] = []  # label, rate per size, unit
    reference: dict[int, float] = {}
    counts = {size: (len(games), sum(len(g.moves) for g in games)) for size, games in by_size.items()}

    def simple(size: int) -> Rules:
        return rules_for(size, KoRule.SIMPLE)

    def positional(size: int) -> Rules:
        return rules_for(size, KoRule.POSITIONAL)

    if gnugo is not None:
        for size in SIZES:
            log(f"GNU Go replaying the {size}x{size} games over GTP ...")
            games = by_size[size]
            prefixes = [legal_prefix(g, simple(size)) for g in games]
            lines, plays = gnugo_script(games, prefixes)
            seconds = min(run_gnugo(gnugo, lines)[0] for _ in range(repeats))
            reference[size] = rate(plays, seconds)
    else:
        log("GNU Go not found: no reference column")

    def job_rate(
        size: int, rules_of: Callable[[int], Rules], prefix: Prefix, run: Callable[[Job], int]
    ) -> tuple[int, float]:
        best = float("inf")
        work = 0
        for _ in range(repeats):
            job = make_job(by_size[size], rules_of, prefix)  # built outside the clock
            began = clock()
            work = run(job)
            best = min(best, clock() - began)
        return work, best

    sampled = {size: positions(make_job(by_size[size], positional, legal_prefix), 5) for size in SIZES}
    measurements: list[tuple[str, Callable[[int], tuple[int, float]], str]] = [
        ("play_as replay, positional superko", lambda s: job_rate(s, positional, legal_prefix, replay_as),
         "plays/s"),
        ("play_as replay, simple ko", lambda s: job_rate(s, simple, legal_prefix, replay_as), "plays/s"),
        ("play (turn-based), positional superko",
         lambda s: job_rate(s, positional, turn_based_prefix, replay_turns), "plays/s"),
        ("legal_points, positional superko",
         lambda s: timed(lambda: legal_points_calls(sampled[s]), repeats), "calls/s"),
    ]
    for label, measure, unit in measurements:
        values: dict[int, float] = {}
        for size in SIZES:
            log(f"{label} on {size}x{size} ...")
            work, seconds = measure(size)
            values[size] = rate(work, seconds)
        rows.append((label, values, unit))
    playout_values: dict[int, float] = {}
    playout_plays: dict[int, float] = {}
    for size in SIZES:
        log(f"random playouts on {size}x{size} ...")
        began = clock()
        done, plays = playouts(size, playout_counts[size], seed=size)
        seconds = clock() - began
        playout_values[size] = rate(done, seconds)
        playout_plays[size] = rate(plays, seconds)
    rows.append(("random playouts (no eye filling)", playout_values, "playouts/s"))
    rows.append(("  plays inside those playouts", playout_plays, "plays/s"))

    log("whole corpus: Miai play_as (simple ko) and GNU Go over GTP ...")
    # Grouped by size: GNU Go re-initialises itself on every change of board size, which is not play.
    everything = sorted(corpus, key=lambda game: game.size)
    prefixes = [legal_prefix(g, simple(g.size)) for g in everything]
    job = make_job(everything, simple, legal_prefix)
    total_plays, miai_seconds = timed(lambda: replay_as(job), repeats)
    gnugo_seconds = None
    gnugo_errors = 0
    if gnugo is not None:
        lines, _ = gnugo_script(everything, prefixes)
        gnugo_seconds, gnugo_errors = run_gnugo(gnugo, lines)

    print(f"Miai rules core (pure Python {platform.python_version()}) beside GNU Go over GTP, same run, "
          "per CPU second")
    print(f"corpus: {CORPUS.name}/ of ../shared/data/gnugo: "
          + ", ".join(f"{size}x{size}: {n} games, {m} moves" for size, (n, m) in counts.items()))
    header = f"{'':42}" + "".join(f"{f'{size}x{size}':>22}" for size in SIZES)
    print(header)
    if reference:
        print(f"{'GNU Go replay over GTP (play only)':42}"
              + "".join(f"{reference[size]:>13,.0f} plays/s" for size in SIZES))
    for label, values, unit in rows:
        cells = "".join(
            f"{values[size]:>12,.0f} {ratio(values[size], reference.get(size))}" for size in SIZES
        )
        print(f"{label:42}{cells}  ({unit}; ratio to GNU Go's plays/s)")
    print(f"whole corpus ({len(everything)} games, {total_plays} plays), CPU time: Miai play_as "
          f"{miai_seconds:.2f} s"
          + (f", GNU Go {gnugo_seconds:.2f} s ({gnugo_errors} refused), Miai/GNU Go time "
             f"{miai_seconds / gnugo_seconds:.2f}" if gnugo_seconds else ", GNU Go not measured"))
    achieved = rows[0][1][19]
    verdict = "HOLDS" if achieved >= TARGET else "does NOT hold"
    print(f"target >= {TARGET:,} plays/s on 19x19 with positional superko (play_as): {achieved:,.0f} "
          f"plays/s -> {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
