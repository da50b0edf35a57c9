"""Two sign-ups sent at once from one guest session (a double click, two tabs): one account is made of the
guest, the other registration is refused with 409, and the account keeps the name it was registered with
(the second must not rename the row the first has just claimed). SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from miai.server.identity import guests
from miai.server.identity.passwords import hash_password
from tests.server.test_guests import Visitor, client  # noqa: F401  (the fixture)


def test_two_sign_ups_from_one_guest_make_one_account(
    client: TestClient,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    visitor = Visitor(client)
    game = visitor.practice(mode="local")
    guest_id = visitor.get("/api/v1/me").json()["user"]["id"]
    both_hashing = threading.Barrier(2, timeout=20)

    def slow_hash(password: str) -> str:
        both_hashing.wait()  # both registrations have read the guest row before either writes
        return hash_password(password)

    monkeypatch.setattr(guests, "hash_password", slow_hash)
    cookie = "; ".join(f"{c.name}={c.value}" for c in visitor.cookies)
    headers = {"Cookie": cookie, "X-CSRF-Token": visitor.csrf}
    client.cookies.clear()

    def sign_up(name: str) -> Any:
        body = {"username": name, "password": "correct horse", "email": None}
        return client.post("/api/v1/accounts", json=body, headers=headers)

    with ThreadPoolExecutor(2) as pool:
        answers = dict(zip(("ada", "bea"), pool.map(sign_up, ("ada", "bea")), strict=True))
    client.cookies.clear()
    codes = sorted(a.status_code for a in answers.values())
    assert codes == [201, 409], {n: a.text for n, a in answers.items()}
    winner = next(n for n, a in answers.items() if a.status_code == 201)
    loser = next(n for n, a in answers.items() if a.status_code == 409)
    assert answers[winner].json()["user"]["id"] == guest_id
    assert "guest session has ended" in answers[loser].json()["message"]
    profile = client.get(f"/api/v1/users/{winner}")
    assert profile.status_code == 200 and profile.json()["user"]["id"] == guest_id
    assert client.get(f"/api/v1/users/{loser}").status_code == 404
    login = client.post("/api/v1/session", json={"username": winner, "password": "correct horse"})
    assert login.status_code == 200, login.text
    players = client.get(f"/api/v1/games/{game}").json()["players"]  # a practice game: its player's only
    client.cookies.clear()
    assert {p["username"] for p in players} == {winner}
