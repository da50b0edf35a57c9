"""The states tests/web/make_screenshots.py shows, set up through the HTTP API as bots and scripts would.

Each scene plays fixed moves with fixed player names and returns the pages to photograph (`Shot`). Moves of
other games than Go come from a seeded random choice among the server's legal moves, and the computer's
replies are seeded by the game's version, so a regenerated picture changes only when the UI does (but for the
times of chat messages and reports, and the last seconds of clocks and deadlines).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from tests.web.support import ApiPlayer, grant_admin, http_client, start_game

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

# The 4-colour game's final position (row 9 at the top): capitals are stones, lowercase letters the territory
# they surround; '.' is neutral. A = team 1 ... D = team 4.
FOUR_COLOURS = """
bbbB.Cccc
bbbB.Cccc
BBBB.CCCC
.....DDDD
AAAA.Dddd
aaaA.Dddd
aaaA.Dddd
aaaA.Dddd
aaaA.Dddd
"""


@dataclass(frozen=True)
class Shot:
    """One page to photograph at each size: `name`-desktop.png and `name`-phone.png."""

    name: str
    viewer: ApiPlayer  # logged in as this player
    path: str
    ready: str  # an element that is visible once the page shows what the picture is for
    ready_text: str = ""  # ... and contains this text
    press: str = ""  # a button to press first (the Area view)
    show: str = ""  # an element to scroll into view (below the board on a phone) ...
    align: str = "start"  # ... to the top of the window, or to its bottom ("end")
    tab: str = ""  # a chat tab to open


class Cast:
    """The players, registered on first use under fixed names."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.players: dict[str, ApiPlayer] = {}

    def __getitem__(self, name: str) -> ApiPlayer:
        if name not in self.players:
            self.players[name] = ApiPlayer.register(self.base, name)
        return self.players[name]


def words(text: str) -> list[str]:
    return text.split()


