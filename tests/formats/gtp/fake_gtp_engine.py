"""A deliberately misbehaving GTP engine, run as a script by the SubprocessChannel tests.

Standard library only and independent of miai, so the tests exercise the channel against a
peer that shares none of its code. Special commands:

    die            write half an answer and a message on stderr, then exit with code 3
    slow SECONDS   sleep, then answer
    garbage        answer without '=' or '?'
    multi          answer with a multi-line result
    crlf           answer with CR LF line ends
    flood_stderr   write 1 MiB to stderr before answering (must not block the engine)
    fail           answer '?'
    wrong_id       answer with id 999 whatever the command's id
    anything else  answer '=' with the command echoed

Options: --crash-at-start, --hang-on-quit (never exits after 'quit'), --ignore-term (ignores
SIGTERM, so only SIGKILL stops it), --banner (writes a blank line before every answer).
"""

from __future__ import annotations

import signal
import sys
import time


def main(argv: list[str]) -> int:
    out, err = sys.stdout, sys.stderr
    if "--crash-at-start" in argv:
        err.write("fake engine: cannot initialise\n")
        return 5
    if "--ignore-term" in argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        prefix = ""
        if tokens[0].isdigit():
            prefix = tokens.pop(0)
        name, args = tokens[0], tokens[1:]
        if "--banner" in argv:
            out.write("\n")
        if name == "die":
            out.write(f"={prefix} partial answer\n")
            out.flush()
            err.write("fatal: engine exploded\n")
            err.flush()
            return 3
        if name == "slow":
            time.sleep(float(args[0]))
            out.write(f"={prefix} slept\n\n")
        elif name == "garbage":
            out.write("hello there\n\n")
        elif name == "multi":
            out.write(f"={prefix} line one\n  line two\nline three\n\n")
        elif name == "crlf":
            out.write(f"={prefix} windows\r\n\r\n")
        elif name == "flood_stderr":
            for _ in range(1024):
                err.write("x" * 1023 + "\n")
            err.flush()
            out.write(f"={prefix} flooded\n\n")
        elif name == "wrong_id":
            out.write("=999 not yours\n\n")
        elif name == "fail":
            out.write(f"?{prefix} no such luck\n\n")
        elif name == "quit":
            out.write(f"={prefix}\n\n")
            out.flush()
            if "--hang-on-quit" in argv:
                time.sleep(3600)
            return 0
        else:
            out.write(f"={prefix} {' '.join(tokens)}\n\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
