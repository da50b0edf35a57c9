"""Server configuration: one validated settings object.

`Settings(...)` is exactly what it is given (tests build it directly, so the environment never leaks in);
`Settings.from_env()` reads the environment variables, prefix MIAI_ (MIAI_PORT sets `port`), except where a
field names its own variable (`validation_alias`). A bad value fails with one line naming the variable.

To add a setting: one field below with `Field(default=..., ...)` (the keyword, so that mypy sees the
default), its range and a `description`, and a row in the README's configuration table
(tests/test_settings.py checks that every variable is documented).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import time
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

log = logging.getLogger(__name__)

PREFIX = "MIAI_"
DEV_SECRET = "miai-development-secret-change-me"
SECRET_DISTINCT_CHARACTERS = 10  # "a" * 32 is long enough and still no secret
PRODUCTION_SECRET_LENGTH = 32
DATABASE_DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg")
RATE_LIMIT_TEXT = re.compile(r" *[0-9]{1,10} *(?:/|per) *(?P<multiples>[0-9]{1,10})? *[A-Za-z]{1,10} *")
MAX_RATE_LIMIT_AMOUNT = 1_000_000_000  # a Redis counter's value, far from its 2**63
MAX_RATE_LIMIT_WINDOW = 366 * 86400  # seconds: a Redis key's expiry
# Variables that no longer configure anything, and what replaced them (a warning at start, not an error).
RETIRED = {
    "MIAI_ADMINS": "administrators are a stored role now: grant it with `miai admin grant NAME`",
}

Port = Annotated[int, Field(ge=1, le=65535)]
Positive = Annotated[int, Field(ge=1)]
Seconds = Annotated[float, Field(gt=0, le=86400, allow_inf_nan=False)]


class SettingsError(ValueError):
    """A setting with a bad value: one line naming the environment variable, never the secret itself."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=PREFIX,
        env_ignore_empty=True,  # MIAI_X= (empty) means "the default", as it did before
        frozen=True,
        extra="forbid",  # a misspelt keyword is an error, not a silently ignored setting
        validate_by_name=True,
        validate_by_alias=True,
    )

    # -- where it runs
    host: str = Field(default="127.0.0.1", min_length=1, description="address to listen on")
    port: Port = Field(default=8000, description="port to listen on")
    base_url: str = Field(default="", description="public address (links in e-mail, SGF, cookies, HSTS)")
    environment: Literal["development", "production"] = Field(
        default="development", validation_alias="MIAI_ENV", description="production refuses unsafe secrets"
    )
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description="proxies whose X-Forwarded-For/-Proto are trusted (comma-separated, or *)",
    )
    # -- storage and fan-out
    database_url: str = Field(default="", description="empty: SQLite in data_dir")
    data_dir: Path = Field(default=Path("data"), description="folder of the embedded SQLite database")
    redis_url: str = Field(default="", description="Redis for realtime fan-out between server processes")
    redis_prefix: str = Field(
        default="miai",
        pattern=r"^[A-Za-z0-9_.-]{1,64}$",
        description="prefix of the realtime Redis channels: only servers with the same one see each other",
    )
    gc_threshold: Annotated[
        tuple[
            Annotated[int, Field(ge=1, le=10_000_000)],
            Annotated[int, Field(ge=1, le=1000)],
            Annotated[int, Field(ge=1, le=1000)],
        ],
        NoDecode,  # "50000,20,100", not JSON: see _three_numbers
    ] = Field(
        default=(50_000, 20, 100),
        description="the server process's gc.set_threshold: Python's (700, 10, 10) makes thousands of "
        "websockets collect the whole heap every few events (bench/server.md)",
    )
    # -- secrets and sessions
    secret_key: str = Field(default=DEV_SECRET, min_length=1, repr=False, description="signs session cookies")
    session_days: Positive = Field(default=30, le=3650, description="how long a login lasts")
    sudo_minutes: Positive = Field(
        default=15,
        le=1440,
        description="how long a login session may change the account (address, password, API tokens) after "
        "its password was checked",
    )
    cookie_secure: bool | None = Field(
        default=None, description="Secure session cookie; default: base_url is https"
    )
    # -- rate limits, shared through Redis when redis_url is set: "N/minute", "N per 15 minutes", ...
    rate_limits_enabled: bool = Field(default=True, description="off only for tests and benchmarks")
    rate_limit_login: str = Field(default="20/minute", description="login attempts per client address")
    rate_limit_login_checks: str = Field(
        default="10 per 15 minutes",
        description="password checks per account name (each counted before it runs, right or wrong), "
        "or per recognised device",
    )
    rate_limit_register: str = Field(default="10/hour", description="new accounts per client address")
    rate_limit_guests: str = Field(
        default="20/hour", description="new guest accounts (a first practice game) per client address"
    )
    rate_limit_chat: str = Field(
        default="30/minute", description="chat messages per user (HTTP and websocket)"
    )
    rate_limit_challenge: str = Field(default="20/hour", description="challenges sent per user")
    rate_limit_games: str = Field(default="30/hour", description="games created per user (lobby flood guard)")
    rate_limit_seats: str = Field(default="60/hour", description="joins and leaves of games per user")
    rate_limit_practice: str = Field(default="30/hour", description="practice games started per user")
    rate_limit_area: str = Field(default="60/minute", description="territory estimates per user or address")
    rate_limit_reviews: str = Field(default="10/hour", description="game reviews asked for per user")
    rate_limit_password_reset: str = Field(
        default="5/hour", description="password reset requests per address"
    )
    argon2_time_cost: Positive = Field(default=3, description="argon2id passes (new password hashes)")
    argon2_memory_kib: int = Field(default=65536, ge=64, description="argon2id memory (new password hashes)")
    # -- e-mail
    smtp_host: str = Field(default="", description="empty: e-mail disabled")
    smtp_port: Port = Field(default=25)
    smtp_user: str = Field(default="")
    smtp_password: str = Field(default="", repr=False)
    smtp_starttls: bool = Field(default=False)
    mail_from: str = Field(default="miai@localhost", min_length=3)
    # -- games and background loops
    bots_rated_vs_people: bool = Field(
        default=False, description="bot accounts (POST /me/bot) may play rated games against people"
    )
    confirm_window_seconds: Positive = Field(
        default=300,
        le=7 * 86400,
        validation_alias="MIAI_CONFIRM_WINDOW",
        description="time to confirm a full game",
    )
    scheduler_interval: Seconds = Field(default=1.0, description="seconds between deadline checks")
    guest_idle_days: float = Field(
        default=7.0,
        gt=0,
        le=3650,
        allow_inf_nan=False,
        description="a guest unseen this long is deleted with their games",
    )
    guest_expiry_interval: Seconds = Field(default=3600.0, description="seconds between guest expiry rounds")
    # -- engine work (computer moves, dead stones, territory estimates): here, or on `miai worker`s
    engine_queue: Literal["local", "redis"] = Field(
        default="local",
        description="local: engines in this process's pool; redis: jobs for `miai worker` (needs redis_url)",
    )
    engine_job_visibility: float = Field(
        default=30.0,
        ge=1,
        le=3600,
        allow_inf_nan=False,
        description="seconds a worker's job may go untouched before another worker takes it over",
    )
    engine_reply_timeout: float = Field(
        default=30.0,
        ge=0.1,
        le=600,
        allow_inf_nan=False,
        description="seconds to wait for a worker's dead-stone verdict or territory estimate",
    )
    engine_sweep_interval: float = Field(
        default=5.0,
        ge=0.1,
        le=3600,
        allow_inf_nan=False,
        description="seconds between sweeps for due computer moves (engine_queue=redis) and stalled reviews",
    )
    computer_seconds: float = Field(
        default=5.0,
        gt=0,
        le=60,
        allow_inf_nan=False,
        description="a computer's think per move in server games (level 10's budget, a cap for 1..9)",
    )
    warm_engines: bool = Field(
        default=True,
        description="load (or compile) every game's engine in the background at start, before any first move",
    )
    review_quick_playouts: int = Field(
        default=400, ge=1, le=100_000, description="engine playouts per position of a quick game review"
    )
    review_deep_playouts: int = Field(
        default=3000, ge=1, le=100_000, description="engine playouts per position of a deep game review"
    )
    review_queued_positions: int = Field(
        default=1000,
        ge=1,
        le=1_000_000,
        description="positions of the reviews one user asked for that may wait or compute at once",
    )
    outbox_interval: Seconds = Field(default=2.0, description="seconds between e-mail outbox runs")
    # -- what one member may keep
    upload_records: int = Field(
        default=500, ge=0, le=1_000_000, description="uploaded SGF records one member may keep"
    )
    upload_moves: int = Field(
        default=100_000,
        ge=0,
        le=100_000_000,
        description="moves of the main lines of one member's uploaded records, all together",
    )
    # -- limits on input
    max_body_bytes: int = Field(
        default=65536,
        ge=1024,
        le=64 * 1024 * 1024,
        description="largest HTTP request body; larger ones get 413",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)  # the constructor never reads the environment: `from_env` does

    @field_validator("gc_threshold", mode="before")
    @classmethod
    def _three_numbers(cls, value: Any) -> Any:
        """MIAI_GC_THRESHOLD=50000,20,100 (as gc.set_threshold takes them); the range checks follow."""
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",")]
            if len(parts) != 3 or not all(part.isascii() and part.isdigit() for part in parts):
                raise ValueError("three whole numbers separated by commas, such as 50000,20,100")
            return tuple(int(part) for part in parts)
        return value

    @field_validator("environment", mode="before")
    @classmethod
    def _environment_any_case(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value:
            return value
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// address, e.g. https://go.example.org")
        return value.rstrip("/")

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        if value:
            try:
                url = make_url(value)
            except ArgumentError:
                raise ValueError("not a database URL, e.g. postgresql+asyncpg://user@host/miai") from None
            if url.drivername not in DATABASE_DRIVERS:  # the drivers Miai installs; others fail on first use
                raise ValueError("Miai uses sqlite+aiosqlite:///PATH or postgresql+asyncpg://user@host/name")
            if url.port is not None and not 0 < url.port < 65536:
                raise ValueError(f"port {url.port} is not 1..65535")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str) -> str:
        if value and urlsplit(value).scheme not in ("redis", "rediss", "unix"):
            raise ValueError("must be a redis://, rediss:// or unix:// URL")
        try:
            urlsplit(value).port  # noqa: B018  (reading it checks it)
        except ValueError:
            raise ValueError("the port is not 1..65535") from None
        return value

    @field_validator(
        "rate_limit_login",
        "rate_limit_login_checks",
        "rate_limit_register",
        "rate_limit_guests",
        "rate_limit_chat",
        "rate_limit_challenge",
        "rate_limit_games",
        "rate_limit_seats",
        "rate_limit_practice",
        "rate_limit_area",
        "rate_limit_reviews",
        "rate_limit_password_reset",
    )
    @classmethod
    def _rate_limit(cls, value: str) -> str:
        from limits import parse

        # One limit only, with whole numbers in range: `limits` alone would take "10 per 0 minutes" as one
        # minute, keep only the first of "10/hour;20/day", and accept counts and windows Redis cannot hold.
        match = RATE_LIMIT_TEXT.fullmatch(value)
        try:
            item = parse(value) if match else None
        except ValueError:
            item = None
        if (
            match is None
            or item is None
            or not 1 <= item.amount <= MAX_RATE_LIMIT_AMOUNT
            or int(match["multiples"] or 1) < 1
            or item.get_expiry() > MAX_RATE_LIMIT_WINDOW
        ):
            raise ValueError(
                f"must be a limit like 10/minute or 5 per 15 minutes "
                f"(1..{MAX_RATE_LIMIT_AMOUNT} times per at most a year)"
            )
        return value

    @model_validator(mode="after")
    def _queue_needs_redis(self) -> Settings:
        if self.engine_queue == "redis" and not self.redis_url:
            raise ValueError("MIAI_ENGINE_QUEUE=redis needs MIAI_REDIS_URL (the queue of engine jobs)")
        return self

    @model_validator(mode="after")
    def _derived_defaults(self) -> Settings:
        # Frozen model: fill the defaults that depend on other fields once, here.
        if not self.base_url:
            host = f"[{self.host}]" if ":" in self.host else self.host
            object.__setattr__(self, "base_url", f"http://{host}:{self.port}")
        if self.cookie_secure is None:
            object.__setattr__(self, "cookie_secure", self.https)
        return self

    @property
    def https(self) -> bool:
        """Served to browsers over TLS (directly or through a proxy), by the public address."""
        return self.base_url.startswith("https://")

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'miai.db').as_posix()}"

    def check(self) -> None:
        """Refuse what development allows but a public server must not run with."""
        if self.environment != "production":
            return
        if self.secret_key == DEV_SECRET:
            raise SettingsError("MIAI_SECRET_KEY must be set to a private value in production")
        if len(self.secret_key) < PRODUCTION_SECRET_LENGTH:
            raise SettingsError(
                f"MIAI_SECRET_KEY must be at least {PRODUCTION_SECRET_LENGTH} characters in production"
            )
        if len(set(self.secret_key)) < SECRET_DISTINCT_CHARACTERS:
            raise SettingsError(
                "MIAI_SECRET_KEY is too easy to guess (too few different characters); make one with "
                "`python3 -c 'import secrets; print(secrets.token_urlsafe(48))'`"
            )
        if not self.https and "cookie_secure" not in self.model_fields_set:
            # A production server reached over plain http would send its session cookie in the clear.
            raise SettingsError(
                "MIAI_BASE_URL must be the public https:// address in production (set "
                "MIAI_COOKIE_SECURE=false to run over plain http on purpose, e.g. on a private network)"
            )

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """The settings from the MIAI_ variables; keyword overrides win. Raises SettingsError."""
        for variable, replacement in RETIRED.items():
            if os.environ.get(variable):
                log.warning("%s is no longer read: %s", variable, replacement)
        by_variable = {env_name(name).lower(): name for name in cls.model_fields}
        found = EnvSettingsSource(cls)()
        values = {by_variable.get(key.lower(), key): value for key, value in found.items()}
        values.update(overrides)
        try:
            return cls(**values)
        except ValidationError as err:
            raise SettingsError(describe(err)) from None

    def for_serving(self) -> Settings:
        """The settings a server runs with: without a secret key (outside production, which refuses that),
        never the public development one, with which anyone could forge cookies that pass for a known
        browser, but this installation's own random one (`install_secret`)."""
        if self.secret_key != DEV_SECRET or self.environment == "production":
            return self
        return self.model_copy(update={"secret_key": install_secret(self.data_dir)})


