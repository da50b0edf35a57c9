"""The server's settings: one validated object; every variable documented; bad values refused in one line."""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from miai.server.settings import DEV_SECRET, Settings, SettingsError
from tests.conftest import REPO

STRONG_SECRET = "kJ7-qW2_xP9zR4mN8vB3cT6yH1sD5fG0aL"  # 34 characters, many different


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in list(os.environ):
        if variable.startswith("MIAI_"):
            monkeypatch.delenv(variable)


def test_the_constructor_never_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_PORT", "1234")
    monkeypatch.setenv("MIAI_ENV", "production")
    settings = Settings(data_dir=Path("somewhere"))
    assert (settings.port, settings.environment) == (8000, "development")
    assert settings.data_dir == Path("somewhere")


def test_from_env_reads_every_variable_by_its_old_name(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable, value in {
        "MIAI_PORT": "8123",
        "MIAI_ENV": "production",
        "MIAI_CONFIRM_WINDOW": "45",
        "MIAI_SMTP_STARTTLS": "yes",
        "MIAI_SESSION_DAYS": "7",
        "MIAI_SECRET_KEY": STRONG_SECRET,
        "MIAI_BASE_URL": "https://go.example.org/",
    }.items():
        monkeypatch.setenv(variable, value)
    settings = Settings.from_env(session_days=3)  # keyword overrides win over the environment
    assert settings.port == 8123
    assert settings.environment == "production"
    assert settings.confirm_window_seconds == 45
    assert settings.smtp_starttls is True
    assert settings.session_days == 3
    assert settings.secret_key == STRONG_SECRET
    assert settings.base_url == "https://go.example.org"
    assert settings.cookie_secure is True  # https: Secure cookies unless told otherwise
    settings.check()


def test_overrides_win_over_aliased_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_ENV", "production")
    monkeypatch.setenv("MIAI_CONFIRM_WINDOW", "45")
    settings = Settings.from_env(environment="development", confirm_window_seconds=9)
    assert (settings.environment, settings.confirm_window_seconds) == ("development", 9)


def test_an_empty_variable_means_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIAI_SMTP_STARTTLS", "")
    monkeypatch.setenv("MIAI_BASE_URL", "")
    monkeypatch.setenv("MIAI_PORT", "9000")
    settings = Settings.from_env()
    assert settings.smtp_starttls is False
    assert settings.base_url == "http://127.0.0.1:9000"


@pytest.mark.parametrize("spelling", ["production", "Production", "PRODUCTION", " production "])
def test_miai_env_is_case_insensitive(monkeypatch: pytest.MonkeyPatch, spelling: str) -> None:
    monkeypatch.setenv("MIAI_ENV", spelling)
    settings = Settings.from_env()
    assert settings.environment == "production"
    with pytest.raises(ValueError, match="MIAI_SECRET_KEY"):
        settings.check()  # the default secret in production


@pytest.mark.parametrize("secret", ["", DEV_SECRET, "short"])
def test_production_refuses_an_empty_default_or_short_secret(
    monkeypatch: pytest.MonkeyPatch, secret: str
) -> None:
    monkeypatch.setenv("MIAI_ENV", "production")
    monkeypatch.setenv("MIAI_SECRET_KEY", secret)
    with pytest.raises(ValueError, match="MIAI_SECRET_KEY"):
        Settings.from_env().check()


def test_development_accepts_the_default_secret() -> None:
    Settings.from_env().check()


def test_cookie_secure_follows_the_public_address() -> None:
    assert Settings(base_url="https://go.example.org").cookie_secure is True
    assert Settings(base_url="http://go.example.org").cookie_secure is False
    assert Settings().cookie_secure is False
    assert Settings(base_url="https://go.example.org", cookie_secure=False).cookie_secure is False
    assert Settings(cookie_secure=True).cookie_secure is True


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("MIAI_PORT", "abc", "valid integer"),
        ("MIAI_PORT", "99999", "less than or equal to 65535"),
        ("MIAI_PORT", "0", "greater than or equal to 1"),
        ("MIAI_CONFIRM_WINDOW", "-5", "greater than or equal to 1"),
        ("MIAI_SESSION_DAYS", "1e9", "valid integer"),
        ("MIAI_SCHEDULER_INTERVAL", "nan", "finite number"),
        ("MIAI_SCHEDULER_INTERVAL", "-1", "greater than 0"),
        ("MIAI_SMTP_STARTTLS", "perhaps", "valid boolean"),
        ("MIAI_ENV", "prod", "'development' or 'production'"),
        ("MIAI_BASE_URL", "javascript:alert(1)", "http:// or https://"),
        ("MIAI_DATABASE_URL", "not a url", "not a database URL"),
        ("MIAI_DATABASE_URL", "mysql://db/miai", "sqlite+aiosqlite:///PATH or postgresql+asyncpg://"),
        ("MIAI_DATABASE_URL", "postgresql+asyncpg://db:99999999/miai", "port 99999999 is not 1..65535"),
        ("MIAI_REDIS_URL", "http://cache:6379", "redis://"),
        ("MIAI_ARGON2_MEMORY_KIB", "8", "greater than or equal to 64"),
        ("MIAI_GUEST_IDLE_DAYS", "nan", "finite number"),
        ("MIAI_GUEST_IDLE_DAYS", "1e400", "finite number"),
        ("MIAI_GUEST_IDLE_DAYS", "0", "greater than 0"),
        ("MIAI_GUEST_EXPIRY_INTERVAL", "-1", "greater than 0"),
        ("MIAI_GUEST_EXPIRY_INTERVAL", "inf", "finite number"),
        ("MIAI_COMPUTER_SECONDS", "nan", "finite number"),
        ("MIAI_ENGINE_QUEUE", "rabbitmq", "'local' or 'redis'"),
        ("MIAI_RATE_LIMIT_GUESTS", "lots", "a limit like 10/minute"),
        ("MIAI_RATE_LIMIT_GUESTS", "0/hour", "a limit like 10/minute"),
        ("MIAI_RATE_LIMIT_GUESTS", "1e400/hour", "a limit like 10/minute"),
        ("MIAI_RATE_LIMIT_GUESTS", "nan/hour", "a limit like 10/minute"),
        ("MIAI_RATE_LIMIT_GUESTS", "99999999999999999999999/hour", "1..1000000000 times"),
        ("MIAI_RATE_LIMIT_GUESTS", "10 per 0 minutes", "a limit like 10/minute"),
        ("MIAI_RATE_LIMIT_GUESTS", "10 per 99999999999999999999 days", "at most a year"),
        ("MIAI_RATE_LIMIT_GUESTS", "10/hour;20/day", "a limit like 10/minute"),
        ("MIAI_RATE_LIMIT_GUESTS", "10/fortnight", "a limit like 10/minute"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError) as caught:
        Settings.from_env()
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"{variable}=") and message in text, text


