"""Shared test helpers: outside programs and data skip on a user's machine but must exist when CI=true."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def need(condition: bool, reason: str) -> None:
    """Skip with a one-line reason, except under CI where a missing dependency is a failure."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"{reason} (required when CI=true)")
    pytest.skip(reason)


def shared_data(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    need(path.exists(), f"../shared/data/{'/'.join(parts)} is not present")
    return path
