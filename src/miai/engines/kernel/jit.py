"""numba's `njit` with an on-disk cache, typed so that mypy keeps checking the callers of compiled code.

numba invalidates a cached function only when its own source file changes, yet compiled code also
contains the functions it calls from the kernel's other files. So the first import compares a fingerprint
of every kernel source file with the one the cache was built from, and drops the whole cache when they
differ (an upgrade, or a developer's edit); the next calls then compile afresh.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent


def _fingerprint(sources: list[Path]) -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for folder in sources:
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_cache(package: Path) -> None:
    """Drop `package`'s numba cache when its sources or the kernel's changed since it was built (every
    compiled package calls into the kernel: `wide`, the random numbers, the node pool)."""
    cache = package / "__pycache__"
    stamp = cache / "kernel-sources.sha256"
    wanted = _fingerprint(sorted({package, _HERE}))
    with contextlib.suppress(OSError):
        if stamp.read_text() == wanted:
            return
    with contextlib.suppress(OSError):  # a read-only install simply compiles in memory every time
        cache.mkdir(exist_ok=True)
        for stale in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            stale.unlink()
        stamp.write_text(wanted)


drop_stale_cache(_HERE)


def jit(fn: F) -> F:
    """Compile `fn` on first call and cache the machine code next to the source (paid once per install)."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(fn))


@jit
def _widen(x):  # type: ignore[no-untyped-def]
    return np.int64(x)


wide: Callable[[object], int] = _widen
"""An array element (int32) as a 64-bit int, so compiled code sees one integer type everywhere."""
