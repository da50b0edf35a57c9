"""Rating farming (issue "Safe at the edges, round two"): booster accounts resigning after 7 moves took a
farmer from 1500 to 1972 in a minute. The guards (ratings/eligibility.py, docs/api.md "Ratings"): each side's
share of moves, the pair allowance, provisional ratings off the leaderboards, the game saying whether it was
rated and why not, and `miai ratings recompute` applying the same rules. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from miai.cli import main
from miai.server.ratings import eligibility
from miai.server.ratings.eligibility import (
    PAIR_WINDOW,
    RATED_GAMES_PER_PAIR,
    opponent_pairs,
    pair_reason,
    short_game_reason,
)
from miai.server.ratings.games import rate_game
from miai.server.ratings.systems import Rating
from tests.server.conftest import FakeClock, Player, register
from tests.server.ratings.test_eligibility import go
from tests.server.ratings.test_ratings_api import OPENING, black_resigns, game, pair_go, ratings, set_ratings

SHORT = "each side must play at least 10 moves (passes not counted) for the game to be rated"
OVER = "only the first 3 rated games between the same two players in 24 hours count"


def snapshot(player: Player, gid: int) -> dict[str, Any]:
    response = player.get(f"/api/v1/games/{gid}")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def boosted(farmer: Player, booster: Player) -> int:
    """The incident's game: the farmer (Black) and the booster play 7 moves, then the booster resigns."""
    gid = game(farmer, booster)
    for ply, move in enumerate(OPENING["go"][:7]):
        (farmer if ply % 2 == 0 else booster).ok(f"/api/v1/games/{gid}/moves", {"move": move})
    booster.ok(f"/api/v1/games/{gid}/resign", {})
    return gid


def test_boosters_resigning_after_seven_moves_leave_the_farmer_unrated(client: TestClient) -> None:
    farmer = register(client, "farmer")
    boosters = [register(client, f"booster{n}") for n in range(3)]
    games = [boosted(farmer, booster) for booster in boosters for _ in range(2)]
    assert ratings(farmer) == {} and all(ratings(b) == {} for b in boosters)
    assert client.get("/api/v1/leaderboards/go-9").json()["players"] == []
    for gid in games:
        seen = snapshot(farmer, gid)
        assert seen["result"]["winners"] == [1] and seen["options"]["rated"] is True  # as created
        assert seen["rating"] == {"rated": False, "kind_key": "go-9", "reason": SHORT, "changes": []}
    events = farmer.get(f"/api/v1/games/{games[0]}/events?since=0").json()["events"]
    finished = next(e for e in events if e["t"] == "finished")
    assert finished["d"]["rating"] == snapshot(farmer, games[0])["rating"]  # the event says it as well


def test_games_beyond_the_pair_allowance_change_nothing(timed_client: TestClient, clock: FakeClock) -> None:
    """The first three rated games of a pair in 24 hours move ratings (the winner up, the loser down), the
    later ones are recorded unrated; another opponent is another pair; a day later the pair counts again."""
    farmer, booster, other = (register(timed_client, name) for name in ("farmer", "booster", "other"))
    allowed = []
    for _ in range(RATED_GAMES_PER_PAIR):
        before = ratings(farmer).get("go-9", {"rating": 1500.0})["rating"]
        allowed.append(black_resigns(booster, farmer))
        assert ratings(farmer)["go-9"]["rating"] > before  # a win never lowers the winner's rating
        clock.advance(60)
    settled = {p.username: ratings(p) for p in (farmer, booster)}
    for _ in range(2):
        gid = black_resigns(booster, farmer)
        clock.advance(60)
        assert snapshot(farmer, gid)["rating"] == {
            "rated": False,
            "kind_key": "go-9",
            "reason": OVER,
            "changes": [],
        }
    assert {p.username: ratings(p) for p in (farmer, booster)} == settled
    rated = snapshot(farmer, allowed[0])["rating"]
    history = settled["farmer"]["go-9"]["history"]
    assert rated["rated"] and rated["reason"] is None and rated["kind_key"] == "go-9"
    assert [(c["user_id"], c["team"]) for c in rated["changes"]] == [
        (booster.user_id, 1),
        (farmer.user_id, 2),
    ]
    assert rated["changes"][1]["change"] == history[0]["change"] > 0 > rated["changes"][0]["change"]
    assert rated["changes"][1]["after"] == history[0]["rating"]  # as the profile's graph says it
    black_resigns(other, farmer)
    assert ratings(farmer)["go-9"]["games"] == RATED_GAMES_PER_PAIR + 1
    clock.advance(PAIR_WINDOW.total_seconds())
    black_resigns(booster, farmer)
    assert ratings(farmer)["go-9"]["games"] == RATED_GAMES_PER_PAIR + 2


