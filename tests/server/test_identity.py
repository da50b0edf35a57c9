"""Names never grant rights (finding 3 of issue 15).

Computer players are accounts with the stored `is_bot` flag, created by the server; a person can neither
register a computer-like name nor, holding one from before, be taken for the computer. Administrators are the
stored `users.is_admin` role, granted by `miai admin grant`; a name in MIAI_ADMINS grants nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy import select

from miai.server.app import create_app
from miai.server.identity.passwords import hash_password
from miai.server.identity.tokens import token_hash
from miai.server.settings import Settings
from miai.server.storage.db import _upgrade, make_engine
from miai.server.storage.models import ApiToken, User
from tests.server.conftest import make_settings, register, upgrade_to
from tests.server.test_computer_games import centre_first, settle


@pytest.fixture
def client(database_url: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_settings(database_url, tmp_path), background=False, chooser=centre_first)
    with TestClient(app) as test_client:
        yield test_client


def run(client: TestClient, work: Any) -> Any:
    """Run `work(db)` in a database session on the app's own event loop and commit."""

    async def call() -> Any:
        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            result = await work(db)
            await db.commit()
            return result

    return client.portal.call(call)  # type: ignore[union-attr]


def add_user(client: TestClient, username: str, **columns: Any) -> int:
    """An account written straight to the database (one that exists from before names were reserved)."""

    async def work(db: Any) -> int:
        values: dict[str, Any] = {"password_hash": hash_password("correct horse"), "settings": {}}
        values.update(columns)
        user = User(username=username, created_at=datetime.now(UTC), **values)
        db.add(user)
        await db.flush()
        return user.id

    return int(run(client, work))


def token_for(client: TestClient, user_id: int) -> dict[str, str]:
    """Headers with an API token of the account (one written straight to the database, too)."""
    token = f"miai_test-token-of-{user_id}"

    async def work(db: Any) -> None:
        now = datetime.now(UTC)
        db.add(ApiToken(user_id=user_id, name="t", token_hash=token_hash(token), created_at=now))

    run(client, work)
    return {"Authorization": f"Bearer {token}"}


# ------------------------------------------------------------------------------- computer accounts


@pytest.mark.parametrize(
    "name", ["Computer-7", "COMPUTER-7", "computer-1", "computer-gnugo", "computer_3", "Computer"]
)
def test_computer_names_cannot_be_registered(client: TestClient, name: str) -> None:
    response = client.post("/api/v1/accounts", json={"username": name, "password": "correct horse"})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_input"
    assert "reserved" in response.json()["message"]


def test_names_merely_containing_computer_are_fine(client: TestClient) -> None:
    register(client, "computerfan")
    register(client, "my-computer-7")


def test_a_person_holding_a_computer_name_is_never_the_computer(client: TestClient) -> None:
    # Registered before the name was reserved, and even carrying a computer's setting: still a person.
    mallory_id = add_user(client, "Computer-7", settings={"bot_level": 7})
    mallory = token_for(client, mallory_id)
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 7})["id"]
    snap = alice.get(f"/api/v1/games/{gid}").json()
    opponent = next(p for p in snap["players"] if p["user_id"] != alice.user_id)
    assert opponent["user_id"] != mallory_id
    assert opponent["username"].lower().startswith("computer-7")
    # Mallory cannot read the private practice game, and the computer (not Mallory) answers Alice.
    peek = client.get(f"/api/v1/games/{gid}", headers=mallory)
    assert peek.status_code == 403, peek.text
    alice.ok(f"/api/v1/games/{gid}/moves", {"move": "C3"})
    settle(client)
    moves = [m["move"] for m in alice.get(f"/api/v1/games/{gid}").json()["moves"]]
    assert moves == ["C3", "E5"]


def test_a_persons_settings_never_make_them_a_computer(client: TestClient) -> None:
    """A `bot_level` in a person's settings (however it got there) is not honoured: they confirm for
    themselves and the server never moves for them."""
    mallory_id = add_user(client, "mallory", settings={"bot_level": 3})
    mallory = token_for(client, mallory_id)
    alice = register(client, "alice")
    gid = alice.ok("/api/v1/games", {"size": 9, "team": 1})["id"]
    joined = client.post(f"/api/v1/games/{gid}/join", json={"team": 2}, headers=mallory)
    assert joined.status_code == 200, joined.text
    players = alice.get(f"/api/v1/games/{gid}").json()["players"]
    assert [(p["username"], p["computer"], p["confirmed"]) for p in players] == [
        ("alice", None, False),
        ("mallory", None, False),
    ]


