"""The one error type of the SGF layers, and the warnings a forgiving read collects."""

from __future__ import annotations

from dataclasses import dataclass


def _located(message: str, line: int | None, column: int | None) -> str:
    if line is None or column is None:
        return message
    return f"line {line}, column {column}: {message}"


class SgfError(ValueError):
    """Unusable SGF input or an unrepresentable value. `line`/`column` (1-based) are set when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(_located(message, line, column))
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class SgfWarning:
    """Something odd the reader repaired or ignored; kept so that nothing is dropped silently."""

    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return _located(self.message, self.line, self.column)


def locate(text: str, pos: int) -> tuple[int, int]:
    """1-based (line, column) of `pos` in `text`; CR LF, LF and a lone CR each end a line.

    Counts in place (no copy of the text before `pos`): a megabyte file may be located a hundred times."""
    line = text.count("\n", 0, pos) + text.count("\r", 0, pos) - text.count("\r\n", 0, pos) + 1
    return line, pos - max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos))
