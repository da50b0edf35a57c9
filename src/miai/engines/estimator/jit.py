"""numba's `njit` for the estimator, with its cache dropped whenever the kernel's sources change.

The compiled playouts here call the kernel's board functions, and numba links callees into the caller's
cached machine code while it checks only the caller's own source file; see `miai.engines.kernel.jit`.
"""

from __future__ import annotations

from pathlib import Path

from miai.engines.kernel.jit import drop_stale_cache
from miai.engines.kernel.jit import jit as njit

drop_stale_cache(Path(__file__).resolve().parent)

__all__ = ["njit"]
