"""The kernel package's docstring is the map of its modules: it names every one of them, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from miai.engines import kernel


def test_the_kernel_docstring_lists_every_kernel_module() -> None:
    folder = Path(kernel.__file__).parent
    modules = {path.name for path in folder.glob("*.py") if path.name != "__init__.py"}
    listed = set(re.findall(r"^ {4}(\w+\.py) ", kernel.__doc__ or "", re.MULTILINE))
    assert listed == modules
