"""numba's `njit` with an on-disk cache that is dropped whenever the kernel's sources change.

The compiled playouts here call the kernel's board functions, and numba links callees into the caller's
cached machine code while it checks only the caller's own source file. So the first import compares a
fingerprint of the kernel's sources with the one this package's cache was built from, and drops the cache
when they differ; the next calls compile afresh.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])

_HERE = Path(__file__).resolve().parent
_KERNEL = _HERE.parent / "kernel"
_CACHE = _HERE / "__pycache__"
_STAMP = _CACHE / "kernel-sources.sha256"


def _fingerprint() -> str:
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(_KERNEL.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    wanted = _fingerprint()
    with contextlib.suppress(OSError):
        if _STAMP.read_text() == wanted:
            return
    with contextlib.suppress(OSError):  # a read-only install simply compiles in memory every time
        _CACHE.mkdir(exist_ok=True)
        for stale in [*_CACHE.glob("*.nbi"), *_CACHE.glob("*.nbc")]:
            stale.unlink()
        _STAMP.write_text(wanted)


_drop_stale_cache()


def njit(fn: F) -> F:
    """Compile `fn` on first call, cached on disk (paid once per install and per source change)."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(fn))
