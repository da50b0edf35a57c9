"""Credentials in URLs never reach the logs: websocket clients pass `?token=` (browsers cannot set headers on
a websocket) and invite links carry `?invite=`, and uvicorn logs every request line and websocket handshake
with its query. A filter on uvicorn's loggers replaces those values with REDACTED.

`miai serve` installs it through uvicorn's log configuration (so every worker process has it);
`app_from_env` also adds it to uvicorn's loggers for servers started as `uvicorn --factory ...`.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any
from urllib.parse import unquote_plus

import uvicorn.config

SECRET_PARAMETERS = frozenset({"token", "invite"})
REDACTED = "REDACTED"
UVICORN_LOGGERS = ("uvicorn.access", "uvicorn.error")
_QUERY = re.compile(r"\?([^\s\"]+)")


def _redact_query(match: re.Match[str]) -> str:
    parts = []
    for part in match.group(1).split("&"):
        name = part.partition("=")[0]
        # the name as the server decodes it: `%74oken=` is `token=` too
        secret = unquote_plus(name).strip().lower() in SECRET_PARAMETERS
        parts.append(f"{name}={REDACTED}" if secret else part)
    return "?" + "&".join(parts)


def redact(text: str) -> str:
    """The text with the values of secret query parameters replaced."""
    return _QUERY.sub(_redact_query, text) if "?" in text else text


def _clean(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactCredentials(logging.Filter):
    """Rewrites a record's message and arguments; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(value) for key, value in record.args.items()}
        return True


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration with the filter on its error and access loggers."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_credentials"] = {"()": f"{__name__}.RedactCredentials"}
    for name in UVICORN_LOGGERS:
        config["loggers"].setdefault(name, {}).setdefault("filters", []).append("redact_credentials")
    return config


def install() -> None:
    """Add the filter to uvicorn's loggers as they are now (once)."""
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactCredentials) for f in logger.filters):
            logger.addFilter(RedactCredentials())
