"""Server configuration from environment variables (prefix MIAI_) with safe embedded defaults."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

DEV_SECRET = "miai-development-secret-change-me"


@dataclass(frozen=True)
class Settings:
    database_url: str = ""  # empty: SQLite in data_dir
    data_dir: Path = Path("data")
    host: str = "127.0.0.1"
    port: int = 8000
    secret_key: str = DEV_SECRET
    environment: str = "development"  # "production" refuses the development secret
    base_url: str = "http://127.0.0.1:8000"
    redis_url: str = ""  # set to fan events out across several server processes
    smtp_host: str = ""  # empty: e-mail disabled
    smtp_port: int = 25
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    mail_from: str = "miai@localhost"
    confirm_window_seconds: int = 300
    scheduler_interval: float = 1.0
    outbox_interval: float = 2.0
    login_attempts_per_minute: int = 10
    session_days: int = 30
    cookie_secure: bool = False
    # argon2id cost: the library's defaults (3 passes over 64 MiB); lower them only for tests and benchmarks
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    admins: tuple[str, ...] = ()  # usernames with administrator rights (besides users.is_admin)
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'miai.db').as_posix()}"

    def check(self) -> None:
        if self.environment == "production" and self.secret_key == DEV_SECRET:
            raise ValueError("MIAI_SECRET_KEY must be set to a private value in production")
        if self.argon2_time_cost < 1 or self.argon2_memory_kib < 64:
            raise ValueError("MIAI_ARGON2_TIME_COST must be 1 or more and MIAI_ARGON2_MEMORY_KIB 64 or more")

    @staticmethod
    def from_env(**overrides: object) -> Settings:
        env = os.environ
        values: dict[str, object] = {
            "database_url": env.get("MIAI_DATABASE_URL", ""),
            "data_dir": Path(env.get("MIAI_DATA_DIR", "data")),
            "host": env.get("MIAI_HOST", "127.0.0.1"),
            "port": int(env.get("MIAI_PORT", "8000")),
            "secret_key": env.get("MIAI_SECRET_KEY", DEV_SECRET),
            "environment": env.get("MIAI_ENV", "development"),
            "base_url": env.get("MIAI_BASE_URL", ""),
            "redis_url": env.get("MIAI_REDIS_URL", ""),
            "smtp_host": env.get("MIAI_SMTP_HOST", ""),
            "smtp_port": int(env.get("MIAI_SMTP_PORT", "25")),
            "smtp_user": env.get("MIAI_SMTP_USER", ""),
            "smtp_password": env.get("MIAI_SMTP_PASSWORD", ""),
            "smtp_starttls": env.get("MIAI_SMTP_STARTTLS", "") in {"1", "true", "yes"},
            "mail_from": env.get("MIAI_MAIL_FROM", "miai@localhost"),
            "confirm_window_seconds": int(env.get("MIAI_CONFIRM_WINDOW", "300")),
            "argon2_time_cost": int(env.get("MIAI_ARGON2_TIME_COST", "3")),
            "argon2_memory_kib": int(env.get("MIAI_ARGON2_MEMORY_KIB", "65536")),
            "admins": tuple(a.strip().lower() for a in env.get("MIAI_ADMINS", "").split(",") if a.strip()),
        }
        values.update(overrides)
        if not values["base_url"]:
            values["base_url"] = f"http://{values['host']}:{values['port']}"
        return Settings(**values)  # type: ignore[arg-type]


def random_token() -> str:
    return secrets.token_urlsafe(32)
