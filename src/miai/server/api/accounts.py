"""Accounts API: register, log in and out, the current user, settings, personal API tokens, password change
and reset, e-mail address verification and the undo of an address change; confirming the password again for
account changes (sudo: identity/sudo.py)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field

from miai.server.api.cookies import COOKIE, session_token, set_session_cookie
from miai.server.api.deps import (
    DB,
    CurrentViewer,
    FreshUser,
    MaybeViewer,
    SessionViewer,
    Viewer,
    check_csrf,
    member_viewer,
    require_sudo,
    resolve_viewer,
    sudo_viewer,
)
from miai.server.api.inputs import Id, Line
from miai.server.api.login_limits import LoginAttempt
from miai.server.api.rate_limits import per_address
from miai.server.api.views import user_view
from miai.server.errors import GuestsMayNot, RateLimited
from miai.server.identity import mailed_links
from miai.server.identity.accounts import create_user, normalised_email
from miai.server.identity.bots import is_computer
from miai.server.identity.guests import GuestGone, claim
from miai.server.identity.passwords import check_password, hash_password, validate_password
from miai.server.identity.sudo import sudo_until
from miai.server.identity.tokens import new_api_token, new_session, token_hash
from miai.server.notify.mailer import Mailer
from miai.server.realtime.revocation import revoke
from miai.server.storage import accounts, repo
from miai.server.storage.models import User

router = APIRouter(tags=["accounts"])

# One line of printable text each (no NUL, lone surrogate or control character); a password may hold any
# such characters, spaces included.
Username = Annotated[Line, Field(min_length=1, max_length=64)]
Password = Annotated[Line, Field(min_length=1, max_length=256)]
Email = Annotated[Line, Field(max_length=254)]
TokenName = Annotated[Line, Field(min_length=1, max_length=64)]
LinkToken = Annotated[Line, Field(min_length=1, max_length=128, description="the token of a mailed link")]


class Credentials(BaseModel):
    username: Username
    password: Password


class Registration(Credentials):
    email: Email | None = Field(default=None, description="a verification link is mailed to it")


class SettingsPatch(BaseModel):
    email: Email | None = Field(default=None, description="'' removes it; a new address must be verified")
    email_notifications: bool | None = None
    palette: Literal["classic", "okabe-ito", "tol-bright", "tol-muted", "high-contrast"] | None = None
    one_click: bool | None = None
    coordinates: bool | None = None
    sound: bool | None = Field(default=None, description="game page sounds: move click, low-time beep")
    stone_marks: bool | None = Field(default=None, description="team shapes on two-colour games' stones")


class TokenRequest(BaseModel):
    name: TokenName


class PasswordChange(BaseModel):
    current_password: Password
    new_password: Password = Field(description="8-256 characters")


class ResetRequest(BaseModel):
    login: Annotated[Line, Field(min_length=1, max_length=254, description="a username or e-mail address")]


class ResetConfirm(BaseModel):
    token: LinkToken
    password: Password = Field(description="the new password, 8-256 characters")


class VerifyEmail(BaseModel):
    token: LinkToken


class UndoAddressChange(BaseModel):
    token: LinkToken


class SudoRequest(BaseModel):
    password: Password


BAD_LINK = {"error": "bad_token", "message": "this link is unknown, expired or already used"}


def me_view(request: Request, user: User) -> dict[str, Any]:
    return user_view(user, private=True)


def _now(request: Request) -> datetime:
    return request.app.state.games.stream.now()  # type: ignore[no-any-return]


def mailer_of(request: Request) -> Mailer:
    return request.app.state.mailer  # type: ignore[no-any-return]


async def _close_sockets(request: Request, user_id: int, ended_sessions: list[str]) -> None:
    """After the commit: the websockets opened with the ended sessions or tokens close too (every process)."""
    for credential in ended_sessions:
        await revoke(request.app.state.hub, user_id, credential)


def _login_response(response: Response, request: Request, token: str, csrf: str) -> None:
    set_session_cookie(response, request, token)


async def _guest_of(request: Request, db: DB) -> Viewer | None:
    """The guest session a registration comes with, if any (its games are claimed; CSRF as for any write)."""
    viewer = await resolve_viewer(db, request)
    if viewer is None or not viewer.user.is_guest or not viewer.via_cookie:
        return None  # a member's session stays as it was: registering does not touch it
    check_csrf(request, viewer)
    return viewer


@router.post("/accounts", status_code=201, dependencies=[per_address("register")])
async def register(body: Registration, request: Request, response: Response, db: DB) -> dict[str, Any]:
    guest = await _guest_of(request, db)
    ended: list[str] = []
    try:
        if guest is None:
            user = await create_user(db, body.username, body.password, body.email)
        else:  # the same row: the guest's games, moves and settings are the new account's
            await db.commit()  # no transaction stays open while argon2 works (claim hashes first)
            row = await repo.user_by_id(db, guest.user.id)
            if row is None or not row.is_guest:  # expired, or claimed by a concurrent registration
                raise HTTPException(409, {"error": "conflict", "message": "this guest session has ended"})
            user = await claim(db, row, body.username, body.password, body.email, _now(request))
            ended = await accounts.end_sessions(db, user.id)  # the guest session ends with the guest
    except GuestGone:  # a concurrent registration claimed this guest while the password was hashed
        raise HTTPException(409, {"error": "conflict", "message": "this guest session has ended"}) from None
    except ValueError as err:
        await db.rollback()
        raise HTTPException(422, {"error": "bad_input", "message": str(err)}) from None
    with contextlib.suppress(RateLimited):  # the account is made all the same
        await mailed_links.mail_verification(db, mailer_of(request), user)
    token, csrf = await new_session(db, user, request.app.state.settings.session_days, password_checked=True)
    await db.commit()
    if guest is not None:
        await _close_sockets(request, user.id, ended)
    _login_response(response, request, token, csrf)
    LoginAttempt.remember_device(request, response, user.username)  # the browser it was made in is known
    return {"user": me_view(request, user), "csrf_token": csrf}


@router.post("/session")
async def login(body: Credentials, request: Request, response: Response, db: DB) -> dict[str, Any]:
    await LoginAttempt.start(request, body.username)
    user = await repo.user_by_name(db, body.username)
    await db.close()  # hand the connection back: many slow password checks must not hold the pool
    # argon2 is slow on purpose: keep it off the event loop. Computer accounts never log in.
    if (
        user is None
        or is_computer(user)
        or user.is_guest  # no password: a guest is only its session cookie
        or not await asyncio.to_thread(check_password, user.password_hash, body.password)
    ):
        raise HTTPException(401, {"error": "unauthorized", "message": "wrong username or password"})
    LoginAttempt.remember_device(request, response, user.username)
    token, csrf = await new_session(db, user, request.app.state.settings.session_days, password_checked=True)
    await db.commit()
    _login_response(response, request, token, csrf)
    return {"user": me_view(request, user), "csrf_token": csrf}


@router.delete("/session", status_code=204)
async def logout(request: Request, response: Response, viewer: CurrentViewer, db: DB) -> None:
    cookie = session_token(request)
    if cookie:
        await repo.delete_session(db, token_hash(cookie))
        await db.commit()
        await revoke(request.app.state.hub, viewer.user.id, token_hash(cookie))  # its open websockets
    response.delete_cookie(COOKIE, path="/")


@router.post("/session/sudo")
async def enter_sudo(body: SudoRequest, request: Request, viewer: SessionViewer, db: DB) -> dict[str, Any]:
    """Enter the password again: for MIAI_SUDO_MINUTES this login session may change the account (address,
    password, API tokens). A wrong password grants nothing and counts like a login's."""
    await LoginAttempt.for_session(request, viewer.user.id)  # before the check: a 429 over the limit
    user = await repo.user_by_id(db, viewer.user.id)
    stored = user.password_hash if user is not None else ""
    await db.rollback()  # no transaction stays open while argon2 works
    if not await asyncio.to_thread(check_password, stored, body.password):
        raise HTTPException(403, {"error": "wrong_password", "message": "the password is wrong"})
    now = datetime.now(UTC)
    await accounts.mark_password_checked(db, viewer.credential, now)
    await db.commit()
    until = sudo_until(now, request.app.state.settings.sudo_minutes)
    return {"ok": True, "sudo_until": until.isoformat() if until else None}


