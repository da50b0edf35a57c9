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


# ---------------------------------------------------------------- inside the server

SERVER = SRC / "server"
WEB_FRAMEWORKS = {"fastapi", "starlette", "uvicorn"}
EDGE = ("miai.server.api", "miai.server.realtime")  # routes, their dependencies and the websockets


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
    assert {"miai.server.api.games", "miai.server.api.accounts", "miai.server.realtime.ws"} <= routes
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
