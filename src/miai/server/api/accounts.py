"""Accounts API: register, log in and out, the current user, settings and personal API tokens."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field

from miai.server.api.deps import COOKIE, DB, CurrentViewer, MaybeViewer
from miai.server.auth import (
    EMAIL,
    PALETTES,
    check_password,
    create_user,
    new_api_token,
    new_session,
    token_hash,
)
from miai.server.storage import repo
from miai.server.storage.models import User

router = APIRouter(tags=["accounts"])


class Credentials(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class Registration(Credentials):
    email: str | None = Field(default=None, max_length=254)


class SettingsPatch(BaseModel):
    email: str | None = Field(default=None, max_length=254)
    email_notifications: bool | None = None
    palette: Literal["classic", "okabe-ito", "tol-bright", "tol-muted", "high-contrast"] | None = None
    one_click: bool | None = None
    coordinates: bool | None = None


class TokenRequest(BaseModel):
    name: str = Field(min_length=1, max_length=64)


def user_view(user: User, private: bool = False) -> dict[str, Any]:
    view: dict[str, Any] = {"id": user.id, "username": user.username}
    if private:
        view.update(email=user.email, settings=user.settings, is_admin=user.is_admin, palettes=list(PALETTES))
    return view


def me_view(request: Request, user: User) -> dict[str, Any]:
    view = user_view(user, private=True)
    view["is_admin"] = user.is_admin or user.username.lower() in request.app.state.settings.admins
    return view


def _login_response(response: Response, request: Request, token: str, csrf: str) -> None:
    settings = request.app.state.settings
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
        max_age=settings.session_days * 86400,
        path="/",
    )


@router.post("/accounts", status_code=201)
async def register(body: Registration, request: Request, response: Response, db: DB) -> dict[str, Any]:
    try:
        user = await create_user(db, body.username, body.password, body.email)
    except ValueError as err:
        raise HTTPException(422, {"error": "bad_input", "message": str(err)}) from None
    token, csrf = await new_session(db, user, request.app.state.settings.session_days)
    await db.commit()
    _login_response(response, request, token, csrf)
    return {"user": me_view(request, user), "csrf_token": csrf}


@router.post("/session")
async def login(body: Credentials, request: Request, response: Response, db: DB) -> dict[str, Any]:
    limiter = request.app.state.login_limiter
    client = request.client.host if request.client else "unknown"
    if not (limiter.allow(f"ip:{client}") and limiter.allow(f"user:{body.username.lower()}")):
        raise HTTPException(
            429, {"error": "rate_limited", "message": "too many login attempts; wait a minute"}
        )
    user = await repo.user_by_name(db, body.username)
    # argon2 is slow on purpose: keep it off the event loop
    if user is None or not await asyncio.to_thread(check_password, user.password_hash, body.password):
        raise HTTPException(401, {"error": "unauthorized", "message": "wrong username or password"})
    token, csrf = await new_session(db, user, request.app.state.settings.session_days)
    await db.commit()
    _login_response(response, request, token, csrf)
    return {"user": me_view(request, user), "csrf_token": csrf}


@router.delete("/session", status_code=204)
async def logout(request: Request, response: Response, viewer: CurrentViewer, db: DB) -> None:
    cookie = request.cookies.get(COOKIE)
    if cookie:
        await repo.delete_session(db, token_hash(cookie))
        await db.commit()
    response.delete_cookie(COOKIE, path="/")


@router.get("/me")
async def me(request: Request, viewer: MaybeViewer) -> dict[str, Any]:
    if viewer is None:
        raise HTTPException(401, {"error": "unauthorized", "message": "not logged in"})
    return {"user": me_view(request, viewer.user), "csrf_token": viewer.csrf}


@router.patch("/me/settings")
async def update_settings(
    body: SettingsPatch, request: Request, viewer: CurrentViewer, db: DB
) -> dict[str, Any]:
    user = await repo.user_by_id(db, viewer.user.id)
    assert user is not None
    changes = body.model_dump(exclude_none=True)
    email = changes.pop("email", None)
    if email is not None:
        if email and not EMAIL.match(email):
            raise HTTPException(422, {"error": "bad_input", "message": "email: not an e-mail address"})
        user.email = email or None
    user.settings = {**user.settings, **changes}
    await db.commit()
    return {"user": me_view(request, user)}


@router.get("/me/tokens")
async def list_tokens(viewer: CurrentViewer, db: DB) -> dict[str, Any]:
    tokens = await repo.tokens_of(db, viewer.user.id)
    return {
        "tokens": [
            {
                "id": t.id,
                "name": t.name,
                "created_at": t.created_at.isoformat(),
                "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
            }
            for t in tokens
        ]
    }


@router.post("/me/tokens", status_code=201)
async def create_token(body: TokenRequest, viewer: CurrentViewer, db: DB) -> dict[str, Any]:
    user = await repo.user_by_id(db, viewer.user.id)
    assert user is not None
    try:
        record, token = await new_api_token(db, user, body.name)
    except ValueError as err:
        raise HTTPException(422, {"error": "bad_input", "message": str(err)}) from None
    await db.commit()
    return {"id": record.id, "name": record.name, "token": token}


@router.delete("/me/tokens/{token_id}", status_code=204)
async def delete_token(token_id: int, viewer: CurrentViewer, db: DB) -> None:
    tokens = await repo.tokens_of(db, viewer.user.id)
    record = next((t for t in tokens if t.id == token_id), None)
    if record is None:
        raise HTTPException(404, {"error": "not_found", "message": "no such token"})
    await db.delete(record)
    await db.commit()


@router.get("/users/{username}")
async def public_profile(username: str, db: DB) -> dict[str, Any]:
    user = await repo.user_by_name(db, username)
    if user is None:
        raise HTTPException(404, {"error": "not_found", "message": f"no user {username!r}"})
    return {"user": user_view(user)}