def test_computer_accounts_are_flagged_and_cannot_log_in_or_use_tokens(client: TestClient) -> None:
    alice = register(client, "alice")
    alice.ok("/api/v1/practice", {"size": 9, "colour": "black", "level": 2})

    async def arm_the_bot(db: Any) -> tuple[int, bool]:
        bot = (await db.execute(select(User).where(User.username == "computer-2"))).scalar_one()
        bot.password_hash = hash_password("correct horse")  # even with a password somebody knows
        return bot.id, bot.is_bot

    bot_id, flagged = run(client, arm_the_bot)
    assert flagged
    bot_token = token_for(client, bot_id)
    login = client.post("/api/v1/session", json={"username": "computer-2", "password": "correct horse"})
    assert login.status_code == 401, login.text
    assert "miai_session" not in login.cookies
    me = client.get("/api/v1/me", headers=bot_token)
    assert me.status_code == 401, me.text


# ------------------------------------------------------------------------------- administrators


def test_a_name_in_miai_admins_grants_nothing(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MIAI_ADMINS", "root")
    monkeypatch.setenv("MIAI_DATABASE_URL", database_url)
    monkeypatch.setenv("MIAI_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("MIAI_ARGON2_TIME_COST", "1")
    monkeypatch.setenv("MIAI_ARGON2_MEMORY_KIB", "1024")
    with TestClient(create_app(Settings.from_env(), background=False, chooser=centre_first)) as client:
        root = register(client, "root")
        me = root.get("/api/v1/me").json()["user"]
        assert me["is_admin"] is False
        assert root.get("/api/v1/admin/flags").status_code == 403


def test_the_stored_role_makes_an_administrator(client: TestClient) -> None:
    ada = register(client, "ada")
    assert ada.get("/api/v1/admin/flags").status_code == 403

    async def grant(db: Any) -> None:
        user = await db.get(User, ada.user_id)
        user.is_admin = True

    run(client, grant)
    assert ada.get("/api/v1/me").json()["user"]["is_admin"] is True
    assert ada.get("/api/v1/admin/flags").status_code == 200


# ------------------------------------------------------------------------------- migration 0006


def test_migration_flags_the_existing_computer_accounts(empty_database_url: str) -> None:
    async def scenario() -> dict[str, bool]:
        engine = make_engine(empty_database_url)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(lambda c: upgrade_to(c, "0005"))
                users = sa.table(
                    "users",
                    sa.column("username", sa.String()),
                    sa.column("password_hash", sa.String()),
                    sa.column("is_admin", sa.Boolean()),
                    sa.column("settings", sa.JSON()),
                    sa.column("created_at", sa.DateTime(timezone=True)),
                )
                common = {"password_hash": "!", "is_admin": False, "created_at": datetime.now(UTC)}
                await connection.execute(
                    sa.insert(users),
                    [
                        {**common, "username": "computer-3", "settings": {"bot_level": 3}},
                        {**common, "username": "computer-gnugo", "settings": {"bot_level": "gnugo"}},
                        {**common, "username": "Computer-9", "settings": {"palette": "classic"}},  # a person
                        {**common, "username": "alice", "settings": {}},
                    ],
                )
            async with engine.begin() as connection:
                await connection.run_sync(_upgrade)
                rows = await connection.execute(sa.text("SELECT username, is_bot FROM users"))
                return {name: bool(flag) for name, flag in rows}
        finally:
            await engine.dispose()

    flags = asyncio.run(scenario())
    assert flags == {"computer-3": True, "computer-gnugo": True, "Computer-9": False, "alice": False}




def test_one_name_in_any_case_is_one_account_even_when_registrations_race(client: TestClient) -> None:
    """Names are looked up in any case; they were unique only as typed, so racing registrations made
    `racer` and `RACER` (and an exact twin answered 500)."""
    import concurrent.futures

    names = ["racer", "RACER", "Racer", "rAcEr", "racer", "racer"]

    def sign_up(name: str) -> int:
        body = {"username": name, "password": "correct horse"}
        return int(client.post("/api/v1/accounts", json=body).status_code)

    with concurrent.futures.ThreadPoolExecutor(len(names)) as pool:
        codes = sorted(pool.map(sign_up, names))
    assert codes == [201] + [422] * (len(names) - 1)
