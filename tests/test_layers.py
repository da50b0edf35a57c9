"""The import layers of ARCHITECTURE.md: imports point down only, and the core stays pure."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "miai"
ORDER = ["core", "formats", "engines", "server"]  # each layer may import only itself and those before it
IMPURE_FOR_CORE = {"asyncio", "time", "datetime", "random", "os", "io", "socket", "subprocess", "pathlib",
                   "threading", "multiprocessing", "secrets", "uuid", "logging", "sqlite3", "shutil"}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "miai" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in ORDER else "top"


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


def module_name(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def test_imports_point_down_only() -> None:
    violations = []
    for path in sorted(SRC.rglob("*.py")):
        own = layer_of(module_name(path))
        if own not in ORDER:
            continue  # cli.py, __main__.py: the top may use every layer
        allowed = set(ORDER[: ORDER.index(own) + 1])
        for target in imports(path):
            layer = layer_of(target)
            if target.split(".")[0] == "miai" and layer not in allowed and target != "miai":
                violations.append(f"{module_name(path)} ({own}) imports {target} ({layer})")
    assert not violations, "\n".join(violations)


def test_core_is_pure() -> None:
    """No third-party imports, no I/O, clocks or global randomness in the rules core."""
    violations = []
    for path in sorted((SRC / "core").rglob("*.py")):
        for target in imports(path):
            top = target.split(".")[0]
            if top == "miai":
                continue
            if top not in sys.stdlib_module_names:
                violations.append(f"{module_name(path)} imports third-party {target}")
            elif top in IMPURE_FOR_CORE:
                violations.append(f"{module_name(path)} imports impure {target}")
    assert not violations, "\n".join(violations)


def test_the_layer_test_sees_the_layers() -> None:
    """Guard against this test passing vacuously after a move of the source tree."""
    seen = {layer_of(module_name(p)) for p in SRC.rglob("*.py")}
    assert {"core", "formats"} <= seen