@pytest.mark.parametrize("value", ["20/hour\x00", "20/\ud800hour", "\x00"])
def test_a_rate_limit_with_nul_or_a_lone_surrogate_is_one_line(value: str) -> None:
    with pytest.raises(ValueError) as caught:
        Settings.from_env(rate_limit_guests=value)
    text = str(caught.value)
    assert "\n" not in text and text.startswith("MIAI_RATE_LIMIT_GUESTS=") and "a limit like" in text, text


def test_a_secret_is_never_echoed_in_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError) as caught:
        Settings.from_env(secret_key="")
    assert str(caught.value).startswith("MIAI_SECRET_KEY: ")
    assert "secret_key" not in repr(Settings(secret_key=STRONG_SECRET))
    assert STRONG_SECRET not in repr(Settings(secret_key=STRONG_SECRET))


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("database_url", "mysql://miai:hunter2@db/miai"),
        ("database_url", "postgresql+asyncpg://miai:hunter2@db:99999/miai"),
        ("redis_url", "http://default:hunter2@cache:6379/0"),
        ("database_url", "postgresql+asyncpg://miai:hun/ter@2 x@db:99999/miai"),  # '/', '@' and ' ' inside
        ("redis_url", "http://default:hun/ter@2@cache/0"),
    ],
)
def test_a_password_in_a_bad_url_is_never_echoed(setting: str, value: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env(**{setting: value})
    shown = str(refused.value)
    assert "hunter2" not in shown and "hun" not in shown and "ter" not in shown
    assert "miai:***@" in shown or "default:***@" in shown


def test_a_redis_port_out_of_range_is_one_line() -> None:
    with pytest.raises(SettingsError, match=r"^MIAI_REDIS_URL='redis://127.0.0.1:99999/0': the port is not"):
        Settings.from_env(redis_url="redis://127.0.0.1:99999/0")


def test_a_misspelt_keyword_is_refused() -> None:
    with pytest.raises(ValueError, match="conferm_window_seconds: not a setting"):
        Settings.from_env(conferm_window_seconds=5)


def test_miai_admins_is_gone_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("MIAI_ADMINS", "root")
    with caplog.at_level(logging.WARNING):
        settings = Settings.from_env()
    assert not hasattr(settings, "admins")
    assert any("MIAI_ADMINS" in r.message and "miai admin grant" in r.message for r in caplog.records)


def _documented_variables() -> set[str]:
    readme = (REPO / "README.md").read_text()
    table = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `MIAI_")]
    return {name for row in rows for name in re.findall(r"`(MIAI_[A-Z0-9_]+)`", row)}


def test_every_setting_has_a_row_in_the_readme() -> None:
    from miai.server.settings import env_name

    documented = _documented_variables()
    missing = {env_name(field) for field in Settings.model_fields} - documented
    assert not missing, f"add these to the README's configuration table: {sorted(missing)}"
    assert "MIAI_ADMINS" not in documented


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_serve(tmp_path: Path, **variables: str) -> subprocess.CompletedProcess[str]:
    """`miai serve` in a subprocess; with a bad setting it must stop at once (the timeout catches a start)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MIAI_")}
    env.update(MIAI_DATA_DIR=str(tmp_path), MIAI_PORT=str(free_port()), PYTHONPATH=str(REPO / "src"))
    env.update(variables)
    command = [sys.executable, "-m", "miai", "serve"]
    return subprocess.run(
        command, check=False, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"MIAI_PORT": "abc"}, "MIAI_PORT='abc': Input should be a valid integer"),
        ({"MIAI_PORT": "99999"}, "MIAI_PORT='99999': Input should be less than or equal to 65535"),
        ({"MIAI_CONFIRM_WINDOW": "-1"}, "MIAI_CONFIRM_WINDOW='-1'"),
        ({"MIAI_ENV": "Production"}, "MIAI_SECRET_KEY must be set"),
    ],
)
def test_miai_serve_refuses_a_bad_setting_in_one_line(
    tmp_path: Path, variables: dict[str, str], message: str
) -> None:
    done = run_serve(tmp_path, **variables)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("miai serve: error: ") and message in lines[0], done.stderr


def test_without_a_secret_an_installation_makes_and_keeps_its_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The public development secret signed the device cookie, so anyone could forge one that passes for
    a known browser and guess passwords past the limit; now a server without MIAI_SECRET_KEY never uses it."""
    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path / "data"))
    assert Settings.from_env().secret_key == DEV_SECRET  # reading settings (the CLI tools) writes nothing
    assert not (tmp_path / "data").exists()
    first = Settings.from_env().for_serving()  # what `miai serve` and every worker run with
    assert first.secret_key != DEV_SECRET and len(first.secret_key) >= 32
    assert Settings.from_env().for_serving().secret_key == first.secret_key  # kept: sessions survive
    assert (tmp_path / "data" / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only
    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path / "other"))
    assert Settings.from_env().for_serving().secret_key != first.secret_key  # another installation
    monkeypatch.setenv("MIAI_SECRET_KEY", "an operator's own secret of enough length")
    assert Settings.from_env().for_serving().secret_key == "an operator's own secret of enough length"


@pytest.mark.parametrize(
    ("secret", "base_url", "problem"),
    [
        ("a" * 32, "https://go.example.org", "too easy to guess"),
        ("0" * 40, "https://go.example.org", "too easy to guess"),
        ("kJ7-qW2_xP9zR4mN8vB3cT6yH1sD5fG0aL", "http://go.example.org", "https://"),
    ],
)
def test_production_refuses_guessable_secrets_and_plain_http(
    secret: str, base_url: str, problem: str
) -> None:
    settings = Settings(environment="production", secret_key=secret, base_url=base_url)
    with pytest.raises(SettingsError, match=problem):
        settings.check()


def test_production_over_plain_http_when_the_operator_says_so() -> None:
    settings = Settings(
        environment="production",
        secret_key=STRONG_SECRET,
        base_url="http://10.0.0.5:8000",
        cookie_secure=False,
    )
    settings.check()
    assert settings.cookie_secure is False
