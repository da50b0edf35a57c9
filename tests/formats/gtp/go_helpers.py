"""Helpers for the Go GTP engine tests: send a line, get (ok, text) back through the real wire format."""

from __future__ import annotations

from dataclasses import dataclass, field

from miai.core.go import GoState, Move
from miai.formats.gtp import GtpEngine, parse_response


def ask(engine: GtpEngine, line: str) -> tuple[bool, str]:
    answer = engine.handle_line(line)
    assert answer is not None, f"no answer to {line!r}"
    assert answer.endswith("\n\n")
    response = parse_response(answer)
    return response.ok, response.text


def ok(engine: GtpEngine, line: str) -> str:
    success, text = ask(engine, line)
    assert success, f"{line!r} failed: {text}"
    return text


def fails(engine: GtpEngine, line: str) -> str:
    success, text = ask(engine, line)
    assert not success, f"{line!r} should fail but answered {text!r}"
    return text


def stones(engine: GtpEngine, colour: str) -> set[str]:
    return set(ok(engine, f"list_stones {colour}").split())


@dataclass
class ScriptedGenerator:
    """A move generator that answers from a list and records what it was asked."""

    answers: list[Move]
    calls: list[tuple[GoState, int, float | None]] = field(default_factory=list)

    def __call__(self, state: GoState, colour: int, seconds: float | None) -> Move:
        self.calls.append((state, colour, seconds))
        return self.answers.pop(0)
