"""The lobby: creating games and challenges, taking and leaving seats, and confirming before the start.

A game waits for players; when its seats are full they have `confirm_window` seconds to confirm (computers
confirm at once). Whoever has not confirmed by then is removed and the game waits again. Once everyone has
confirmed, the game starts (`Moves.start`). A join never takes more seats than the game has.

Computers never keep a game open by themselves: when the last person leaves (or is removed unconfirmed),
the game is cancelled with the reason `no_players`, and computers are added only by a creator who is in the
game. So a game of computers alone never waits in the lobby, and never starts (docs/api.md).
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta
from typing import Any

from miai.server.errors import BadInput, Conflict, Forbidden, GuestsMayNot
from miai.server.game_options import GoOptions, KindOptions, OptionsError, TableOptions, load_options
from miai.server.notify import bell
from miai.server.notify.mailer import Mailer
from miai.server.play.moves import Moves
from miai.server.play.privacy import EVERYONE
from miai.server.play.stream import CommandStream, Tx, lobby_notice
from miai.server.ratings.eligibility import bot_seating_reason, setup_unrated_reason
from miai.server.realtime.hub import Message
from miai.server.storage import repo
from miai.server.storage.models import Game, GameEvent, GamePlayer, SeatRemoval, User


class Lobby:
    def __init__(
        self,
        stream: CommandStream,
        moves: Moves,
        mailer: Mailer,
        confirm_window: float = 300,
        bots_rated_vs_people: bool = False,
    ) -> None:
        self.stream = stream
        self.moves = moves
        self.mailer = mailer
        self.confirm_window = confirm_window
        self.bots_rated_vs_people = bots_rated_vs_people  # the operator's MIAI_BOTS_RATED_VS_PEOPLE
        self._random = random.Random(secrets.randbits(64))

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
        if user.is_guest and (not options.practice or challenge is not None or swap_match):
            raise GuestsMayNot()  # guests: only their own practice games (Practice.create)
        kind = options.kind if isinstance(options, KindOptions) else "go"
        unrated = setup_unrated_reason(kind, options) if options.rated else None
        if unrated is not None:  # said at once, not found out when the result moves no rating
            raise OptionsError(f"rated: {unrated}")
        if challenge is not None:  # said at once too; the seat itself refuses it as well (`seat`)
            flags = [user.is_bot, challenge.is_bot]
            refused = bot_seating_reason(options.rated, flags, self.bots_rated_vs_people)
            if refused is not None:
                raise OptionsError(f"rated: {refused}")
        if team is not None and not 1 <= team <= options.teams:
            raise BadInput(f"team must be 1..{options.teams}")
        now = self.stream.now()
        async with self.stream.sessions() as db:
            invite = secrets.token_urlsafe(12) if options.visibility == "private" else None
            match_id = secrets.token_hex(8) if swap_match else None
            if match_of is not None:
                first = await repo.game_row(db, match_of)
                match_id = first.match_id if first is not None else None
            game = Game(
                kind=kind,
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
                    audience=EVERYONE,
                    created_at=now,
                )
            )
            game.version = 1
            told = None
            if challenge is not None and match_of is None:  # one mail for a match's two games
                await self.mailer.challenge(db, challenge, user, game)
                told = await bell.tell(db, challenge, bell.CHALLENGE, game, now, {"by": user.username})
            await db.commit()
            game_id = game.id
        if options.visibility == "public":  # private games are in no list (ping_lobby)
            await self.stream.hub.publish(lobby_notice(game_id))
        if challenge is not None:
            await self.stream.hub.publish(Message(f"user:{challenge.id}", "challenge", {"game_id": game_id}))
        if told is not None:
            await self.stream.hub.publish(told)
        return game_id

    async def join(self, user: User, game_id: int, team: int | None, invite: str | None) -> None:
        async with self.stream.command(game_id) as tx:
            await self.seat(tx, user, team, invite)

    async def seat(self, tx: Tx, user: User, team: int | None, invite: str | None) -> None:
        """Within a command: `user` takes a seat (in `team`, or one chosen when the game fills)."""
        if user.is_guest:
            raise GuestsMayNot()
        game, game_id = tx.game, tx.game.id
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
        if len(players) >= options.seats:
            raise Conflict("the game is full")
        seated = await repo.users_by_ids(tx.db, [p.user_id for p in players])
        flags = [u.is_bot for u in seated.values()] + [user.is_bot]
        refused = bot_seating_reason(options.rated, flags, self.bots_rated_vs_people)
        if refused is not None:
            raise Forbidden(refused)
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
            deadline = self.stream.now() + timedelta(seconds=self.confirm_window)
            tx.changes.update(status="confirming", deadline_at=deadline)
            tx.event("confirming", {"deadline": deadline.isoformat(), "players": _roster(players)})
        tx.ping_lobby()

    def _assign_seats(self, players: list[GamePlayer], options: TableOptions) -> None:
        """Players who chose no team go at random to teams with free seats; seats follow join order.

        SPEC G17: a player placed now joins their team now, after everyone who chose it. Their join number
        moves to now as well, so the order holds when the game fills again after someone left."""
        free = [
            t
            for t in range(1, options.teams + 1)
            for _ in range(options.players_per_team - sum(1 for p in players if p.team == t))
        ]
        self._random.shuffle(free)
        now_seq = max(p.joined_seq for p in players)
        for player in players:
            if player.team is None:
                player.team = free.pop()
                now_seq += 1
                player.joined_seq = now_seq
        for t in range(1, options.teams + 1):
            members = sorted((p for p in players if p.team == t), key=lambda p: p.joined_seq)
            for seat, member in enumerate(members):
                member.seat = seat

    async def leave(self, user: User, game_id: int) -> None:
        async with self.stream.command(game_id) as tx:
            if tx.game.status not in {"waiting", "confirming"}:
                raise Conflict("you can only leave a game before it starts; resign instead")
            players = await repo.players_of(tx.db, game_id)
            mine = next((p for p in players if p.user_id == user.id), None)
            if mine is None:
                raise Conflict("you are not in this game")
            await tx.db.delete(mine)
            tx.event("left", {"user": user.username})
            await self._carry_on_without(tx, [p for p in players if p is not mine])
            tx.ping_lobby()

    async def confirm(self, user: User, game_id: int) -> None:
        async with self.stream.command(game_id) as tx:
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
                await self.moves.start(tx, players)

    async def expire_confirmation(self, game_id: int, version: int) -> None:
        """The confirmation window closed: remove whoever did not confirm, back to waiting."""
        async with self.stream.command(game_id, expected=version) as tx:
            if tx.game.status != "confirming":
                return
            deadline = repo.utc(tx.game.deadline_at)
            if deadline is None or deadline > self.stream.now():
                return
            players = await repo.players_of(tx.db, game_id)
            removed = [p for p in players if not p.confirmed]
            for p in removed:
                await tx.db.delete(p)
                # Kept so that the game page and the dashboard can tell them why (not a silent vanishing).
                tx.db.add(
                    SeatRemoval(
                        user_id=p.user_id,
                        game_id=game_id,
                        reason=UNCONFIRMED,
                        window_seconds=self.confirm_window,
                        created_at=self.stream.now(),
                    )
                )
                tx.ping_user(p.user_id)
            tx.event("unconfirmed_removed", {"user_ids": [p.user_id for p in removed]})
            await self._carry_on_without(tx, [p for p in players if p.confirmed])
            tx.ping_lobby()

    async def _carry_on_without(self, tx: Tx, remaining: list[GamePlayer]) -> None:
        """After players left before the start: wait for new ones, unless no person is left to play."""
        users = await repo.users_by_ids(tx.db, [p.user_id for p in remaining])
        if any(not users[p.user_id].is_bot for p in remaining if p.user_id in users):
            _back_to_waiting(remaining, tx)
            return
        tx.changes.update(status="cancelled", deadline_at=None)
        tx.event("cancelled", {"reason": NO_PLAYERS, "message": "nobody is left to play"})

    async def decline(self, user: User, game_id: int, reason: str | None = None) -> None:
        """Decline a challenge to `user`; `reason` (validated at the edge) is shown to the challenger."""
        async with self.stream.command(game_id) as tx:
            if tx.game.challenge_to != user.id or tx.game.status != "waiting":
                raise Conflict("there is no open challenge to you in this game")
            tx.changes.update(status="cancelled", challenge_to=None)
            tx.event("declined", {"user": user.username, "reason": reason or None})


NO_PLAYERS = "no_players"
UNCONFIRMED = "unconfirmed"  # a seat removal: the player did not confirm within the window


def _roster(players: list[GamePlayer]) -> list[dict[str, Any]]:
    return [{"user_id": p.user_id, "team": p.team, "seat": p.seat, "confirmed": p.confirmed} for p in players]


def _back_to_waiting(players: list[GamePlayer], tx: Tx) -> None:
    for p in players:
        p.confirmed = False
        p.seat = None
    tx.changes.update(status="waiting", deadline_at=None)
