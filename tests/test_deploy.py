"""The deployment recipe stays true to the code without running a container (docs/operations.md, Deployment).

Dockerfile, compose.yaml, Procfile, deploy/Caddyfile and deploy/systemd/ are read as text: every `miai`
command line in them parses with `miai`'s own parser (so a renamed subcommand or flag fails here), every
MIAI_* variable they name is a setting Miai reads, the production environment of compose.yaml passes the
settings' own checks, the health check paths are routes of the API, and the proxy forwards the websocket
paths the server serves.
"""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.routing import Match

from miai.cli import build_parser
from miai.server.app import create_app
from miai.server.settings import Settings, env_name
from tests.conftest import REPO

DEPLOY_FILES = [
    "Dockerfile",
    "compose.yaml",
    "Procfile",
    "deploy/Caddyfile",
    *(
        f"deploy/systemd/{name}"
        for name in ("miai-web@.service", "miai-worker@.service", "miai-migrate.service", "miai.target")
    ),
]
WEBSOCKETS = ["/api/v1/ws", "/api/v1/games/1/ws"]  # docs/realtime.md
# What compose.yaml's `.env` holds (its header says so), with values a production server accepts.
COMPOSE_ENV = {
    "DOMAIN": "go.example.org",
    "MIAI_SECRET_KEY": "kJ7-qW2_xP9zR4mN8vB3cT6yH1sD5fG0aL",
    "POSTGRES_PASSWORD": "Zq3-secret_9",
}


def text(name: str) -> str:
    return (REPO / name).read_text()


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(text("compose.yaml"))
    assert isinstance(loaded, dict)
    return loaded


def interpolate(value: str) -> str:
    """Compose's `${NAME}` and `${NAME:?message}` with COMPOSE_ENV."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda m: COMPOSE_ENV[m.group(1)], value)


def miai_services() -> dict[str, dict[str, Any]]:
    """compose.yaml's services that run the Miai image."""
    return {name: s for name, s in compose()["services"].items() if s.get("image", "").startswith("miai")}


# ------------------------------------------------------------------------------------------- command lines


def command_lines() -> list[tuple[str, list[str]]]:
    """(where, argv) of every `miai ...` command of the recipe, placeholders filled in as they would be."""
    found: list[tuple[str, list[str]]] = []
    for line in text("Procfile").splitlines():
        if line.strip():
            kind, command = line.split(":", 1)
            found.append((f"Procfile {kind}", shlex.split(command.replace("$PORT", "5000"))))
    for unit in sorted((REPO / "deploy/systemd").glob("*.service")):
        for line in unit.read_text().splitlines():
            if line.startswith("ExecStart="):
                argv = shlex.split(line.removeprefix("ExecStart=").replace("%i", "8001"))
                found.append((unit.name, [Path(argv[0]).name, *argv[1:]]))
    for name, service in miai_services().items():
        found.append((f"compose.yaml {name}", list(service["command"])))
    dockerfile = text("Dockerfile")
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert cmd is not None, "the Dockerfile has no CMD"
    found.append(("Dockerfile CMD", json.loads(cmd.group(1))))
    for run in re.findall(r"^RUN (.*)$", dockerfile, re.MULTILINE):
        for arguments in re.findall(r"(?:^|[|;&]\s*)miai ([^|;&>]*)", run):  # `miai` as a command
            found.append(("Dockerfile RUN", ["miai", *shlex.split(arguments)]))
    return found


def test_the_recipe_runs_every_role() -> None:
    subcommands = {argv[1] for _, argv in command_lines()}
    assert {"serve", "worker", "migrate"} <= subcommands


@pytest.mark.parametrize(("where", "argv"), command_lines(), ids=[where for where, _ in command_lines()])
def test_every_miai_command_line_parses(where: str, argv: list[str]) -> None:
    assert argv[0] == "miai", where
    try:
        build_parser().parse_args(argv[1:])
    except SystemExit:
        pytest.fail(f"{where}: `{shlex.join(argv)}` is not a command `miai` takes (see the error above)")


def test_web_processes_listen_where_the_proxy_and_the_health_checks_look() -> None:
    services = compose()["services"]
    upstreams = services["caddy"]["environment"]["UPSTREAMS"].split()
    webs = [name for name, s in miai_services().items() if s["command"][1] == "serve"]
    assert len(webs) >= 2
    for name in webs:
        port = services[name]["command"][services[name]["command"].index("--port") + 1]
        assert f"{name}:{port}" in upstreams
        assert f"127.0.0.1:{port}/" in " ".join(services[name]["healthcheck"]["test"])
    assert all(upstream.split(":")[0] in webs for upstream in upstreams)


# ------------------------------------------------------------------------------------------- settings


