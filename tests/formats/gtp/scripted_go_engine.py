"""A GTP 'Go engine' that plays a fixed script, run as a subprocess by the match tests.

Standard library only, so the referee is tested against a peer that shares none of Miai's code.
Options: --moves V1,V2,...  answers to genmove in order (then 'pass'); a word may be 'resign' or any junk
         --refuse-play       answers '? illegal move' to every play command
         --die-at-genmove N  exits without answering the N-th genmove (1-based)
Every other command is answered with '=' (final_score with '= 0').
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    moves: list[str] = []
    refuse_play = False
    die_at = 0
    args = iter(argv)
    for arg in args:
        if arg == "--moves":
            moves = next(args).split(",")
        elif arg == "--refuse-play":
            refuse_play = True
        elif arg == "--die-at-genmove":
            die_at = int(next(args))
    genmoves = 0
    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        name = tokens[0]
        if name == "genmove":
            genmoves += 1
            if genmoves == die_at:
                return 3
            answer = moves.pop(0) if moves else "pass"
            sys.stdout.write(f"= {answer}\n\n")
        elif name == "play" and refuse_play:
            sys.stdout.write("? illegal move\n\n")
        elif name == "final_score":
            sys.stdout.write("= 0\n\n")
        elif name == "name":
            sys.stdout.write("= Scripted\n\n")
        elif name == "quit":
            sys.stdout.write("=\n\n")
            sys.stdout.flush()
            return 0
        else:
            sys.stdout.write("=\n\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