# Who is asking and their CSRF token: never kept by a shared cache or a CDN, which would hand them to others.
PRIVATE = {"Cache-Control": "no-store", "Vary": "Cookie, Authorization"}


@router.get("/session")
async def current_session(request: Request, response: Response, viewer: MaybeViewer) -> dict[str, Any]:
    """Who this browser is, for the page's start: a visitor is no error (200 with `"user": null`), unlike
    GET /me, which answers 401 for clients that need a login."""
    response.headers.update(PRIVATE)
    if viewer is None:
        return {"user": None, "csrf_token": None}
    return {"user": me_view(request, viewer.user), "csrf_token": viewer.csrf}


@router.get("/me")
async def me(request: Request, response: Response, viewer: MaybeViewer) -> dict[str, Any]:
    response.headers.update(PRIVATE)
    if viewer is None:
        raise HTTPException(401, {"error": "unauthorized", "message": "not logged in"})
    return {"user": me_view(request, viewer.user), "csrf_token": viewer.csrf}


@router.patch("/me/settings")
async def update_settings(
    body: SettingsPatch, request: Request, viewer: CurrentViewer, user: FreshUser, db: DB
) -> dict[str, Any]:
    """The address is an account change (a session in sudo, never a token); the other settings are not."""
    changes = body.model_dump(exclude_none=True)
    email = changes.pop("email", None)
    if user.is_guest and (email or changes.get("email_notifications")):
        raise GuestsMayNot("guests get no e-mail: register (POST /api/v1/accounts) to give an address")
    if email is not None:
        try:
            new = normalised_email(email) if email else None
        except ValueError as err:
            raise HTTPException(422, {"error": "bad_input", "message": str(err)}) from None
        if new != user.email:
            await _change_address(request, viewer, user, new, db)
    user.settings = {**user.settings, **changes}
    await db.commit()
    return {"user": me_view(request, user)}


