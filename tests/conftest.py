"""Shared test helpers: outside programs and data skip on a user's machine but must exist when CI=true."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import os
import sys
import threading
from collections.abc import Generator, Iterator
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


# Where a developer's own server keeps its data and fan-out: servers the tests start copy this process's
# environment, and must never share a database or Redis channels with that server or with another test run.
SERVER_PLACES = ("MIAI_DATABASE_URL", "MIAI_REDIS_URL", "MIAI_REDIS_PREFIX")


def pytest_configure(config: pytest.Config) -> None:
    for name in SERVER_PLACES:
        os.environ.pop(name, None)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def need(condition: bool, reason: str) -> None:
    """Skip with a one-line reason, except under CI where a missing dependency is a failure."""
    if condition:
        return
    if in_ci():
        pytest.fail(f"{reason} (required when CI=true)")
    pytest.skip(reason)


def need_module(name: str, reason: str) -> ModuleType:
    """Import a test module's optional dependency at its top: skip the module without it, except under CI
    (a collection error there)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        if in_ci():
            pytest.fail(f"{reason} (required when CI=true)", pytrace=False)
        pytest.skip(reason, allow_module_level=True)


def shared_data(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    need(path.exists(), f"../shared/data/{'/'.join(parts)} is not present")
    return path


def bench_module(script: str) -> ModuleType:
    """A script of bench/ imported as a module (`bench_<name>`), for tests of its own logic."""
    name = "bench_" + Path(script).stem
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """`no_cover` tests run untraced, under parallel workers too. pytest-cov pauses its worker's Coverage
    for them, but in an xdist worker it has also started an earlier one (it does not yet know it is a
    worker when it first loads), and pausing the newer resumes the older: those tests ran traced anyway,
    two to four times slower. trylast: this runs inside pytest-cov's pause, and restores what it found."""
    tracer, thread_tracer = sys.gettrace(), threading.gettrace()
    untraced = item.get_closest_marker("no_cover") or "no_cover" in getattr(item, "fixturenames", ())
    if not untraced or not type(tracer).__module__.startswith("coverage"):  # a debugger's tracer stays
        yield
        return
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]
    try:
        yield
    finally:
        sys.settrace(tracer)
        threading.settrace(thread_tracer)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def no_browser_loop_outside_browser_tests(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API keeps its event loop marked as running in the main thread for as long as the
    session's browser is open (tests/web/conftest.py). A parallel worker that has run a browser test goes on
    to others, where asyncio.run() would then refuse to start: they run with that mark lifted (Playwright's
    loop only runs inside its own calls, which these tests do not make) and it is put back afterwards."""
    if "browser" in request.fixturenames:
        yield
        return
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)
