#!/usr/bin/env python3
"""Miai's two everyday commands, usable on a fresh clone with nothing but Python 3.11.

    python3 dev.py run   [ARGS...]   start the server, or run `miai ARGS...` (creates .venv on first use)
    python3 dev.py test  [PYTEST ARGS...]   ruff, mypy and the whole pytest suite

Both create (or reuse) the virtual environment `.venv` next to this file and install the
project into it in editable mode, reinstalling only when pyproject.toml has changed.
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
        subprocess.run([*pip, "install", "--quiet", "-e", f"{ROOT}[dev]"], check=True)
        STAMP.write_text(wanted)
    return venv_python()


def run(python: Path, args: list[str]) -> int:
    return subprocess.run([str(python), *args], cwd=ROOT, check=False).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"} or argv[0] not in {"run", "test"}:
        print(__doc__)
        return 0 if argv and argv[0] in {"-h", "--help"} else 2
    command, rest = argv[0], argv[1:]
    python = ensure_venv()
    if command == "run":
        return run(python, ["-m", "miai", *(rest or ["serve"])])
    for step in (
        ["-m", "ruff", "check", "src", "tests", "bench", "dev.py"],
        ["-m", "mypy"],
    ):
        print("$", " ".join(step[1:]), flush=True)
        if code := run(python, step):
            return code
    code = run(python, ["-m", "pytest", *rest])
    return 0 if code == 5 and rest else code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