def test_a_provisional_player_is_shown_so_and_is_off_the_leaderboard(client: TestClient) -> None:
    """A deviation under 110 is not enough: fewer than ten rated games is still provisional."""
    for name in ("veteran", "newcomer"):
        register(client, name)
    set_ratings(client, {"veteran": (1700.0, 60.0)}, bots=set(), key="go-9")
    set_ratings(client, {"newcomer": (2400.0, 60.0)}, bots=set(), key="go-9", games=4)
    board = client.get("/api/v1/leaderboards/go-9").json()["players"]
    assert [(p["user"], p["provisional"]) for p in board] == [("veteran", False)]
    newcomer = client.get("/api/v1/users/newcomer/ratings").json()["ratings"][0]
    assert (newcomer["provisional"], newcomer["games"]) == (True, 4)
    profile = client.get("/api/v1/users/newcomer").json()["ratings"][0]
    assert profile["provisional"] is True


def test_a_team_game_resigned_early_is_unrated(client: TestClient) -> None:
    """Pair Go: each team must have played its share, whoever of the team played it."""
    players, gid = pair_go(client)
    by_id = {p.user_id: p for p in players}
    moves = iter(OPENING["go"][:7])
    while (seen := snapshot(players[0], gid))["status"] == "active":
        on_move = by_id[seen["to_move"]["user_id"]]
        if seen["position"]["plies"] < 7:
            on_move.ok(f"/api/v1/games/{gid}/moves", {"move": next(moves)})
        else:  # Black's players resign in turn
            on_move.ok(f"/api/v1/games/{gid}/resign", {})
    assert seen["rating"] == {"rated": False, "kind_key": "go-9-teams", "reason": SHORT, "changes": []}
    assert all(ratings(p) == {} for p in players)


def test_the_rules_for_teams_and_colours() -> None:
    assert opponent_pairs({1: [1, 2], 2: [3, 4]}) == {(1, 3), (1, 4), (2, 3), (2, 4)}  # not teammates
    assert opponent_pairs({1: [5], 2: [3], 3: [9]}) == {(3, 5), (5, 9), (3, 9)}
    three = go(teams=3, komi=[0, 6.5, 6.5])
    assert short_game_reason("go", three, {1: 20, 2: 20, 3: 20}) is None
    assert "20 moves" in (short_game_reason("go", three, {1: 20, 2: 20, 3: 3}) or "")  # one colour left early
    assert pair_reason({(3, 5): RATED_GAMES_PER_PAIR - 1, (5, 9): 0}) is None
    assert pair_reason({(3, 5): 0, (5, 9): RATED_GAMES_PER_PAIR}) == OVER  # any two opponents over it


ratings_strategy = st.builds(Rating, st.floats(100, 3500), st.floats(45, 350), st.floats(0.01, 0.1))


