"""The import layers of ARCHITECTURE.md: imports point down only, and the core stays pure."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

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


# ---------------------------------------------------------------- inside the server

SERVER = SRC / "server"
WEB_FRAMEWORKS = {"fastapi", "starlette", "uvicorn"}
EDGE = ("miai.server.api",)  # routes, their dependencies and the websockets


def imported_names(path: Path) -> list[str]:
    """Every module `path` imports, `from a import b` counted as both `a` and `a.b` (b may be a module)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = imports(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_route_modules_are_imported_by_the_app_alone() -> None:
    """A route module's shared parts live where others may import them: field types in api/inputs.py,
    request dependencies in api/deps.py."""
    routes = {module_name(p) for p in SERVER.rglob("*.py") if "router = APIRouter(" in p.read_text()}
    assert {"miai.server.api.games", "miai.server.api.accounts", "miai.server.api.ws"} <= routes
    violations = [
        f"{module_name(path)} imports {target}"
        for path in sorted(SERVER.rglob("*.py"))
        if module_name(path) != "miai.server.app"
        for target in imported_names(path)
        if target in routes and target != module_name(path)
    ]
    assert not violations, "\n".join(violations)


def test_identity_and_storage_know_nothing_of_http() -> None:
    """Accounts, credentials and the database are used by routes, never the other way round."""
    packages = [SERVER / "identity", SERVER / "storage"]
    assert all(package.is_dir() for package in packages)
    violations = [
        f"{module_name(path)} imports {target}"
        for package in packages
        for path in sorted(package.rglob("*.py"))
        for target in imports(path)
        if target.split(".")[0] in WEB_FRAMEWORKS or target.startswith(EDGE)
    ]
    assert not violations, "\n".join(violations)


# ---------------------------------------------------------------- the server's own layers

# The server's packages and top-level modules, bottom to top: each may import only itself and those before
# it (what each holds: the docstring of miai/server/__init__.py).
SERVER_ORDER = [
    "errors",
    "settings",
    "logs",
    "text",
    "game_options",
    "move_texts",
    "storage",
    "realtime",
    "notify",
    "identity",
    "ratings",
    "play",
    "engine_jobs",
    "scheduling",
    "api",
    "app",
    "main",
]
MODULES = {module_name(p) for p in SRC.rglob("*.py")}


def imported_modules(text: str, name: str, is_package: bool) -> set[str]:
    """The modules of miai that module `name` imports anywhere: at the top, inside functions, under
    TYPE_CHECKING; relative imports resolved. `from a import b` is an import of `a.b` when that is a module,
    else of `a`; an import of a name inside a module counts as one of its module."""
    package = name if is_package else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.extend(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names)
    return {owner for owner in map(owning_module, found) if owner}


def owning_module(name: str) -> str:
    """`name` if it is a module of miai, else the module it is in ("" outside miai)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def module_imports(path: Path) -> set[str]:
    return imported_modules(path.read_text(), module_name(path), path.name == "__init__.py")


def server_unit(module: str) -> str | None:
    """The package or top-level module of the server that `module` belongs to."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["miai", "server"] and len(parts) > 2 else None


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node: nodes that import each other, directly
    or through others."""
    reach = {}
    for start in graph:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for target in graph[todo.pop()] - seen:
                seen.add(target)
                todo.append(target)
        reach[start] = seen
    components = {frozenset({n} | {m for m in reach[n] if n in reach[m]}) for n in graph}
    return sorted(sorted(c) for c in components if len(c) > 1)


def describe(graph: dict[str, set[str]], cycle: list[str]) -> str:
    return "; ".join(f"{a} -> {', '.join(sorted(graph[a] & set(cycle)))}" for a in cycle)


def test_the_import_graph_sees_every_kind_of_import() -> None:
    """Guard against the tests below passing vacuously: imports in functions, under TYPE_CHECKING and
    relative ones are edges as much as those at the top."""
    text = (
        "from typing import TYPE_CHECKING\n"
        "import miai.core.go.rules\n"
        "from miai.server.play import stream\n"
        "from . import errors\n"
        "from .identity.bots import is_computer\n"
        "if TYPE_CHECKING:\n    from miai.server.api.deps import Viewer\n"
        "def f():\n    from miai.engines.levels import style\n"
    )
    assert imported_modules(text, "miai.server.app", is_package=False) == {
        "miai.core.go.rules",
        "miai.server.play.stream",
        "miai.server.errors",
        "miai.server.identity.bots",
        "miai.server.api.deps",
        "miai.engines.levels",
    }


def test_server_packages_import_only_those_below_them() -> None:
    """Imports inside the server point down SERVER_ORDER: what two packages both need lives below both."""
    on_disk = {server_unit(module_name(p)) for p in SERVER.rglob("*.py")} - {None}
    assert on_disk == set(SERVER_ORDER), "give every server package and module its place in SERVER_ORDER"
    violations = []
    for path in sorted(SERVER.rglob("*.py")):
        own = server_unit(module_name(path))
        if own is None:
            continue
        for target in sorted(module_imports(path)):
            unit = server_unit(target)
            if unit is not None and SERVER_ORDER.index(unit) > SERVER_ORDER.index(own):
                violations.append(f"{module_name(path)} ({own}) imports {target} ({unit}, above it)")
    assert not violations, "\n".join(violations)


def test_no_import_cycles_between_server_packages() -> None:
    graph: dict[str, set[str]] = {unit: set() for unit in SERVER_ORDER}
    for path in SERVER.rglob("*.py"):
        own = server_unit(module_name(path))
        for target in module_imports(path):
            unit = server_unit(target)
            if own is not None and unit is not None and unit != own:
                graph[own].add(unit)
    found = cycles(graph)
    assert not found, "\n".join(describe(graph, c) for c in found)


def test_engine_processes_load_no_database_and_no_web_framework() -> None:
    """An engine process unpickles its jobs from engine_jobs/engine.py: what that module reaches, directly
    or through others, stays light (no game service, no database), so a fresh engine process answers its
    first job within the reply timeout."""
    paths = {module_name(p): p for p in SRC.rglob("*.py")}
    reached, todo = set(), ["miai.server.engine_jobs.engine"]
    while todo:
        for target in module_imports(paths[todo.pop()]) - reached:
            reached.add(target)
            todo.append(target)
    heavy = {"sqlalchemy", "fastapi", "starlette", "redis"}
    violations = sorted(m for m in reached if {t.split(".")[0] for t in imports(paths[m])} & heavy)
    assert "miai.server.play.judging" in reached
    assert not violations, "engine processes would import: " + ", ".join(violations)


@pytest.mark.parametrize("layer", ["core", "formats", "engines", "server", "bot"])
def test_no_import_cycles_between_modules(layer: str) -> None:
    """Within a layer, modules import one way too: a registry imports what it registers, never the reverse."""
    paths = {module_name(p): p for p in (SRC / layer).rglob("*.py")}
    graph = {name: module_imports(path) & set(paths) - {name} for name, path in paths.items()}
    assert any(graph.values()), f"no imports found inside {layer}"
    found = cycles(graph)
    assert not found, "\n".join(describe(graph, c) for c in found)


# ---------------------------------------------------------------- the bot client

BOT = SRC / "bot"
BOT_MAY_IMPORT = {"httpx", "websockets"}  # its HTTP and websocket clients; the rest is the standard library


def test_the_bot_is_a_client_of_the_public_api() -> None:
    """`miai bot` reaches a server only through HTTP and the websocket (ARCHITECTURE.md, "Bots"): it
    imports the GTP layer of formats, itself, the standard library and its two clients, nothing else."""
    assert (BOT / "connection.py").is_file()
    violations = []
    for path in sorted(BOT.rglob("*.py")):
        for target in imports(path):
            top = target.split(".")[0]
            if top == "miai":
                if not target.startswith(("miai.bot", "miai.formats")):
                    violations.append(f"{module_name(path)} imports {target}")
            elif top not in sys.stdlib_module_names and top not in BOT_MAY_IMPORT:
                violations.append(f"{module_name(path)} imports third-party {target}")
    assert not violations, "\n".join(violations)
