"""A GTP engine as a registry of command handlers, independent of any transport.

Handlers take the argument tokens and return the result text, or raise GtpError for a '?'
answer. The engine turns every other failure into '? internal error: ...' so a buggy handler
can never take the whole engine down.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from miai import __version__
from miai.formats.gtp.protocol import Command, GtpError, format_response, parse_command

__all__ = ["GtpEngine", "Handler"]

Handler = Callable[[list[str]], str]

# Printable ASCII without '#' (comment) and not all digits (that would read as an id).
_COMMAND_NAME = re.compile(r"(?![0-9]+$)[!-\"$-~]+")


@dataclass(frozen=True)
class _Entry:
    handler: Handler
    min_args: int
    max_args: int | None
    usage: str | None


def _arity(min_args: int, max_args: int | None) -> str:
    if max_args is None:
        return f"at least {min_args}"
    if min_args == max_args:
        return f"exactly {min_args}"
    return f"{min_args} to {max_args}"


class GtpEngine:
    """Dispatches GTP command lines to registered handlers and formats the responses."""

    def __init__(self, name: str = "Miai", version: str = __version__) -> None:
        self._entries: dict[str, _Entry] = {}
        self._quit_requested = False
        self.register("protocol_version", lambda args: "2", max_args=0)
        self.register("name", lambda args: name, max_args=0)
        self.register("version", lambda args: version, max_args=0)
        self.register(
            "known_command", self._known_command, min_args=1, max_args=1, usage="known_command COMMAND"
        )
        self.register("list_commands", lambda args: "\n".join(self.commands), max_args=0)
        self.register("quit", self._quit, max_args=0)

    @property
    def quit_requested(self) -> bool:
        """True once 'quit' has been answered; the loop stops after sending that answer."""
        return self._quit_requested

    @property
    def commands(self) -> list[str]:
        return sorted(self._entries)

    def known_command(self, name: str) -> bool:
        return name in self._entries

    def register(
        self,
        name: str,
        handler: Handler,
        *,
        min_args: int = 0,
        max_args: int | None = None,
        usage: str | None = None,
        replace: bool = False,
    ) -> None:
        """Register `handler` for `name`; the engine checks the argument count before calling it."""
        if not _COMMAND_NAME.fullmatch(name):
            raise ValueError(f"invalid GTP command name {name!r}")
        if min_args < 0 or (max_args is not None and max_args < min_args):
            raise ValueError(f"invalid argument count range {min_args}..{max_args}")
        if name in self._entries and not replace:
            raise ValueError(f"GTP command {name!r} is already registered (pass replace=True)")
        self._entries[name] = _Entry(handler, min_args, max_args, usage)

    def handle_line(self, line: str) -> str | None:
        """Answer one command line with a full response, or None for an empty or comment line."""
        try:
            command = parse_command(line)
        except Exception as exc:  # parse_command should not fail; stay up if it ever does
            return format_response(False, f"internal error: {_describe(exc)}")
        if command is None:
            return None
        return self.handle_command(command)

    def handle_command(self, command: Command) -> str:
        ok, text = self._dispatch(command)
        return format_response(ok, text, command.id)

    def _dispatch(self, command: Command) -> tuple[bool, str]:
        if not command.name:
            return False, "missing command name"
        entry = self._entries.get(command.name)
        if entry is None:
            return False, "unknown command"  # exact text required by the GTP spec
        count = len(command.args)
        if count < entry.min_args or (entry.max_args is not None and count > entry.max_args):
            message = (
                f"wrong number of arguments: {command.name} takes "
                f"{_arity(entry.min_args, entry.max_args)}, got {count}"
            )
            if entry.usage:
                message += f" (usage: {entry.usage})"
            return False, message
        try:
            result = entry.handler(list(command.args))
        except GtpError as exc:
            return False, str(exc)
        except Exception as exc:
            return False, f"internal error: {_describe(exc)}"
        if not isinstance(result, str):
            return False, f"internal error: handler for {command.name} returned {type(result).__name__}"
        return True, result

    def _known_command(self, args: list[str]) -> str:
        return "true" if self.known_command(args[0]) else "false"

    def _quit(self, args: list[str]) -> str:
        self._quit_requested = True
        return ""


def _describe(exc: BaseException) -> str:
    try:
        return str(exc) or type(exc).__name__
    except Exception:  # a broken __str__ must not escape either
        return type(exc).__name__
