"""Play: the start of a game, moves and their clocks, timeouts, and agreed draws.

A move is applied with the rules core and recorded with every automatic step it caused (passes, colours
leaving), the team's clock after it, the next deadline and the mails it calls for; it is acknowledged only
once it is stored (see `stream.py`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from miai.core.clock import ClockMode
from miai.core.errors import IllegalMove
from miai.core.go import TIMEOUT
from miai.server.errors import BadInput, Conflict, Forbidden, IllegalMoveError, Stale
from miai.server.notify import bell
from miai.server.notify.mailer import Mailer
from miai.server.play.clocks import clock_from, clock_json, starting_clocks
from miai.server.play.judging import Judging
from miai.server.play.kinds import Table, table_of
from miai.server.play.stream import CommandStream, Live, Tx, bots_of, seat_map
from miai.server.play.views import recorded_move
from miai.server.ratings.eligibility import moves_by_team
from miai.server.ratings.store import record_game
from miai.server.storage import repo
from miai.server.storage.models import GamePlayer, User


class Moves:
    def __init__(
        self, stream: CommandStream, mailer: Mailer, judging: Judging, bots_rated_vs_people: bool = False
    ) -> None:
        self.stream = stream
        self.mailer = mailer
        self.judging = judging  # dead stones of the games that end here
        self.bots_rated_vs_people = bots_rated_vs_people  # the operator's MIAI_BOTS_RATED_VS_PEOPLE

    async def start(self, tx: Tx, players: list[GamePlayer]) -> None:
        """Every seat is taken and confirmed: the game begins, the first clock runs."""
        table = table_of(tx.game.kind, tx.game.options)
        options = table.options
        state = table.new_state()
        seats = seat_map(players, options, tx.game.created_by)
        live = Live(tx.version, state, seats, table, await bots_of(tx.db, seats))
        control = options.time_control()
        clocks = starting_clocks(control, options.teams)
        now = self.stream.now()
        deadline = now + timedelta(seconds=control.start().time_left(control))
        on_move = live.to_move()
        tx.changes.update(
            status="active",
            turn_started_at=now,
            deadline_at=None if on_move.get("user_id") in live.bots else deadline,
            clocks=clocks,
            to_move=on_move,
            plies=0,
        )
        tx.event("started", table.started_event(state, now, on_move, deadline, clocks))
        tx.new_live = live
        tx.ping_players(seats)
        if tx.game.visibility == "public":
            tx.ping_lobby()  # the live lists (home, watch): a game to watch
        if live.between_people():
            users = await repo.users_by_ids(tx.db, [p.user_id for p in players])
            for user in users.values():
                self.mailer.game_started(tx.db, user, tx.game)
        await self._tell_next(tx, live, on_move.get("user_id"))

    async def move(self, user: User, game_id: int, text: str, expected: int | None = None) -> dict[str, Any]:
        """Play a move for `user`; returns the acknowledgement once the move is stored."""
        ahead = await self._play_ahead(game_id, text)
        late = False
        async with self.stream.command(game_id, expected) as tx:
            if tx.game.status != "active":
                raise Conflict("the game is not in progress")
            live = await self.stream.live(tx)
            _check_on_move(live, user.id)
            deadline = repo.utc(tx.game.deadline_at)
            if deadline is not None and deadline <= self.stream.now():
                # Past the deadline (the scheduler had not got to it yet): the timeout stands, not the move.
                await self.record(tx, live, live.state.play(TIMEOUT))
                late = True
            else:
                state = _played(live, text, ahead)
                if tx.game.redo:  # practice games: the next undone move keeps the rest; another forgets them
                    played = live.table.format(live.state, live.table.parse(live.state, text))
                    tx.changes["redo"] = tx.game.redo[1:] if tx.game.redo[0] == played else []
                await self.record(tx, live, state)
        if late:
            raise Conflict("your time ran out before this move arrived: the timeout is recorded")
        return {"ok": True, "version": tx.next_version, "ply": state.plies}

    async def _play_ahead(self, game_id: int, text: str) -> tuple[Live, Any] | None:
        """Play the move on the cached state before the command takes the write turn. A move that ends the
        game may need the dead-stone estimator (a fraction of a second): its verdict is remembered, so other
        games' commands do not wait behind it. The command reuses the state if its live state is the same."""
        live = self.stream.cached(game_id)
        if live is None:
            return None
        try:
            state = live.state.play(live.table.parse(live.state, text))
        except ValueError:  # illegal or unreadable: the command itself will say so
            return None
        if state.is_over:
            await live.table.result(state, self.judging)
        return live, state

    async def timeout(self, game_id: int, version: int) -> bool:
        """Apply a timeout whose deadline has passed; exactly once, thanks to the version check."""
        try:
            async with self.stream.command(game_id, expected=version) as tx:
                if tx.game.status != "active":
                    return False
                deadline = repo.utc(tx.game.deadline_at)
                if deadline is None or deadline > self.stream.now():
                    return False
                live = await self.stream.live(tx)
                await self.record(tx, live, live.state.play(TIMEOUT))
                return True
        except Stale:
            return False

    async def record(self, tx: Tx, live: Live, state: Any) -> None:
        """Store every event from `live.state` to `state` (automatic passes included) and the new clocks."""
        game = tx.game
        now = self.stream.now()
        table = live.table
        control = table.options.time_control()
        steps = table.steps(live.state, state)
        clocks = dict(game.clocks)
        started = repo.utc(game.turn_started_at) or now
        leaving = any(step.left for step in steps)
        players = await repo.players_of(tx.db, game.id) if leaving else []
        for step in steps:
            s, team, seat, text = step.state, step.team, step.seat, step.text
            charged: dict[str, Any] = {}  # the mover's clock after the move, kept for the SGF's time left
            if step.left:
                for p in players:
                    if (p.team, p.seat) == (team, seat):
                        p.state = "timed_out" if step.left == "timeout" else "resigned"
                if str(team) in clocks:  # the time used is gone, for a teammate who plays on too
                    elapsed = (now - started).total_seconds()
                    clocks[str(team)] = clock_json(clock_from(clocks[str(team)]).spend(control, elapsed))
            elif step.clocked and str(team) in clocks:
                elapsed = (now - started).total_seconds()
                clocks[str(team)] = clock_json(clock_from(clocks[str(team)]).after_move(control, elapsed))
                if control.mode is not ClockMode.NONE:
                    charged = clocks[str(team)]
            tx.moves.append(
                {
                    "game_id": game.id,
                    "ply": s.plies,
                    "team": team,
                    "seat": seat,
                    "user_id": live.seats.get((team, seat)),
                    "move": text,
                    "created_at": now,
                    "clock_main": charged.get("main"),
                    "clock_periods": charged.get("periods"),
                }
            )
            tx.event(
                "move",  # an agreed draw too: one `move` event per entry of the snapshot's `moves`
                {
                    **recorded_move(s.plies, team, seat, text, live.seats.get((team, seat))),
                    "position": table.position(s, event=True),
                },
            )
        after = Live(tx.version, state, live.seats, table, live.bots)
        on_move = after.to_move()
        tx.changes.update(plies=state.plies, clocks=clocks, to_move=on_move, turn_started_at=now)
        if state.is_over:
            result = await table.result(state, self.judging)
            tx.changes.update(status="finished", result=result, finished_at=now, deadline_at=None)
            # Rated: the ratings move in this transaction, with the result, or neither does; a game created
            # rated that does not count (ratings/eligibility.py) is recorded with its reason.
            rating = None
            if result is not None:
                moves = moves_by_team(_record(table, state)) if table.options.rated else {}
                seats, allowed = live.seats, self.bots_rated_vs_people
                rating = await record_game(tx.db, game, table.options, seats, result, now, moves, allowed)
            tx.event("finished", {"result": result, "rating": rating})
            users = await repo.users_by_ids(tx.db, list(set(live.seats.values())))
            teams = {uid: team for (team, _), uid in live.seats.items()}
            for u in users.values() if live.between_people() else ():
                self.mailer.game_finished(tx.db, u, game, result, tx.next_version)
                self._tell(tx, u, bell.FINISHED, {"outcome": bell.outcome(result, teams.get(u.id))})
            tx.ping_lobby()
        else:
            team_clock = clock_from(clocks[str(on_move["team"])])
            deadline = now + timedelta(seconds=team_clock.time_left(control))
            # A computer seat never times out: its turn has no deadline (the runner plays at once).
            tx.changes["deadline_at"] = None if on_move.get("user_id") in live.bots else deadline
            tx.events[-1][1]["deadline"] = deadline.isoformat()
            tx.events[-1][1]["turn_started_at"] = now.isoformat()  # the next clock runs from here
            tx.events[-1][1]["clocks"] = clocks
            await self._tell_next(tx, live, on_move.get("user_id"))
        tx.ping_players(live.seats)
        tx.new_live = after

    async def _tell_next(self, tx: Tx, live: Live, user_id: int | None) -> None:
        """The "your turn" mail and notification, to a person on move in a game between people."""
        if user_id is None or user_id in live.bots or not live.between_people():
            return
        next_user = await repo.user_by_id(tx.db, user_id)
        if next_user is not None:
            self.mailer.your_turn(tx.db, next_user, tx.game, tx.next_version)
            self._tell(tx, next_user, bell.TURN)

    def _tell(self, tx: Tx, user: User, kind: str, data: dict[str, Any] | None = None) -> None:
        """An in-page notification, stored with this command's writes and sent once they are."""
        row = bell.row_for(user, kind, tx.game, self.stream.now(), data)
        if row is not None:
            tx.notifications.append(row)

    async def draw(self, user: User, game_id: int, accept: bool) -> dict[str, Any]:
        """Agreed draw (SPEC G9), games with more than two colours: every remaining team must accept."""
        async with self.stream.command(game_id) as tx:
            if tx.game.status != "active":
                raise Conflict("the game is not in progress")
            live = await self.stream.live(tx)
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
                await self.record(tx, live, state.agreed_draw())
            return {"ok": True, "teams": sorted(offers)}


def _record(table: Table, state: Any) -> list[tuple[int, str]]:
    """The whole game as (team, stored move text), from the state's ancestry (this command's moves and the
    earlier ones, some perhaps not stored yet: their group is still open)."""
    root = state
    while root.parent is not None:
        root = root.parent
    return [(step.team, step.text) for step in table.steps(root, state)]


def _played(live: Live, text: str, ahead: tuple[Live, Any] | None) -> Any:
    """The state after the move `text`, reusing the one played ahead on this very state."""
    if ahead is not None and ahead[0] is live:
        return ahead[1]
    try:
        move = live.table.parse(live.state, text)
    except ValueError as err:
        raise BadInput(str(err)) from None
    try:
        return live.state.play(move)
    except IllegalMove as err:
        raise IllegalMoveError(str(err), reason=err.reason.value) from None


def _check_on_move(live: Live, user_id: int) -> None:
    if user_id not in live.seats.values():
        raise Forbidden("you are not playing in this game")
    if live.on_move() != user_id:
        raise Conflict("it is not your turn")
