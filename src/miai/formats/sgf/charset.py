"""Choosing the text codec of an SGF file: its CA[...] if Python knows it, else UTF-8, else ISO-8859-1."""

from __future__ import annotations

import codecs
import re

from miai.formats.sgf.errors import SgfWarning, locate

# The grammar's characters must be the same bytes in the codec, or the decoded text could not be parsed.
_PROBE = "()[];:\\ AZaz09\n"
_COMPACT = re.compile(r"(iso8859|windows|cp)(\d+)")
# Declared codecs that real files often exceed; their supersets decode the valid subset identically.
_SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030", "shift_jis": "cp932", "euc_kr": "cp949"}
# FF[4]'s default is ISO-8859-1, but most modern files without CA are UTF-8; Latin-1 never fails.
_FALLBACKS = ("utf-8", "iso8859-1")


def _usable(name: str) -> str | None:
    try:
        info = codecs.lookup(name)
        probe = _PROBE.encode(info.name)
        if probe == _PROBE.encode("ascii") and probe.decode(info.name) == _PROBE:
            return info.name
    except (LookupError, ValueError):
        pass  # unknown, not a text encoding, or not ASCII-compatible
    return None


def lookup_codec(name: str) -> str | None:
    """Python's codec name for an SGF charset name (UTF-8, utf8, ISO8859_1, Shift_JIS...), or None."""
    name = name.strip()
    compact = re.sub(r"[^a-z0-9]", "", name.lower())
    candidates = [name, compact]
    if match := _COMPACT.fullmatch(compact):
        family, number = match.groups()
        candidates.append(f"iso8859_{number}" if family == "iso8859" else f"cp{number}")
    for candidate in candidates:
        if candidate and (found := _usable(candidate)):
            return found
    return None


def decode(data: bytes, declared: str | None, declared_at: int) -> tuple[str, str, list[SgfWarning]]:
    """Decode `data`; returns (text, codec used, warnings). `declared_at` is the byte offset of CA."""
    raw = data.decode("iso8859-1")  # byte offsets == character offsets, for locating problems
    warnings: list[SgfWarning] = []
    candidates: list[str] = []
    wanted = lookup_codec(declared) if declared is not None else None
    if declared is not None and wanted is None:
        message = f"unknown charset CA[{declared}]; read as UTF-8 if valid, else as ISO-8859-1"
        warnings.append(SgfWarning(*locate(raw, declared_at), message))
    if wanted is not None:
        candidates += [wanted, _SUPERSETS.get(wanted, wanted)]
    candidates += _FALLBACKS
    first_failure: int | None = None
    for codec in dict.fromkeys(candidates):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as exc:
            first_failure = exc.start if first_failure is None else first_failure
            continue
        if wanted is not None and codec != wanted and first_failure is not None:
            message = f"bytes that are not valid {wanted} although CA[{declared}] says so; read as {codec}"
            warnings.append(SgfWarning(*locate(raw, first_failure), message))
        return text, codec, warnings
    raise AssertionError("ISO-8859-1 decodes any bytes")  # pragma: no cover
