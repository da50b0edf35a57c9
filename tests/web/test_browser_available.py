"""Says why the browser tests skip on this machine (and fails under CI=true if they cannot run)."""

from __future__ import annotations

from tests.conftest import need
from tests.web.conftest import playwright_installed
from tests.web.support import chromium_path


def test_chromium_and_playwright_are_available() -> None:
    need(chromium_path() is not None, "Chromium is not installed")
    need(playwright_installed(), "the Python package playwright is not installed")