def known_variables() -> set[str]:
    """Settings' variables, and the other MIAI_* variables the README's configuration table documents
    (read by the engines, e.g. MIAI_SEARCH_THREADS)."""
    documented = set()
    for line in text("README.md").splitlines():
        if line.startswith("| `MIAI_"):
            documented |= set(re.findall(r"`(MIAI_[A-Z0-9_]+)`", line.split("|")[1]))
    return {env_name(field) for field in Settings.model_fields} | documented


@pytest.mark.parametrize("name", DEPLOY_FILES)
def test_every_miai_variable_named_is_one_miai_reads(name: str) -> None:
    named = set(re.findall(r"\bMIAI_[A-Z0-9_]+", text(name)))
    unknown = named - known_variables()
    assert not unknown, f"{name} names variables Miai does not read: {sorted(unknown)}"


def test_the_compose_environment_is_a_valid_production_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    environments = [
        {key: interpolate(str(value)) for key, value in service["environment"].items()}
        for service in miai_services().values()
    ]
    assert all(environment == environments[0] for environment in environments)  # one configuration
    for key, value in environments[0].items():
        monkeypatch.setenv(key, value)
    settings = Settings.from_env()
    settings.check()  # refuses development secrets and plain http in production
    assert settings.environment == "production"
    assert settings.base_url == "https://go.example.org"
    assert settings.database_url.startswith("postgresql+asyncpg://") and settings.redis_url
    assert getattr(settings, "engine_queue", None) == "redis"  # the web processes never search


def test_the_image_is_built_from_python_3_11_and_runs_as_another_user_than_root() -> None:
    dockerfile = text("Dockerfile")
    assert re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)[-1] == "python:3.11-slim"
    users = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert users and users[-1] not in {"root", "0"}
    assert "MIAI_HOST=0.0.0.0" in dockerfile  # reachable from the proxy's container


# ------------------------------------------------------------------------------------------- routes


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(Settings(data_dir=tmp_path_factory.mktemp("data")))


def served(app: Any, path: str, kind: str) -> bool:
    """Whether the server has a route of its own for `path` (an http or websocket scope); the browser UI's
    catch-all page does not count."""
    scope = {"type": kind, "path": path, "root_path": "", "method": "GET", "headers": [], "query_string": b""}
    for route in app.router.routes:
        if route.matches(scope)[0] == Match.FULL:
            return getattr(route, "path", None) != "/{path:path}"
    return False


def test_health_checks_ask_routes_the_server_has(app: Any) -> None:
    checks = re.findall(r"health_uri (\S+)", text("deploy/Caddyfile"))
    for service in miai_services().values():
        if "healthcheck" in service:
            checks += re.findall(r"127\.0\.0\.1:\d+(/\S+?)'", " ".join(service["healthcheck"]["test"]))
    assert set(checks) == {"/api/v1/health/ready", "/api/v1/health/live"}
    assert all(served(app, path, "http") for path in checks)
    assert not served(app, "/api/v1/health/nothing", "http")  # the check above can fail


def test_the_proxy_forwards_the_websockets_the_server_serves(app: Any) -> None:
    assert all(served(app, path, "websocket") for path in WEBSOCKETS)
    caddyfile = text("deploy/Caddyfile")
    proxies = re.findall(r"^\s*reverse_proxy\s+(\S+)", caddyfile, re.MULTILINE)
    assert proxies
    for path in WEBSOCKETS:
        # A reverse_proxy without a matcher (its first argument an upstream) proxies every path; a path
        # matcher must cover the websocket paths.
        assert any(
            not first.startswith(("/", "@", "*")) or fnmatch.fnmatch(path, first) for first in proxies
        ), path
    # Websockets need the Upgrade and Connection headers passed on, which Caddy does unless told not to.
    assert not re.search(r"header_up\s+-(Upgrade|Connection)", caddyfile, re.IGNORECASE)


# ------------------------------------------------------------------------------------------- systemd


def test_the_systemd_target_starts_units_that_exist() -> None:
    units = REPO / "deploy/systemd"
    for unit in units.iterdir():
        for line in unit.read_text().splitlines():
            key, _, value = line.partition("=")
            if key not in {"Wants", "Requires", "After", "PartOf", "WantedBy"}:
                continue
            for name in value.split():
                if name.startswith("miai"):
                    template = re.sub(r"@[^.]+\.", "@.", name)
                    assert (units / template).exists(), f"{unit.name}: {key}={name}: no {template}"
    wanted = re.search(r"^Wants=(.*)$", (units / "miai.target").read_text(), re.MULTILINE)
    assert wanted is not None
    assert {n.split("@")[0] for n in wanted.group(1).split()} == {"miai-web", "miai-worker"}