def vertex(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def play_in_turn(gid: int, players: list[ApiPlayer], moves: list[str]) -> None:
    """`moves` in order, by the players in turn (first player first)."""
    for i, move in enumerate(moves):
        players[i % len(players)].play(gid, move)


def play_seeded(gid: int, players: list[ApiPlayer], plies: int, seed: int) -> None:
    """`plies` moves chosen by a seeded random generator among the legal moves the server lists."""
    rng = random.Random(seed)
    for i in range(plies):
        legal = sorted(players[0].game(gid)["position"]["legal"])
        players[i % len(players)].play(gid, rng.choice(legal))


# ----------------------------------------------------------------------------------------- finished games


def walls_19x19(seed: int = 7) -> tuple[list[str], list[str]]:
    """Black's and White's moves for a 19x19 game: two touching walls from top to bottom along a random path,
    an invasion by each side that the other captures, and reinforcing stones until both walls are done."""
    rng = random.Random(seed)
    cols = [11]
    for _ in range(18):
        cols.append(min(12, max(5, cols[-1] + rng.choice((-1, -1, 0, 1)))))
    black = {(r, c) for r, c in enumerate(cols)}
    white = {(r, c + 1) for r, c in enumerate(cols)}
    for r in range(18):  # keep each wall orthogonally connected where the path steps sideways
        if cols[r + 1] == cols[r] + 1:
            black.add((r + 1, cols[r]))
            white.add((r, cols[r] + 2))
        elif cols[r + 1] == cols[r] - 1:
            black.add((r, cols[r] - 1))
            white.add((r + 1, cols[r] + 1))
    centre = 9
    order = lambda p: (abs(p[0] - centre) + rng.random(), p)  # noqa: E731  from the middle outwards
    b_moves = [vertex(*p) for p in sorted(black, key=order)]
    w_moves = [vertex(*p) for p in sorted(white, key=order)]
    # White invades at C16 early; Black surrounds and captures it late. Black does the same at R4.
    w_moves.insert(3, "C16")
    b_moves[len(b_moves) - 2 : len(b_moves) - 2] = ["C15", "B16", "D16", "C17"]
    b_moves.insert(5, "R4")
    w_moves[len(w_moves) - 2 : len(w_moves) - 2] = ["R5", "Q4", "S4", "R3"]
    filler_b = iter(vertex(r, c) for r in (2, 6, 12, 16) for c in (1, 3))
    filler_w = iter(vertex(r, c) for r in (14, 10, 7, 2) for c in (15, 17))
    while len(b_moves) < len(w_moves):
        b_moves.append(next(filler_b))
    while len(w_moves) < len(b_moves):
        w_moves.append(next(filler_w))
    return b_moves, w_moves


def four_colour_moves() -> list[list[str]]:
    """Each team's moves in order; team 2 first invades at B3, which team 1 surrounds and captures."""
    rows = FOUR_COLOURS.strip().splitlines()
    moves: list[list[str]] = [[], [], [], []]
    for i, line in enumerate(rows):
        row = len(rows) - 1 - i
        for col, ch in enumerate(line):
            if ch in "ABCD":
                moves["ABCD".index(ch)].append(vertex(row, col))
    moves[1].insert(0, "B3")
    moves[0].extend(["B4", "A3", "C3", "B2"])  # the last one captures B3
    return moves


def finished_19x19(cast: Cast) -> list[Shot]:
    black, white = cast["alice"], cast["bob"]
    gid = start_game([black, white], {"size": 19, "preset": "tromp-taylor"})
    b_moves, w_moves = walls_19x19()
    play_in_turn(gid, [black, white], [m for pair in zip(b_moves, w_moves, strict=True) for m in pair])
    play_in_turn(gid, [black, white], ["pass", "pass"])
    return [Shot("finished-19x19", black, f"/games/{gid}", "#result-headline")]


def four_colours_9x9(cast: Cast) -> list[Shot]:
    players = [cast[name] for name in ("carol", "dave", "erin", "frank")]
    gid = start_game(players, {"size": 9, "teams": 4})
    queues = [list(m) for m in four_colour_moves()]
    while any(queues):
        for p, queue in zip(players, queues, strict=True):
            p.play(gid, queue.pop(0) if queue else "pass")
    for p in players:  # every colour passes once more in a row: the end
        if players[0].game(gid)["status"] == "active":
            p.play(gid, "pass")
    return [Shot("four-colours-9x9", players[0], f"/games/{gid}", "#result-headline")]


def admin_review(cast: Cast) -> list[Shot]:
    """A finished 9x9 game with an invasion on each side, reported by Black; the administrator's review."""
    black, white, admin = cast["alice"], cast["bob"], cast["referee"]
    gid = start_game([black, white], {"size": 9, "preset": "chinese", "komi": [6.5]})
    b_moves = [f"E{r}" for r in range(1, 10)] + ["G7", "H7"]
    w_moves = [f"F{r}" for r in range(1, 10)] + ["C3", "B7"]
    play_in_turn(gid, [black, white], [m for pair in zip(b_moves, w_moves, strict=True) for m in pair])
    play_in_turn(gid, [black, white], ["pass", "pass"])
    black.call("POST", f"/games/{gid}/flag", {"comment": "Please check the stones at C3 and B7."})
    grant_admin(cast.base, admin.username)
    return [Shot("admin-review", admin, f"/admin/games/{gid}", ".flag-history", "Please check")]


# ----------------------------------------------------------------------------------------- games in play


PRACTICE_POINTS = words("E5 C4 G4 C6 G6 E3 E7 D4 F6 C3 G3 C7 G7 D6 F4 D3 F3 D7 F7 B5 H5")


def practice_9x9(cast: Cast) -> list[Shot]:
    """Dgo practice against the computer (level 1): ten moves of Black's, each at the first point of
    PRACTICE_POINTS the rules allow, each answered by the computer."""
    me = cast["alice"]
    options = {"size": 9, "mode": "computer", "colour": "black", "level": 1}
    gid = int(me.call("POST", "/practice", options)["id"])
    for plies in range(0, 20, 2):
        wait_plies(me, gid, plies)
        assert any(try_move(me, gid, p) for p in PRACTICE_POINTS), "no point of PRACTICE_POINTS is left"
    wait_plies(me, gid, 20)
    page = f"/games/{gid}"
    return [
        Shot("practice-9x9", me, page, "#turn", "Your turn"),
        Shot("practice-9x9-area", me, page, "#area-score", "Estimated score", press="#area"),
    ]


def try_move(player: ApiPlayer, gid: int, move: str) -> bool:
    """Play `move` if the rules allow it (a point the computer took is refused); whether it was played."""
    answer = http_client(player.base).post(
        f"/api/v1/games/{gid}/moves", json={"move": move}, headers={"Authorization": f"Bearer {player.token}"}
    )
    assert answer.status_code in (200, 422), answer.text
    return answer.status_code == 200


def wait_plies(player: ApiPlayer, gid: int, plies: int) -> None:
    """Until the game has `plies` moves (the computer replies on its own); its first move may wait for the
    engine's compilation when the numba cache is cold."""
    deadline = time.monotonic() + 300
    while player.game(gid)["position"]["plies"] < plies:
        assert time.monotonic() < deadline, f"the computer did not reply in game {gid}"
        time.sleep(0.2)


def clocks_13x13(cast: Cast) -> list[Shot]:
    """Black (Alice) against White (Bob) on Japanese rules with Fischer clocks: Alice's clock runs."""
    black, white = cast["alice"], cast["bob"]
    options = {"size": 13, "preset": "japanese", "clock": "fischer", "main_time": 600, "increment": 10}
    gid = start_game([black, white], options)
    play_in_turn(gid, [black, white], words("K10 D4 D10 K4 C6 F3 K7 L5 G10 D8 C9 J3 G6 F5"))
    return [Shot("game-clocks-13x13", black, f"/games/{gid}", "#clocks")]


def dipgo_3_colours(cast: Cast) -> list[Shot]:
    """Three colours on DipGo rules, and a truce offered on the chat between teams 1 and 2."""
    players = [cast[name] for name in ("alice", "carol", "dave")]
    gid = start_game(players, {"size": 9, "teams": 3})
    play_in_turn(gid, players, words("C3 G3 E7 C5 G5 E5 D3 H4 F7 C6 F4 D6 B4 G6 E6"))
    alice, carol, dave = players
    for who, channel, text in (
        (dave, "public", "Good luck, both of you!"),
        (alice, "team:2", "Truce on the left? Red is growing fast."),
        (carol, "team:1", "Deal, until Red is contained."),
    ):
        who.call("POST", f"/games/{gid}/chat", {"channel": channel, "text": text})
    tab, page = '.chat .tab[data-channel="team:2"]', f"/games/{gid}"
    return [
        Shot("dipgo-3-colours", alice, page, ".board", tab=tab),
        Shot("dipgo-3-colours-chat", alice, page, ".chat-log", "Truce", show=".chat", align="end", tab=tab),
    ]


HEX_MOVES = words("f6 e7 g4 d9 f8 e9 f9 h5 g5 h3 c4 b5")


def other_games(cast: Cast) -> list[Shot]:
    """Amazons, Hex and Tanbo between Alice (first player) and Bob, a few moves in."""
    alice, bob = cast["alice"], cast["bob"]
    shots = []
    for kind, options in (("amazons", {}), ("hex", {"size": 11}), ("tanbo", {})):
        gid = start_game([alice, bob], {"kind": kind, **options})
        if kind == "hex":
            play_in_turn(gid, [alice, bob], HEX_MOVES)
        else:
            play_seeded(gid, [alice, bob], 12, seed=3)
        shots.append(Shot(kind, alice, f"/games/{gid}", "#turn", "Your turn"))
    return shots


# ----------------------------------------------------------------------------------------- the other pages


def forms(cast: Cast) -> list[Shot]:
    me = cast["alice"]
    return [
        Shot("practice-form", me, "/new", "#practice-form"),
        Shot("create-game", me, "/new", "#create-form", show="#create-form"),
        Shot("settings", me, "/settings", "#settings-form"),
    ]


def lobby_and_dashboard(cast: Cast) -> list[Shot]:
    """Open games in the lobby (one a challenge to Alice), and Alice's dashboard of the games above."""
    bob, carol, erin = cast["bob"], cast["carol"], cast["erin"]
    byoyomi = {"clock": "byoyomi", "main_time": 1200, "periods": 5, "period_time": 30}
    bob.call("POST", "/games", {"size": 19, "preset": "japanese", **byoyomi, "team": 2})
    carol.call("POST", "/games", {"size": 13, "teams": 4, "team": 3})
    erin.call("POST", "/games", {"kind": "hex", "size": 13, "seconds_per_move": 3600})
    bob.call("POST", "/games", {"size": 9, "challenge": "alice", "team": 1})
    me = cast["alice"]
    return [
        Shot("lobby", me, "/lobby", "#open-games .game-row"),
        Shot("dashboard", me, "/dashboard", "#my-games .game-row"),
    ]


# In order: the lobby and dashboard last, to show the games of the others.
SCENES: dict[str, Callable[[Cast], list[Shot]]] = {
    "finished-19x19": finished_19x19,
    "four-colours-9x9": four_colours_9x9,
    "practice-9x9": practice_9x9,
    "game-clocks": clocks_13x13,
    "dipgo-3-colours": dipgo_3_colours,
    "other-games": other_games,
    "admin-review": admin_review,
    "forms": forms,
    "lobby": lobby_and_dashboard,
}