@settings(max_examples=300, deadline=None)
@given(ratings_strategy, ratings_strategy, st.sampled_from([0.0, 50.0, 400.0]))
def test_a_glicko_win_never_lowers_the_winners_rating(winner: Rating, loser: Rating, bonus: float) -> None:
    """Whoever plays Black, with or without a handicap's bonus."""
    for teams, ranks in (
        ({1: [winner], 2: [loser]}, {1: 1, 2: 2}),
        ({1: [loser], 2: [winner]}, {1: 2, 2: 1}),
    ):
        after = rate_game("glicko2", teams, ranks, bonus)
        won = 1 if ranks[1] == 1 else 2
        assert after[won][0].rating >= winner.rating
        assert after[3 - won][0].rating <= loser.rating


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.builds(Rating, st.floats(0, 50), st.floats(1, 8.4)), min_size=1, max_size=2),
        min_size=2,
        max_size=4,
    )
)
def test_an_openskill_win_never_lowers_the_winners_rating(teams: list[list[Rating]]) -> None:
    """Team and multi-colour games: the winning team's players never lose mu."""
    ranks = {t: (1 if t == 1 else 2) for t in range(1, len(teams) + 1)}
    after = rate_game("openskill", dict(enumerate(teams, start=1)), ranks)
    assert all(new.rating >= old.rating for old, new in zip(teams[0], after[1], strict=True))


def test_recompute_applies_the_guards_to_a_history_rated_without_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A history rated before the guards (the incident's database): the boosters' short games and the pair's
    games over the allowance were rated. `miai ratings recompute` undoes them and says why on each game."""
    farmer, honest = register(client, "farmer"), register(client, "honest")
    boosters = [register(client, f"booster{n}") for n in range(2)]
    with monkeypatch.context() as old_rules:
        old_rules.setattr(eligibility, "min_moves_each", lambda kind, options: 3)
        old_rules.setattr(eligibility, "RATED_GAMES_PER_PAIR", 100)
        short = [boosted(farmer, booster) for booster in boosters]
        full = [black_resigns(honest, farmer) for _ in range(RATED_GAMES_PER_PAIR + 1)]
    assert ratings(farmer)["go-9"]["games"] == len(short) + len(full)  # farmed, as before the guards
    url = client.app.state.settings.effective_database_url  # type: ignore[attr-defined]
    monkeypatch.setenv("MIAI_DATABASE_URL", url)
    assert main(["ratings", "recompute"]) == 0
    assert capsys.readouterr().out == f"go-9: {RATED_GAMES_PER_PAIR} rated games replayed\n"
    farmed = ratings(farmer)["go-9"]
    assert [p["game_id"] for p in farmed["history"]] == full[:RATED_GAMES_PER_PAIR]
    assert all(ratings(b) == {} for b in boosters)
    for gid, reason in [*((g, SHORT) for g in short), (full[-1], OVER)]:
        assert snapshot(farmer, gid)["rating"] == {
            "rated": False,
            "kind_key": "go-9",
            "reason": reason,
            "changes": [],
        }
    farmer_change = snapshot(farmer, full[0])["rating"]["changes"][1]
    assert farmer_change["after"] == farmed["history"][0]["rating"]  # the replayed values


def test_recompute_rates_games_the_allowance_held_back_when_it_allows_them(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other way round: games held back by a stricter allowance count once the rules allow them."""
    black, white = register(client, "black"), register(client, "white")
    with monkeypatch.context() as stricter:
        stricter.setattr(eligibility, "RATED_GAMES_PER_PAIR", 1)
        first, second = black_resigns(black, white), black_resigns(black, white)
    assert snapshot(white, second)["rating"]["rated"] is False and ratings(white)["go-9"]["games"] == 1

    async def recompute_all() -> dict[str, int]:
        from datetime import UTC, datetime

        from miai.server.ratings.store import recompute_all as rebuild

        async with client.app.state.sessions() as db:  # type: ignore[attr-defined]
            replayed = await rebuild(db, datetime.now(UTC))
            await db.commit()
            return replayed

    assert client.portal.call(recompute_all) == {"go-9": 2}  # type: ignore[union-attr]
    assert [p["game_id"] for p in ratings(white)["go-9"]["history"]] == [first, second]
    assert snapshot(white, second)["rating"]["rated"] is True
