"""Locating and starting GNU Go, the reference opponent for GTP tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

from miai.formats.gtp.channels import SubprocessChannel

__all__ = ["DEBIAN_GNUGO", "find_gnugo", "gnugo_channel"]

# Debian and Ubuntu install games outside the default PATH of non-login shells.
DEBIAN_GNUGO = "/usr/games/gnugo"


def find_gnugo() -> str | None:
    """Path to GNU Go: $MIAI_GNUGO if set, else `gnugo` on PATH, else Debian's location."""
    configured = os.environ.get("MIAI_GNUGO")
    if configured:
        # An explicit setting wins even when wrong, so the failure shows up instead of a fallback.
        return shutil.which(configured) or configured
    found = shutil.which("gnugo")
    if found:
        return found
    if os.path.isfile(DEBIAN_GNUGO) and os.access(DEBIAN_GNUGO, os.X_OK):
        return DEBIAN_GNUGO
    return None


def gnugo_channel(
    level: int | None = None, extra_args: Sequence[str] = (), timeout: float | None = 60.0
) -> SubprocessChannel:
    """Start GNU Go in GTP mode; `level` (0-10) trades strength for speed."""
    path = find_gnugo()
    if path is None:
        raise FileNotFoundError("GNU Go not found: install it or set MIAI_GNUGO to its path")
    argv = [path, "--mode", "gtp"]
    if level is not None:
        if level < 0:
            raise ValueError(f"GNU Go level must be >= 0, got {level}")
        argv += ["--level", str(level)]
    return SubprocessChannel([*argv, *extra_args], timeout=timeout)
