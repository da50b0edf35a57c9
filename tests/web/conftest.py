"""Fixtures for the browser tests: one Miai server on a fresh SQLite database and one headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import in_ci, need
from tests.web.support import ARTIFACTS, CHROMIUM_ARGS, chromium_path, close_clients, miai_server


def playwright_installed() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


if not playwright_installed() and not in_ci():
    # The browser tests import Playwright; without it only test_browser_available runs (it says why it skips).
    collect_ignore_glob = ["test_[!b]*.py"]


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    need(path is not None, "Chromium is not installed")
    need(playwright_installed(), "the Python package playwright is not installed")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15_000)
    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture(scope="session")
def server(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a server shared by the browser tests (every test uses its own user names)."""
    with miai_server(tmp_path_factory.mktemp("miai-web")) as base:
        try:
            yield base
        finally:
            close_clients()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
