#!/usr/bin/env python3
"""Miai's everyday commands, usable on a fresh clone with nothing but Python 3.11.

    python3 dev.py run   [ARGS...]   start the server, or run `miai ARGS...` (creates .venv on first use)
    python3 dev.py test  [PYTEST ARGS...]   ruff, mypy and the whole pytest suite on parallel workers (one per
                                            core; MIAI_TEST_WORKERS=N to choose), with branch coverage
    python3 dev.py screenshots [DIR]   every page at desktop and phone size into docs/screenshots (or DIR);
                                       needs Chromium (tests/web/make_screenshots.py)

Each creates (or reuses) the virtual environment `.venv` next to this file and installs the
project into it in editable mode, reinstalling only when pyproject.toml has changed.

With CI=true (where no test may skip), `test` fails when the branch coverage of miai.core, miai.formats and
miai.engines together falls below COVERAGE_FLOOR; the server's figure is printed only. Elsewhere (tests that
need GNU Go or the shared data may skip) and with PYTEST ARGS (a subset of the tests) the figures are printed
and nothing is enforced.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".miai-installed"

# Branch coverage (pyproject's [tool.coverage.*]) of the layers below the server: 94.9% when the floor was
# set (their own tests alone, CI=true), less a margin. Raise it as tests are added; never lower it to let a
# change through.
COVERAGE_FLOOR = 92
BELOW_SERVER = "src/miai/core/*,src/miai/formats/*,src/miai/engines/*"


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs before anything is installed
        sys.exit(f"Miai needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not venv_python().exists():
        print("creating virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        print("installing Miai and its dependencies into .venv ...", flush=True)
        pip = [str(venv_python()), "-m", "pip", "--disable-pip-version-check"]
        subprocess.run([*pip, "install", "--quiet", "--upgrade", "pip"], check=True)
        # bench: OpenSpiel, the strength benchmark's opponent, whose tests run in CI
        subprocess.run([*pip, "install", "--quiet", "-e", f"{ROOT}[dev,bench]"], check=True)
        STAMP.write_text(wanted)
    return venv_python()


def run(python: Path, args: list[str]) -> int:
    return subprocess.run([str(python), *args], cwd=ROOT, check=False).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"} or argv[0] not in {"run", "test", "screenshots"}:
        print(__doc__)
        return 0 if argv and argv[0] in {"-h", "--help"} else 2
    command, rest = argv[0], argv[1:]
    python = ensure_venv()
    if command == "run":
        return run(python, ["-m", "miai", *(rest or ["serve"])])
    if command == "screenshots":
        return run(python, ["tests/web/make_screenshots.py", *(str(Path(d).resolve()) for d in rest)])
    # The engines' kernels compile (or load numba's cache) while ruff and mypy run, in two processes (Go's
    # and the other games'), so that the test workers load one cache instead of each compiling the same
    # kernels at once.
    warming = []
    for names in WARM_UPS:
        print(f"$ python -m miai.engines.warm {' '.join(names)} (in the background)", flush=True)
        warming.append(subprocess.Popen([str(python), "-m", "miai.engines.warm", *names], cwd=ROOT))
    for step in (
        ["-m", "ruff", "check", "src", "tests", "bench", "dev.py"],
        ["-m", "mypy"],
    ):
        print("$", " ".join(step[1:]), flush=True)
        if code := run(python, step):
            for process in warming:
                process.kill()
            return code
    for process in warming:
        if code := process.wait():
            print(f"compiling the engines failed ({process.args[3:]})", flush=True)
            return code
    code = run(python, ["-m", "pytest", *parallel_options(rest), *rest])
    if code:
        return 0 if code == 5 and rest else code
    return report_coverage(python, enforce=not rest and os.environ.get("CI") == "true")


# The engine warm-ups (miai/engines/warm.py) in two groups of about equal compile time.
WARM_UPS = (["go", "estimator", "review"], ["amazons", "hex", "tanbo"])


def parallel_options(rest: list[str]) -> list[str]:
    """Workers (pytest-xdist) and branch coverage gathered from each of them (pytest-cov combines the
    workers' data into .coverage, which report_coverage reads). MIAI_TEST_WORKERS sets the number of
    workers (default: one per core; 0 runs in this process, e.g. to use a debugger); `-n` among the
    PYTEST ARGS leave the choice to them."""
    options = ["--cov", "--cov-report="]
    if any(arg.startswith(("-n", "--numprocesses")) for arg in rest):
        return options
    workers = os.environ.get("MIAI_TEST_WORKERS", "auto")
    if workers != "auto" and not (workers.isdigit() and int(workers) <= 64):
        sys.exit(f"MIAI_TEST_WORKERS must be 'auto' or a number of workers from 0 to 64, not {workers!r}")
    # worksteal: idle workers take queued tests from busy ones, so one slow file does not end the run alone
    return [*options, "-n", workers, "--dist", "worksteal"]


def report_coverage(python: Path, enforce: bool) -> int:
    """Enforced: the files of core, formats and engines left partly unrun, and a failure below the floor.
    Otherwise their total only. Then the server's total, never enforced."""
    code = 0
    if enforce:
        floor = f"--fail-under={COVERAGE_FLOOR}"
        report = ["-m", "coverage", "report", f"--include={BELOW_SERVER}", "--skip-covered", floor]
        print("$", " ".join(report[1:]), flush=True)
        code = run(python, report)
    else:
        print_total(python, BELOW_SERVER, f"core, formats and engines (floor {COVERAGE_FLOOR}% with CI=true)")
    print_total(python, "src/miai/server/*", "server (not enforced)")
    return code


def print_total(python: Path, include: str, what: str) -> None:
    total = ["-m", "coverage", "report", f"--include={include}", "--format=total"]
    out = subprocess.run([str(python), *total], cwd=ROOT, capture_output=True, text=True, check=False)
    text = out.stdout.strip() + ("%" if out.returncode == 0 else "")
    print(f"branch coverage of {what}: {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
