"""Game commands: one serialised command stream per game.

Every command runs under the game's lock (in this process) and inside one database transaction that moves
the game from its current version to the next with an optimistic check (across processes). A move is
applied with the rules core, stored, and only then acknowledged and published as versioned events.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from miai.core.clock import TeamClock
from miai.core.errors import IllegalMove
from miai.core.go import TIMEOUT, DeadStones, GoState
from miai.core.go.vertex import parse_point
from miai.server.play.errors import (
    BadInput,
    Conflict,
    Forbidden,
    IllegalMoveError,
    NotFound,
    Stale,
)
from miai.server.play.group import GroupWriter
from miai.server.play.kinds import Table, table_of
from miai.server.play.notifications import Mailer
from miai.server.play.options import GoOptions, KindOptions, TableOptions, load_options
from miai.server.play.views import final_result
from miai.server.realtime.hub import Hub, Message
from miai.server.storage import repo
from miai.server.storage.models import Game, GameEvent, GamePlayer, ScoreFlag, User

Clock = Callable[[], datetime]


class RecordMoved(RuntimeError):
    """The stored moves no longer match the game row read before them: read the row again."""


def system_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Live:
    """The rules state of a game at a version, cached in memory and rebuilt from the stored moves."""

    version: int
    state: Any  # the core state of the game's kind (a GoState for Go)
    seats: dict[tuple[int, int], int]  # (team from 1, seat) -> user id
    table: Table  # the game's kind and options
    bots: dict[int, int | str] = field(default_factory=dict)  # computer players: user id -> level

    def on_move(self) -> int | None:
        """The user on move, None when nobody is (the game is over, or a seat is empty)."""
        turn = self.table.turn(self.state)
        return None if turn is None else self.seats.get(turn)


@dataclass
class Tx:
    db: AsyncSession
    game: Game
    version: int
    events: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)  # (type, data, audience)
    notices: list[Message] = field(default_factory=list)  # lobby / dashboard pings, no version
    changes: dict[str, Any] = field(default_factory=dict)
    new_live: Live | None = None  # the rules state after this command; cached only once it is stored
    moves: list[dict[str, Any]] = field(default_factory=list)  # game_moves rows to store

    def event(self, t: str, d: dict[str, Any], audience: str = "all") -> None:
        self.events.append((t, d, audience))


class GameService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        hub: Hub,
        mailer: Mailer,
        confirm_window: float = 300,
        now: Clock = system_now,
    ) -> None:
        self.sessions = sessions
        self.hub = hub
        self.mailer = mailer
        self.confirm_window = confirm_window
        self.now = now
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._cache: dict[int, Live] = {}
        self._group = GroupWriter(sessions)
        self._finishing: set[asyncio.Task[None]] = set()
        hub.observe(self._seen)
        self._random = random.Random(secrets.randbits(64))

    # ------------------------------------------------------------------------- the command stream

    @contextlib.asynccontextmanager
    async def command(self, game_id: int, expected: int | None = None) -> AsyncIterator[Tx]:
        """Lock the game, take the writer's turn, and once the command's writes are committed (with the
        rest of their group, see `group.py`) bring the caches up to date and publish its events."""
        async with self._locks[game_id]:
            async with self._group.turn() as db:
                game = await self._group.game(db, game_id)
                if game is not None and expected is not None and expected > game.version:
                    game = await self._group.fresh_game(db, game_id)  # the client saw a newer version
                if game is None:
                    raise NotFound(f"there is no game {game_id}")
                if expected is not None and expected != game.version:
                    raise Stale(
                        f"the game has moved on (version {game.version}, you sent {expected})",
                        version=game.version,
                    )
                tx = Tx(db, game, game.version)
                try:
                    yield tx
                except BaseException:
                    # Refused, perhaps against a row another process has moved on, or undone (see
                    # GroupWriter.turn): read the row again next time.
                    self._group.forget(game_id)
                    raise
                writes = self._writes(tx)
                stored = self._group.add(writes) if writes else None
            if stored is not None and writes is not None:
                try:
                    await asyncio.shield(stored)
                except asyncio.CancelledError:
                    # The caller went away (its websocket closed) while the group was being stored; the
                    # command may well be stored: finish its bookkeeping and publish its events anyway.
                    self._finish_later(stored, tx, writes)
                    raise
                await self._stored(tx, writes)
            for message in tx.notices:
                await self.hub.publish(message)

    def _finish_later(self, stored: asyncio.Future[None], tx: Tx, writes: repo.CommandWrites) -> None:
        async def finish() -> None:
            with contextlib.suppress(Exception):
                await stored
                await self._stored(tx, writes)

        task = asyncio.ensure_future(finish())
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)

    def _seen(self, message: Message) -> None:
        """Every game event, from any process (through Redis): a newer version than the row held here means
        another process moved the game on, so read its row again."""
        if message.v is None or not message.topic.startswith("game:"):
            return
        game_id = int(message.topic.removeprefix("game:"))
        known = self._group.version_of(game_id)
        if known is not None and known < message.v:
            self._group.forget(game_id)

    def _writes(self, tx: Tx) -> repo.CommandWrites | None:
        if not (tx.events or tx.changes):
            return None
        game_id, now = tx.game.id, self.now()
        events = [
            {"game_id": game_id, "v": tx.version + i, "type": t, "data": d, "audience": a, "created_at": now}
            for i, (t, d, a) in enumerate(tx.events, start=1)
        ]
        version = tx.version + max(1, len(tx.events))
        return repo.CommandWrites(game_id, tx.version, {**tx.changes, "version": version}, events, tx.moves)

    async def _stored(self, tx: Tx, writes: repo.CommandWrites) -> None:
        """After the COMMIT: bring the cached game row and rules state up to date, then publish."""
        game_id = writes.game_id
        for key, value in writes.changes.items():
            set_committed_value(tx.game, key, value)
        new_version = writes.changes["version"]
        if tx.new_live is not None:
            tx.new_live.version = new_version
            self._cache[game_id] = tx.new_live
        else:
            live = self._cache.get(game_id)
            if live is not None and live.version == tx.version:
                live.version = new_version
        self.after_commit(game_id, new_version)
        for row in writes.events:
            await self.hub.publish(
                Message(f"game:{game_id}", row["type"], row["data"], row["v"], row["audience"])
            )

    # ------------------------------------------------------------------------- live state

    async def live(self, tx: Tx) -> Live:
        cached = self._cache.get(tx.game.id)
        if cached is not None and cached.version == tx.version:
            return cached
        live = await self._rebuild(tx.db, tx.game)
        self._cache[tx.game.id] = live
        return live

    async def current_state(self, db: AsyncSession, game: Game) -> Any:
        """The rules state of a game as stored at `game.version` (from the cache when it is current)."""
        for attempt in range(3):
            cached = self._cache.get(game.id)
            if cached is not None and cached.version == game.version:
                return cached.state
            try:
                live = await self._rebuild(db, game)
            except RecordMoved:
                if attempt == 2:
                    raise
                await db.refresh(game)  # a command (an undo, say) changed the record after the row was read
                continue
            self._cache[game.id] = live
            return live.state
        raise AssertionError("unreachable")

    async def _rebuild(self, db: AsyncSession, game: Game) -> Live:
        table = table_of(game.kind, game.options)
        state = table.new_state()
        players = await repo.players_of(db, game.id)
        seats = _seat_map(players, table.options, game.created_by)
        for record in await repo.moves_of(db, game.id):
            if record.ply > game.plies:
                break  # stored after this game row was read (a read racing a move): not part of its version
            state = table.replay(state, record.move)
        if state.plies != game.plies:
            raise RecordMoved(f"game {game.id}: the record replays to {state.plies} plies, not {game.plies}")
        return Live(game.version, state, seats, table, await self._bots_of(db, seats))

    async def _bots_of(self, db: AsyncSession, seats: dict[tuple[int, int], int]) -> dict[int, int | str]:
        users = await repo.users_by_ids(db, sorted(set(seats.values())))
        # A level is a number, or the name of an external engine (MIAI_EXTERNAL_ENGINES); only flagged
        # computer accounts have one (a person's settings never make them a computer).
        bots = {uid: u for uid, u in users.items() if u.is_bot}
        return {uid: u.settings["bot_level"] for uid, u in bots.items() if u.settings.get("bot_level")}

    async def close(self) -> None:
        """Wait for the last group of commands to be stored (server shutdown)."""
        await self._group.close()

    def after_commit(self, game_id: int, version: int) -> None:
        """Hook run after every stored command (the computer players start thinking here)."""

    # ------------------------------------------------------------------------- lobby commands

    async def create(
        self,
        user: User,
        options: GoOptions | KindOptions,
        team: int | None = None,
        challenge: User | None = None,
        swap_match: bool = False,
        match_of: int | None = None,
    ) -> int:
        """A new game waiting for players; with `swap_match` (or `match_of`) it is one of a two-game match."""
        options.validate()
        if team is not None and not 1 <= team <= options.teams:
            raise BadInput(f"team must be 1..{options.teams}")
        now = self.now()
        async with self.sessions() as db:
            invite = secrets.token_urlsafe(12) if options.visibility == "private" else None
            match_id = secrets.token_hex(8) if swap_match else None
            if match_of is not None:
                first = await repo.game_for_update(db, match_of)
                match_id = first.match_id if first is not None else None
            game = Game(
                kind=options.kind if isinstance(options, KindOptions) else "go",
                status="waiting",
                created_by=user.id,
                created_at=now,
                options=options.to_json(),
                visibility=options.visibility,
                invite_code=invite,
                challenge_to=challenge.id if challenge else None,
                match_id=match_id,
                clocks={},
                to_move={},
            )
            db.add(game)
            await db.flush()
            db.add(GamePlayer(game_id=game.id, user_id=user.id, team=team, joined_seq=1))
            db.add(
                GameEvent(
                    game_id=game.id,
                    v=1,
                    type="created",
                    data={"by": user.username},
                    audience="all",
                    created_at=now,
                )
            )
            game.version = 1
            if challenge is not None and match_of is None:  # one mail for a match's two games
                await self.mailer.challenge(db, challenge, user, game)
            await db.commit()
            game_id = game.id
        await self.hub.publish(Message("lobby", "lobby", {"game_id": game_id}))
        if challenge is not None:
            await self.hub.publish(Message(f"user:{challenge.id}", "challenge", {"game_id": game_id}))
        return game_id

    async def join(self, user: User, game_id: int, team: int | None, invite: str | None) -> None:
        async with self.command(game_id) as tx:
            game = tx.game
            if game.status != "waiting":
                raise Conflict("the game is not waiting for players")
            if game.challenge_to is not None and game.challenge_to != user.id:
                raise Forbidden("this game is a challenge to another player")
            if game.visibility == "private" and invite != game.invite_code and game.challenge_to != user.id:
                raise Forbidden("this private game needs its invite link")
            options = load_options(game.kind, game.options)
            players = await repo.players_of(tx.db, game_id)
            if any(p.user_id == user.id for p in players):
                raise Conflict("you are already in this game")
            if team is not None:
                if not 1 <= team <= options.teams:
                    raise BadInput(f"team must be 1..{options.teams}")
                if sum(1 for p in players if p.team == team) >= options.players_per_team:
                    raise Conflict(f"team {team} is full")
            player = GamePlayer(
                game_id=game_id,
                user_id=user.id,
                team=team,
                joined_seq=max((p.joined_seq for p in players), default=0) + 1,
            )
            tx.db.add(player)
            players.append(player)
            tx.event("joined", {"user": user.username, "team": team})
            if game.challenge_to is not None:
                tx.changes["challenge_to"] = None
            if len(players) == options.seats:
                self._assign_seats(players, options)
                users = await repo.users_by_ids(tx.db, [p.user_id for p in players])
                for p in players:  # computer players confirm at once
                    if users[p.user_id].is_bot:
                        p.confirmed = True
                deadline = self.now() + timedelta(seconds=self.confirm_window)
                tx.changes.update(status="confirming", deadline_at=deadline)
                tx.event("confirming", {"deadline": deadline.isoformat(), "players": self._roster(players)})
            tx.notices.append(Message("lobby", "lobby", {"game_id": game_id}))

    def _assign_seats(self, players: list[GamePlayer], options: TableOptions) -> None:
        """Players who chose no team go at random to teams with free seats; seats follow join order."""
        free = [
            t
            for t in range(1, options.teams + 1)
            for _ in range(options.players_per_team - sum(1 for p in players if p.team == t))
        ]
        self._random.shuffle(free)
        for player in players:
            if player.team is None:
                player.team = free.pop()
        for t in range(1, options.teams + 1):
            members = sorted((p for p in players if p.team == t), key=lambda p: p.joined_seq)
            for seat, member in enumerate(members):
                member.seat = seat

    @staticmethod
    def _roster(players: list[GamePlayer]) -> list[dict[str, Any]]:
        return [
            {"user_id": p.user_id, "team": p.team, "seat": p.seat, "confirmed": p.confirmed} for p in players
        ]

    async def leave(self, user: User, game_id: int) -> None:
        async with self.command(game_id) as tx:
            if tx.game.status not in {"waiting", "confirming"}:
                raise Conflict("you can only leave a game before it starts; resign instead")
            players = await repo.players_of(tx.db, game_id)
            mine = next((p for p in players if p.user_id == user.id), None)
            if mine is None:
                raise Conflict("you are not in this game")
            await tx.db.delete(mine)
            remaining = [p for p in players if p is not mine]
            if not remaining:
                tx.changes.update(status="cancelled", deadline_at=None)
            else:
                self._back_to_waiting(remaining, tx)
            tx.event("left", {"user": user.username})
            tx.notices.append(Message("lobby", "lobby", {"game_id": game_id}))

    def _back_to_waiting(self, players: list[GamePlayer], tx: Tx) -> None:
        for p in players:
            p.confirmed = False
            p.seat = None
        tx.changes.update(status="waiting", deadline_at=None)

    async def confirm(self, user: User, game_id: int) -> None:
        async with self.command(game_id) as tx:
            if tx.game.status != "confirming":
                raise Conflict("the game is not waiting for confirmations")
            players = await repo.players_of(tx.db, game_id)
            mine = next((p for p in players if p.user_id == user.id), None)
            if mine is None:
                raise Forbidden("you are not in this game")
            if mine.confirmed:
                raise Conflict("you have already confirmed")
            mine.confirmed = True
            tx.event("confirmed", {"user": user.username, "team": mine.team})
            if all(p.confirmed for p in players):
                await self._start(tx, players)

    async def _start(self, tx: Tx, players: list[GamePlayer]) -> None:
        table = table_of(tx.game.kind, tx.game.options)
        options = table.options
        state = table.new_state()
        seats = _seat_map(players, options, tx.game.created_by)
        control = options.time_control()
        clocks = {str(t): _clock_json(control.start()) for t in range(1, options.teams + 1)}
        now = self.now()
        deadline = now + timedelta(seconds=control.start().time_left(control))
        on_move = self._on_move(table, state, seats)
        bots = await self._bots_of(tx.db, seats)
        tx.changes.update(
            status="active",
            turn_started_at=now,
            deadline_at=None if on_move.get("user_id") in bots else deadline,
            clocks=clocks,
            to_move=on_move,
            plies=0,
        )
        tx.event(
            "started",
            {
                "kind": table.key,
                "team_names": table.team_names(),
                "position": table.position(state),
                "to_move": on_move,
                "deadline": deadline.isoformat(),
                "clocks": clocks,
            },
        )
        users = await repo.users_by_ids(tx.db, [p.user_id for p in players])
        tx.new_live = Live(tx.version, state, seats, table, bots)
        self._ping_players(tx, seats)
        if _mails_players(tx.new_live):
            for user in users.values():
                self.mailer.game_started(tx.db, user, tx.game)
            next_user = users.get(on_move["user_id"])
            if next_user is not None:
                self.mailer.your_turn(tx.db, next_user, tx.game, tx.version + len(tx.events))

    @staticmethod
    def _on_move(table: Table, state: Any, seats: dict[tuple[int, int], int]) -> dict[str, Any]:
        turn = table.turn(state)
        if turn is None:
            return {}
        team, seat = turn
        return {"team": team, "seat": seat, "user_id": seats.get((team, seat))}

    def _ping_players(self, tx: Tx, seats: dict[tuple[int, int], int]) -> None:
        for user_id in set(seats.values()):
            tx.notices.append(Message(f"user:{user_id}", "dashboard", {"game_id": tx.game.id}))

    async def expire_confirmation(self, game_id: int, version: int) -> None:
        """The confirmation window closed: remove whoever did not confirm, back to waiting."""
        async with self.command(game_id, expected=version) as tx:
            if tx.game.status != "confirming":
                return
            deadline = repo.utc(tx.game.deadline_at)
            if deadline is None or deadline > self.now():
                return
            players = await repo.players_of(tx.db, game_id)
            removed = [p for p in players if not p.confirmed]
            for p in removed:
                await tx.db.delete(p)
            self._back_to_waiting([p for p in players if p.confirmed], tx)
            tx.event("unconfirmed_removed", {"user_ids": [p.user_id for p in removed]})
            tx.notices.append(Message("lobby", "lobby", {"game_id": game_id}))

    async def decline(self, user: User, game_id: int) -> None:
        async with self.command(game_id) as tx:
            if tx.game.challenge_to != user.id or tx.game.status != "waiting":
                raise Conflict("there is no open challenge to you in this game")
            tx.changes.update(status="cancelled", challenge_to=None)
            tx.event("declined", {"user": user.username})

    # ------------------------------------------------------------------------- play

    async def move(self, user: User, game_id: int, text: str, expected: int | None = None) -> dict[str, Any]:
        """Play a move for `user`; returns the acknowledgement once the move is stored."""
        ahead = await self._play_ahead(game_id, text)
        async with self.command(game_id, expected) as tx:
            if tx.game.status != "active":
                raise Conflict("the game is not in progress")
            live = await self.live(tx)
            player = self._player_on_move(live, user.id)
            if ahead is not None and ahead[0] is live:
                state = ahead[1]  # played on this very state before the command: no need to play it again
            else:
                try:
                    move = live.table.parse(live.state, text)
                except ValueError as err:
                    raise BadInput(str(err)) from None
                try:
                    state = live.state.play(move)
                except IllegalMove as err:
                    raise IllegalMoveError(str(err), reason=err.reason.value) from None
            if tx.game.redo and user.id not in live.bots:
                tx.changes["redo"] = []  # a new move in a practice game forgets the undone ones
            await self._record(tx, live, state, user_id=player)
        return {"ok": True, "version": tx.version + len(tx.events), "ply": state.plies}

    async def _play_ahead(self, game_id: int, text: str) -> tuple[Live, Any] | None:
        """Play the move on the cached state before the command takes the write turn. A move that ends the
        game may need the dead-stone estimator (a fraction of a second): its verdict is remembered, so other
        games' commands do not wait behind it. The command reuses the state if its live state is the same."""
        live = self._cache.get(game_id)
        if live is None:
            return None
        try:
            state = live.state.play(live.table.parse(live.state, text))
        except ValueError:  # illegal or unreadable: the command itself will say so
            return None
        if state.is_over:
            await live.table.result(state)
        return live, state

    def _player_on_move(self, live: Live, user_id: int) -> int:
        if user_id not in live.seats.values():
            raise Forbidden("you are not playing in this game")
        if live.on_move() != user_id:
            raise Conflict("it is not your turn")
        return user_id

    async def timeout(self, game_id: int, version: int) -> bool:
        """Apply a timeout whose deadline has passed; exactly once, thanks to the version check."""
        try:
            async with self.command(game_id, expected=version) as tx:
                if tx.game.status != "active":
                    return False
                deadline = repo.utc(tx.game.deadline_at)
                if deadline is None or deadline > self.now():
                    return False
                live = await self.live(tx)
                state = live.state.play(TIMEOUT)
                await self._record(tx, live, state, user_id=None)
                return True
        except Stale:
            return False

    async def _record(self, tx: Tx, live: Live, state: Any, user_id: int | None) -> None:
        """Store every event from `live.state` to `state` (automatic passes included) and the new clocks."""
        game = tx.game
        now = self.now()
        table = live.table
        control = table.options.time_control()
        steps = table.steps(live.state, state)
        clocks = dict(game.clocks)
        started = repo.utc(game.turn_started_at) or now
        leaving = any(step.left for step in steps)
        players = await repo.players_of(tx.db, game.id) if leaving else []
        for step in steps:
            s, team, seat, text = step.state, step.team, step.seat, step.text
            if step.left:
                for p in players:
                    if (p.team, p.seat) == (team, seat):
                        p.state = "timed_out" if step.left == "timeout" else "resigned"
            elif step.clocked and str(team) in clocks:
                elapsed = (now - started).total_seconds()
                clocks[str(team)] = _clock_json(_clock_from(clocks[str(team)]).after_move(control, elapsed))
            tx.moves.append(
                {
                    "game_id": game.id,
                    "ply": s.plies,
                    "team": team,
                    "seat": seat,
                    "user_id": live.seats.get((team, seat)),
                    "move": text,
                    "created_at": now,
                }
            )
            tx.event(
                "move" if team else "draw_agreed",
                {
                    "ply": s.plies,
                    "team": team or None,
                    "seat": seat if team else None,
                    "move": text,
                    "user_id": live.seats.get((team, seat)),
                    "position": table.position(s, event=True),
                },
            )
        on_move = self._on_move(table, state, live.seats)
        changes: dict[str, Any] = {
            "plies": state.plies,
            "clocks": clocks,
            "to_move": on_move,
            "turn_started_at": now,
        }
        if state.is_over:
            result = await table.result(state)
            changes.update(status="finished", result=result, finished_at=now, deadline_at=None)
            tx.event("finished", {"result": result})
            users = await repo.users_by_ids(tx.db, list(set(live.seats.values())))
            for u in users.values() if _mails_players(live) else ():
                self.mailer.game_finished(tx.db, u, game, result, tx.version + len(tx.events))
            tx.notices.append(Message("lobby", "lobby", {"game_id": game.id}))
        else:
            team_clock = _clock_from(clocks[str(on_move["team"])])
            deadline = now + timedelta(seconds=team_clock.time_left(control))
            # A computer seat never times out: its turn has no deadline (the runner plays at once).
            changes["deadline_at"] = None if on_move.get("user_id") in live.bots else deadline
            tx.events[-1][1]["deadline"] = deadline.isoformat()
            tx.events[-1][1]["clocks"] = clocks
            next_user = None
            mails = self.mailer.enabled and _mails_players(live)
            if mails and on_move.get("user_id") not in (None, *live.bots):
                next_user = await repo.user_by_id(tx.db, on_move["user_id"])
            if next_user is not None:
                self.mailer.your_turn(tx.db, next_user, game, tx.version + len(tx.events))
        tx.changes.update(changes)
        self._ping_players(tx, live.seats)
        tx.new_live = Live(tx.version, state, live.seats, table, live.bots)

    async def draw(self, user: User, game_id: int, accept: bool) -> dict[str, Any]:
        """Agreed draw (SPEC G9), games with more than two colours: every remaining team must accept."""
        async with self.command(game_id) as tx:
            if tx.game.status != "active":
                raise Conflict("the game is not in progress")
            live = await self.live(tx)
            state = live.state
            if not live.table.draws or state.colours <= 2:
                raise Conflict("agreed draws are for games with more than two colours")
            team = next((t for (t, _), uid in live.seats.items() if uid == user.id), None)
            players = await repo.players_of(tx.db, game_id)
            if team is None or not any(p.user_id == user.id and p.state == "active" for p in players):
                raise Forbidden("only active players can offer or accept a draw")
            if not state.active[team - 1]:
                raise Forbidden("your team is out of the game")
            offers = {t for t in tx.game.draw_offers if state.active[t - 1]}
            if accept:
                offers.add(team)
            else:
                offers.discard(team)
            tx.changes["draw_offers"] = sorted(offers)
            tx.event("draw", {"team": team, "accept": accept, "teams": sorted(offers)})
            if offers >= {c + 1 for c in state.active_colours}:
                await self._record(tx, live, state.agreed_draw(), user_id=user.id)
            return {"ok": True, "teams": sorted(offers)}

    # ------------------------------------------------------------------------- wrong scores

    async def flag(self, user: User, game_id: int, comment: str) -> dict[str, Any]:
        """A player reports that a finished game was scored wrongly."""
        comment = comment.strip()
        if not 1 <= len(comment) <= 2000:
            raise BadInput("say in 1..2000 characters what is wrong with the score")
        async with self.command(game_id) as tx:
            if tx.game.status != "finished":
                raise Conflict("only finished games can be flagged")
            if not table_of(tx.game.kind, tx.game.options).scored:
                raise Conflict("only scored games (Go) can be flagged: this game's result needs no review")
            players = await repo.players_of(tx.db, game_id)
            if all(p.user_id != user.id for p in players):
                raise Forbidden("only the players of a game can flag its score")
            flag = ScoreFlag(game_id=game_id, user_id=user.id, comment=comment, created_at=self.now())
            tx.db.add(flag)
            await tx.db.flush()
            tx.event("flagged", {"flag_id": flag.id, "user": user.username, "comment": comment})
            return {"ok": True, "flag_id": flag.id}

    async def correct_dead_stones(
        self, admin: User, game_id: int, dead_vertices: list[str], note: str
    ) -> dict[str, Any]:
        """An administrator sets the dead stones of a finished game; the result is recomputed and recorded."""
        async with self.command(game_id) as tx:
            game = tx.game
            if (
                game.status != "finished"
                or not game.result
                or game.result.get("reason") not in {"passes", "move_limit"}
            ):
                raise Conflict("only games that ended by passes or the move limit are scored")
            state = await self.current_state(tx.db, game)
            if not isinstance(state, GoState) or state.rules.dead_stones is DeadStones.ALL_ALIVE:
                raise Conflict("under these rules every stone on the board counts as alive")
            dead: set[int] = set()
            for vertex in dead_vertices:
                try:
                    point = parse_point(vertex, state.size)
                except ValueError as err:
                    raise BadInput(str(err)) from None
                if state.colour_at(point) is None:
                    raise BadInput(f"{vertex} holds no stone")
                dead.update(state.chain_points(point))  # a chain lives or dies as a whole
            now = self.now()
            result = final_result(state, frozenset(dead), frozenset(), judged=True)
            assert result is not None
            result.update(corrected_by=admin.username, corrected_at=now.isoformat(), note=note[:2000])
            history = [
                *game.result_history,
                {**game.result, "replaced_at": now.isoformat(), "replaced_by": admin.username},
            ]
            tx.changes.update(result=result, result_history=history)
            for flag in await repo.open_flags(tx.db, game_id):
                flag.resolved_by, flag.resolved_at = admin.id, now
                flag.resolution = note[:2000] or "dead stones corrected"
            tx.event("result_corrected", {"result": result, "by": admin.username})
            return {"ok": True, "result": result}

    # ------------------------------------------------------------------------- chat

    async def chat(self, user: User, game_id: int, channel: str, text: str) -> dict[str, Any]:
        from miai.server.play.chat import post

        async with self.command(game_id) as tx:
            return await post(tx, user, channel, text, self.now())


def _mails_players(live: Live) -> bool:
    """Game mails are for games between people: against the computer (a practice game, or every other seat a
    computer's) the player is at the board and the computer answers at once."""
    people = {user_id for user_id in live.seats.values() if user_id not in live.bots}
    return len(people) > 1 and not live.table.options.practice


def _seat_map(players: list[GamePlayer], options: TableOptions, creator: int) -> dict[tuple[int, int], int]:
    """(team, seat) -> user id; in local mode the creator plays every colour at one screen."""
    if options.mode == "local":
        return {(team, 0): creator for team in range(1, options.teams + 1)}
    return {(p.team, p.seat): p.user_id for p in players if p.team is not None and p.seat is not None}


def _clock_json(clock: TeamClock) -> dict[str, Any]:
    return {"main": clock.main, "periods": clock.periods}


def _clock_from(data: dict[str, Any]) -> TeamClock:
    return TeamClock(main=float(data.get("main", 0.0)), periods=int(data.get("periods", 0)))
