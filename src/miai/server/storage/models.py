"""Database tables (SQLAlchemy 2). Only repository modules in this package speak SQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        list[Any]: JSON,
        datetime: DateTime(timezone=True),
    }


class User(Base):
    __tablename__ = "users"
    # Names are looked up in any case, so they are unique in any case too.
    __table_args__ = (
        Index("ux_users_username_lower", func.lower(text("username")), unique=True),
        # the expiry sweep: guests only (partial), by when they were last seen
        Index(
            "ix_users_guest_active",
            "last_active_at",
            postgresql_where=text("is_guest"),
            sqlite_where=text("is_guest"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    email: Mapped[str | None] = mapped_column(String(254), default=None)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)  # granted by `miai admin grant`
    # computer and engine players: never a person, never logged into; names do not decide this
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    email_verified_at: Mapped[datetime | None] = mapped_column(default=None)  # of the current `email`
    # a visitor playing without an account (identity/guests.py): no password, no e-mail, practice games only
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    last_active_at: Mapped[datetime | None] = mapped_column(default=None)  # guests: expiry after inactivity
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime]


class Session(Base):
    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    # when this session last proved its password (a login, or re-entered for account changes:
    # identity/sudo.py); None for a guest's session
    password_checked_at: Mapped[datetime | None] = mapped_column(default=None)


class AccountToken(Base):
    """A single-use link token mailed to a user (password reset, e-mail verification); its hash only."""

    __tablename__ = "account_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))  # reset_password | verify_email | restore_email
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # the address a verification is for, or the one an undo link of an address change restores
    email: Mapped[str | None] = mapped_column(String(254), default=None)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None] = mapped_column(default=None)


class ApiToken(Base):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        # the archive, newest first (and its date range); the watch list, newest first (finding/queries.py)
        Index(
            "ix_games_finished",
            "finished_at",
            "id",
            postgresql_where=text("status = 'finished'"),
            sqlite_where=text("status = 'finished'"),
        ),
        Index(
            "ix_games_live",
            "id",
            postgresql_where=text("status = 'active'"),
            sqlite_where=text("status = 'active'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), default="go")
    status: Mapped[str] = mapped_column(
        String(16), index=True
    )  # waiting confirming active finished cancelled
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime]
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # everything the creator chose, validated
    visibility: Mapped[str] = mapped_column(String(8), default="public")
    invite_code: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    challenge_to: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    match_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    plies: Mapped[int] = mapped_column(Integer, default=0)
    deadline_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    turn_started_at: Mapped[datetime | None] = mapped_column(default=None)
    clocks: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    to_move: Mapped[dict[str, Any]] = mapped_column(
        JSON, default=dict
    )  # {"team": t, "seat": s, "user_id": u}
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    draw_offers: Mapped[list[Any]] = mapped_column(JSON, default=list)  # teams that accept an agreed draw
    result_history: Mapped[list[Any]] = mapped_column(JSON, default=list)  # earlier results, on corrections
    redo: Mapped[list[Any]] = mapped_column(JSON, default=list)  # practice games: moves taken back by undo
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    # the board as play/preview.py writes it, kept with every move: the live list's thumbnails read no moves
    preview: Mapped[str | None] = mapped_column(Text, default=None)


class GamePlayer(Base):
    __tablename__ = "game_players"
    # (user_id, game_id): a player's games are read from the index alone
    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        Index("ix_game_players_user_game", "user_id", "game_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    team: Mapped[int | None] = mapped_column(Integer, default=None)  # None: to be assigned at random
    seat: Mapped[int | None] = mapped_column(Integer, default=None)  # join order inside the team
    joined_seq: Mapped[int] = mapped_column(Integer)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(String(12), default="active")  # active resigned timed_out


class GameMove(Base):
    """One event of the game record; the unique (game, ply) makes a double-accepted move impossible."""

    __tablename__ = "game_moves"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    # no index of its own: the unique (game_id, ...) index serves lookups by game
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    ply: Mapped[int] = mapped_column(Integer)
    team: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    move: Mapped[str] = mapped_column(String(32))  # canonical text: D4, pass, resign, timeout, autopass
    created_at: Mapped[datetime]
    # The mover's team clock after the move, as the server computed it ({"main", "periods"} of games.clocks):
    # the time left in the SGF record. None for moves that charge no clock and games without one.
    clock_main: Mapped[float | None] = mapped_column(Double, default=None)
    clock_periods: Mapped[int | None] = mapped_column(Integer, default=None)


class GameEvent(Base):
    """Versioned events for realtime clients; `audience` limits who may see private ones."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "v"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    # no index of its own: the unique (game_id, ...) index serves lookups by game
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    v: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    audience: Mapped[str] = mapped_column(String(64), default="all")  # who may read it: play/privacy.py
    created_at: Mapped[datetime]


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    channel: Mapped[str] = mapped_column(String(64))  # as posted: public | team | team:N | user:ID
    audience: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]


