"""The Go engine's SGF commands, `loadsgf FILE [MOVE_NUMBER|VERTEX]` and `printsgf [FILE]`, with GNU Go's
meanings: loadsgf takes the board size, komi and position from the file (the engine's rules preset stays)
and answers the colour to move; printsgf writes the game so far to FILE, or answers with the SGF text.
"""

from __future__ import annotations

from pathlib import Path

from miai.formats.gtp.go_session import WHITE, GoSession, gtp_rules
from miai.formats.gtp.protocol import GtpError
from miai.formats.gtp.registry import GtpEngine
from miai.formats.sgf import SgfError, parse_sgf
from miai.formats.sgf.go import dump_go, load_go

__all__ = ["register_sgf_commands"]


def _read(path_text: str) -> bytes:
    try:
        return Path(path_text).read_bytes()
    except OSError as err:
        raise GtpError(f"cannot open or parse '{path_text}': {err.strerror or err}") from None


def loadsgf(session: GoSession, args: list[str]) -> str:
    path_text = args[0]
    upto: str | None = args[1] if len(args) > 1 else None
    data = _read(path_text)
    try:
        collection = parse_sgf(data)
        # First pass: the record's own size and komi; then replay under this engine's rules preset.
        first = load_go(collection, None, upto)
        size = first.state.size
        komi = first.rules.komi_of(WHITE) if "KM" in first.info else session.komi
        record = load_go(collection, gtp_rules(session.preset_key, size, komi), upto)
    except SgfError as err:
        raise GtpError(f"cannot open or parse '{path_text}': {err}") from None
    except ValueError as err:  # a move number below 1 or a malformed vertex in `upto`
        raise GtpError(str(err)) from None
    session.adopt(record.state, komi)
    return "black" if session.state.to_move == 0 else "white"


def printsgf(session: GoSession, args: list[str]) -> str:
    written = dump_go(session.state, None, session.preset_key)
    if not args:
        return written.decode("utf-8")
    try:
        Path(args[0]).write_bytes(written)
    except OSError as err:
        raise GtpError(f"cannot write '{args[0]}': {err.strerror or err}") from None
    return ""


def register_sgf_commands(engine: GtpEngine, session: GoSession) -> None:
    engine.register(
        "loadsgf",
        lambda args: loadsgf(session, args),
        min_args=1,
        max_args=2,
        usage="loadsgf FILE [MOVE_NUMBER|VERTEX]",
    )
    engine.register(
        "printsgf", lambda args: printsgf(session, args), min_args=0, max_args=1, usage="printsgf [FILE]"
    )
