"""Other bench scripts imported as modules, `bench_<name>`: bench/ is no package; its scripts run by path.

One copy per script and process (tests/conftest.py's `bench_module` uses the same names), so that scripts
building on bench/server.py share its module state.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def load(script: str) -> ModuleType:
    """bench/<script> as the module `bench_<stem>`, imported once."""
    name = "bench_" + Path(script).stem
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, HERE / script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module