class OutboxMail(Base):
    """E-mail waiting to be sent; `dedupe_key` makes sure one notification is stored once.

    Pending: neither `sent_at` nor `failed_at`. A failed attempt sets `next_attempt_at` (back-off) and, the
    first time, `give_up_at`; an attempt failing after that is the last one (`failed_at`), see
    notify/outbox.py.
    """

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dedupe_key: Mapped[str] = mapped_column(String(128), unique=True)
    kind: Mapped[str] = mapped_column(String(16), default="", server_default="")  # turn, challenge, ...
    sender_id: Mapped[int | None] = mapped_column(Integer, default=None, index=True)  # who caused it
    to_address: Mapped[str] = mapped_column(String(254), index=True)
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    claimed_until: Mapped[datetime | None] = mapped_column(default=None)  # a sender's lease on this mail
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)
    next_attempt_at: Mapped[datetime | None] = mapped_column(default=None)  # None: at once
    give_up_at: Mapped[datetime | None] = mapped_column(default=None)
    failed_at: Mapped[datetime | None] = mapped_column(default=None)


class ScoreFlag(Base):
    """A player's report that a finished game was scored wrongly, and how an administrator resolved it."""

    __tablename__ = "score_flags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    comment: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    resolved_at: Mapped[datetime | None] = mapped_column(default=None)
    resolution: Mapped[str | None] = mapped_column(Text, default=None)


class Review(Base):
    """The engine's review of a finished game at one depth (quick or deep), computed once as an engine job
    and shared by everyone who may see the game (storage/reviews.py). `result` holds the positions done so
    far, then the swings."""

    __tablename__ = "reviews"
    __table_args__ = (
        UniqueConstraint("game_id", "depth"),
        Index("ix_reviews_status", "status", "updated_at"),  # unfinished reviews to resume
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    depth: Mapped[str] = mapped_column(String(8))  # quick | deep
    status: Mapped[str] = mapped_column(String(8))  # pending | running | done | failed
    done: Mapped[int] = mapped_column(Integer, default=0)  # positions evaluated
    total: Mapped[int] = mapped_column(Integer)  # positions of the game (its moves + 1)
    result: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    requested_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None
    )
    # The token of the runner that claimed it (reviewing.py): only that runner's saves change the row.
    lease: Mapped[str | None] = mapped_column(String(32), default=None)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]  # a running review's heartbeat


class SeatRemoval(Base):
    """A player the server took out of a game before its start (so far only for not confirming in time),
    kept so that the game page and their dashboard can say why the game is gone from their list."""

    __tablename__ = "seat_removals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(16))  # unconfirmed
    window_seconds: Mapped[float | None] = mapped_column(Double, default=None)  # the confirmation window
    created_at: Mapped[datetime]


class UserRating(Base):
    """A user's current rating of one kind key (server/ratings/kind_keys.py), rebuilt from `rating_history`
    by `miai ratings recompute`. Glicko-2: rating, RD, volatility; OpenSkill: mu, sigma."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("user_id", "kind_key"),
        Index("ix_ratings_kind_key_rating", "kind_key", "rating"),  # leaderboards
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind_key: Mapped[str] = mapped_column(String(24))
    system: Mapped[str] = mapped_column(String(12))  # glicko2 | openskill
    rating: Mapped[float] = mapped_column(Double)
    deviation: Mapped[float] = mapped_column(Double)
    volatility: Mapped[float | None] = mapped_column(Double, default=None)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime]


class RatingChange(Base):
    """One player's rating before and after one rated game: the profile's graph, and what a recompute
    replays (in `finished_at`, then game order)."""

    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id"),
        Index("ix_rating_history_user", "user_id", "kind_key", "finished_at"),
        Index("ix_rating_history_kind_key", "kind_key", "finished_at", "game_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind_key: Mapped[str] = mapped_column(String(24))
    team: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime]
    rating_before: Mapped[float] = mapped_column(Double)
    deviation_before: Mapped[float] = mapped_column(Double)
    volatility_before: Mapped[float | None] = mapped_column(Double, default=None)
    rating_after: Mapped[float] = mapped_column(Double)
    deviation_after: Mapped[float] = mapped_column(Double)
    volatility_after: Mapped[float | None] = mapped_column(Double, default=None)


class UnratedGame(Base):
    """A game created rated whose result moved no rating, and why (server/ratings/eligibility.py): the game
    page says so, and `miai ratings recompute` checks the `moves` and `pair` rules of these games again."""

    __tablename__ = "unrated_games"
    __table_args__ = (Index("ix_unrated_games_kind_key", "kind_key", "rule"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    kind_key: Mapped[str] = mapped_column(String(24))
    rule: Mapped[str] = mapped_column(String(8))  # setup | moves | pair
    reason: Mapped[str] = mapped_column(String(200))
    decided_at: Mapped[datetime]


class Notification(Base):
    """An in-page notification for a member (storage/notifications.py): your turn, a challenge, a result.
    Kept per user up to a cap, newest first; a user's unread "your turn" is one per game."""

    __tablename__ = "notifications"
    __table_args__ = (
        Index("ix_notifications_user", "user_id", "id"),  # a user's list, unread count and cap
        Index("ix_notifications_game", "game_id", "kind"),  # the game's earlier "your turn"
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # turn | challenge | finished
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), default=None)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime]
    read_at: Mapped[datetime | None] = mapped_column(default=None)


class UploadedRecord(Base):
    """The SGF record a member uploaded as a read-only game (play/uploads.py): the whole tree, variations
    included. The game's own rows hold the main line (its moves), its options (mode `record`, with the
    record's player names, which are text, not accounts) and the uploader (its one player, of no team)."""

    __tablename__ = "uploaded_records"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    sgf: Mapped[str] = mapped_column(Text)
    nodes: Mapped[list[Any]] = mapped_column(JSON)  # the tree's moves for the review (play/uploads.py)
    created_at: Mapped[datetime]