async def _change_address(request: Request, viewer: Viewer, user: User, new: str | None, db: DB) -> None:
    """The address receives password resets, so only a session in sudo changes it. A new address is
    unverified until its link is followed; links mailed to the old one stop working, and the old one, if it
    was verified, is told, with a link that undoes the change (when it cannot be told today: 429, and
    nothing changes)."""
    require_sudo(request, viewer)
    old, old_verified = user.email, user.email_verified_at is not None
    user.email, user.email_verified_at = new, None
    now = datetime.now(UTC)
    for purpose in (mailed_links.VERIFY_EMAIL, mailed_links.RESET_PASSWORD):
        await accounts.void_tokens(db, user.id, purpose, now)
    await mailed_links.announce_address_change(db, mailer_of(request), user, old, old_verified)
    with contextlib.suppress(RateLimited):  # saved; the link can be asked for later
        await mailed_links.mail_verification(db, mailer_of(request), user)


@router.post("/me/email/verify", dependencies=[Depends(member_viewer)])
async def verify_email(body: VerifyEmail, request: Request, user: FreshUser, db: DB) -> dict[str, Any]:
    """Follow the link mailed to the address: from now on Miai may send game mail there."""
    if not await mailed_links.verify_email(db, user, body.token):
        await db.commit()  # a link for a replaced address is used up all the same
        raise HTTPException(400, BAD_LINK)
    await db.commit()
    return {"user": me_view(request, user)}


@router.post("/me/email/verification", status_code=202, dependencies=[Depends(member_viewer)])
async def resend_verification(request: Request, user: FreshUser, db: DB) -> dict[str, Any]:
    """Mail a new verification link for the current address (earlier links stop working)."""
    if not user.email:
        raise HTTPException(409, {"error": "conflict", "message": "there is no e-mail address to verify"})
    if user.email_verified_at is not None:
        raise HTTPException(409, {"error": "conflict", "message": "the e-mail address is already verified"})
    if not await mailed_links.mail_verification(db, mailer_of(request), user):  # RateLimited: a 429
        raise HTTPException(409, {"error": "conflict", "message": "this server sends no e-mail"})
    await db.commit()
    return {"ok": True}


@router.post("/me/password")
async def change_password(
    body: PasswordChange, request: Request, viewer: SessionViewer, user: FreshUser, db: DB
) -> dict[str, Any]:
    """A new password; every other login session of the user ends (this one stays). API tokens stay. Never
    with an API token; the current password is the session's proof (no separate sudo needed)."""
    try:
        validate_password(body.new_password)
    except ValueError as err:
        message = "new_" + str(err)
        raise HTTPException(422, {"error": "bad_input", "message": message}) from None
    # A guessing oracle for whoever holds a session: limited like failed logins.
    await LoginAttempt.for_session(request, user.id)
    if not await asyncio.to_thread(check_password, user.password_hash, body.current_password):
        raise HTTPException(403, {"error": "wrong_password", "message": "the current password is wrong"})
    user.password_hash = await asyncio.to_thread(hash_password, body.new_password)
    ended = await accounts.end_sessions(db, user.id, keep=viewer.credential)
    now = datetime.now(UTC)
    await accounts.void_tokens(db, user.id, mailed_links.RESET_PASSWORD, now)
    await accounts.mark_password_checked(db, viewer.credential, now)  # it was just checked
    await db.commit()
    await _close_sockets(request, user.id, ended)
    return {"ok": True, "sessions_ended": len(ended)}