def install_secret(data_dir: Path) -> str:
    """This installation's own random secret key, made on first use and kept in `data_dir/secret_key`
    (readable by its owner only). Several processes on one data folder share it."""
    path = data_dir / "secret_key"
    data_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(48))
    for _ in range(50):  # another process may have created it a moment ago and still be writing it
        secret = path.read_text().strip()
        if secret:
            return secret
        time.sleep(0.01)
    raise SettingsError(f"{path} is empty: delete it, or set MIAI_SECRET_KEY")


def env_name(field: str) -> str:
    """The environment variable of a field: its alias, or MIAI_ and its name in capitals."""
    alias = Settings.model_fields[field].validation_alias
    return alias if isinstance(alias, str) else PREFIX + field.upper()


def describe(err: ValidationError) -> str:
    """A validation error as one line: `MIAI_PORT='abc': Input should be a valid integer; ...`."""
    by_alias = {env_name(name): name for name in Settings.model_fields}
    parts = []
    for problem in err.errors():
        field = str(problem["loc"][0]) if problem["loc"] else ""
        field = by_alias.get(field, field)
        known = field in Settings.model_fields
        name = env_name(field) if known else field
        shown = known and Settings.model_fields[field].repr and problem["type"] != "missing"
        value = repr(_without_password(problem["input"]))
        value = value if len(value) <= 80 else value[:77] + "..."
        where = f"{name}={value}" if shown else name
        message = problem["msg"].removeprefix("Value error, ")
        if problem["type"] == "extra_forbidden":
            message = "not a setting"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def _without_password(value: Any) -> Any:
    """A URL's credentials masked (`postgresql://miai:***@db/miai`): errors are logged and shown on screens.
    Everything up to the last `@` is the user part, whatever the password holds (`/`, `@`, spaces)."""
    if not isinstance(value, str) or "://" not in value or "@" not in value:
        return value
    scheme, rest = value.split("://", 1)
    if "@" not in rest:
        return value
    credentials, host = rest.rsplit("@", 1)
    user = credentials.split(":", 1)[0] if ":" in credentials else ""
    return f"{scheme}://{user}:***@{host}"


def random_token() -> str:
    return secrets.token_urlsafe(32)