@router.post("/password-reset", status_code=202, dependencies=[per_address("password_reset")])
async def request_password_reset(body: ResetRequest, request: Request, db: DB) -> dict[str, Any]:
    """Mail a reset link (valid one hour, once) to the verified address of the account named by username or
    address. The answer is the same whether or not such an account exists."""
    for user in await accounts.users_for_reset(db, body.login):
        await mailed_links.mail_password_reset(db, mailer_of(request), user)
    await db.commit()
    return {
        "ok": True,
        "message": "if an account with a verified e-mail address matches, a link is on its way",
    }


@router.post("/password-reset/confirm")
async def confirm_password_reset(body: ResetConfirm, request: Request, db: DB) -> dict[str, Any]:
    """Set a new password with a mailed reset link; every login session and API token of the user ends."""
    try:
        validate_password(body.password)  # before the token is used up: a too-short password can be retried
    except ValueError as err:
        raise HTTPException(422, {"error": "bad_input", "message": str(err)}) from None
    if not await mailed_links.reset_is_usable(db, body.token):
        raise HTTPException(400, BAD_LINK)
    await db.rollback()  # no transaction stays open while argon2 works
    password_hash = await asyncio.to_thread(hash_password, body.password)
    user_id = await mailed_links.redeem_reset(db, body.token)  # a racing use of the same link loses here
    user = await repo.user_by_id(db, user_id) if user_id is not None else None
    if user is None or user.is_bot:
        await db.rollback()
        raise HTTPException(400, BAD_LINK)
    user.password_hash = password_hash
    # A reset is how a taken-over account is won back: every way in that the taker may hold ends with it.
    ended = await accounts.end_sessions(db, user.id)
    tokens = await accounts.delete_api_tokens(db, user.id)
    await accounts.void_tokens(db, user.id, mailed_links.RESET_PASSWORD, datetime.now(UTC))
    await db.commit()
    await _close_sockets(request, user.id, [*ended, *tokens])
    return {"ok": True, "sessions_ended": len(ended), "tokens_deleted": len(tokens)}


@router.post("/email-change/undo")
async def undo_email_change(body: UndoAddressChange, request: Request, db: DB) -> dict[str, Any]:
    """Follow the link mailed to a replaced address: it is the account's address again (verified), and
    every login session and API token of the account ends, as after a password reset. No login needed: the
    owner may have been locked out."""
    user = await mailed_links.undo_address_change(db, body.token)
    if user is None:
        await db.rollback()
        raise HTTPException(400, BAD_LINK)
    ended = await accounts.end_sessions(db, user.id)
    tokens = await accounts.delete_api_tokens(db, user.id)
    await db.commit()
    await _close_sockets(request, user.id, [*ended, *tokens])
    return {"ok": True, "email": user.email, "sessions_ended": len(ended), "tokens_deleted": len(tokens)}


@router.get("/me/tokens", dependencies=[Depends(member_viewer)])
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


@router.post("/me/tokens", status_code=201, dependencies=[Depends(sudo_viewer)])
async def create_token(body: TokenRequest, user: FreshUser, db: DB) -> dict[str, Any]:
    try:
        record, token = await new_api_token(db, user, body.name)
    except ValueError as err:
        raise HTTPException(422, {"error": "bad_input", "message": str(err)}) from None
    await db.commit()
    return {"id": record.id, "name": record.name, "token": token}


@router.delete("/me/tokens/{token_id}", status_code=204)
async def delete_token(token_id: Id, request: Request, viewer: SessionViewer, db: DB) -> None:
    """From a login session (a token cannot delete tokens); no sudo: deleting only takes a way in away."""
    tokens = await repo.tokens_of(db, viewer.user.id)
    record = next((t for t in tokens if t.id == token_id), None)
    if record is None:
        raise HTTPException(404, {"error": "not_found", "message": "no such token"})
    await db.delete(record)
    await db.commit()
    await revoke(request.app.state.hub, viewer.user.id, record.token_hash)  # its open websockets


# GET /users/{username}, the public profile: api/finding.py
