"""The Go player's decisions around the search: passing, resigning and deliberate weakness."""

from __future__ import annotations

from dataclasses import replace

import pytest

from miai.core.go import PASS, RESIGN, GoState, Move, Place, Rules, new_game
from miai.core.go.rules import DeadStones
from miai.engines.go_player import DynamicKomi, GoPlayer, ResignPolicy, Style
from miai.engines.go_search import KernelSearch
from miai.engines.levels import style
from miai.engines.result import SearchResult
from miai.formats.ascii import parse_diagram
from tests.engines.problems import PROBLEMS
from tests.engines.test_mcts import FakeClock

QUICK = Style(playouts=600, seconds=None)


def position(text: str, to_move: int, rules: Rules) -> GoState:
    diagram = parse_diagram(text)
    return new_game(diagram.size, rules, setup=diagram.stones, to_move=to_move)


def test_passes_when_only_own_eyes_are_left() -> None:
    state = position(
        """
        5 . X X X X
        4 X X X X X
        3 X X X X X
        2 X X X X X
        1 X X X X .
          A B C D E
        """,
        0,
        Rules(),
    )
    assert GoPlayer(QUICK, seed=1).choose(state) == PASS


def test_ends_the_game_when_the_count_is_won() -> None:
    state = position(
        """
        5 . X . O .
        4 X X X O O
        3 . X . X O
        2 X X X O O
        1 . X . O .
          A B C D E
        """,
        1,
        Rules(komi=(0.0, 0.5), dead_stones=DeadStones.ALL_ALIVE),
    ).play(PASS)  # White passed; Black leads 15 to 10.5 and its pass ends the game
    assert GoPlayer(QUICK, seed=1).choose(state) == PASS


def test_does_not_pass_away_a_lost_count() -> None:
    """Every stone counts as it stands: the two White stones in atari must really be captured."""
    problem = next(p for p in PROBLEMS if p.name.startswith("capture two stones"))
    rules = replace(problem.state().rules, dead_stones=DeadStones.ALL_ALIVE)
    state = position(problem.diagram, 1, rules).play(PASS)  # Black's pass would end the game, lost
    move = GoPlayer(QUICK, seed=1).choose(state)
    assert isinstance(move, Place) and move.point in problem.answer_points()


HOPELESS = """
 7 O O O O O O O
 6 O . O O . O O
 5 O O O O O O O
 4 O O O O O O O
 3 O O O O O O O
 2 X X X O . O O
 1 . X . X O O .
   A B C D E F G
"""


def test_resigns_after_several_hopeless_searches() -> None:
    state = position(HOPELESS, 0, Rules(komi=(0.0, 7.5)))
    player = GoPlayer(QUICK, seed=1, resign=ResignPolicy(threshold=0.1, searches=2, min_playouts=100))
    assert player.choose(state) != RESIGN  # one bad search is not enough
    assert player.last is not None and player.last.win_rate < 0.1
    assert player.choose(state) == RESIGN


def test_never_resigns_for_a_team_in_a_multi_colour_game() -> None:
    text = HOPELESS.replace(" 6 O . O O . O O", " 6 O . O R . O O")
    state = new_game(7, Rules(komi=(0.0, 0.0, 0.0)), colours=3, setup=parse_diagram(text).stones, to_move=0)
    policy = ResignPolicy(threshold=0.1, searches=1, min_playouts=100)
    assert all(GoPlayer(QUICK, seed=s, resign=policy).choose(state) != RESIGN for s in range(3))
    everyone_a_computer = ResignPolicy(threshold=0.1, searches=1, min_playouts=100, all_computer=True)
    assert GoPlayer(QUICK, seed=1, resign=everyone_a_computer).choose(state) == RESIGN


def test_beginner_errs_reproducibly() -> None:
    beginner = Style(playouts=24, seconds=None, temperature=1.0, blunder_rate=0.3)
    state = new_game(9, Rules(komi=(0.0, 7.5)))
    games = []
    for seed in (5, 5, 6):
        player = GoPlayer(beginner, seed=seed)
        moves = []
        s = state
        for _ in range(20):
            move = player.choose(s)
            moves.append(move)
            s = s.play(move)
        games.append(moves)
    assert games[0] == games[1]
    assert games[0] != games[2]


def test_the_whole_move_keeps_within_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock(0.01)
    player = GoPlayer(Style(playouts=None, seconds=1.0), seed=1, now=clock)
    useful = GoPlayer._useful_placements

    def slow_useful(state: GoState, colour: int) -> list[int]:
        clock.t += 0.3  # the work before the search "takes" 0.3 s
        return useful(state, colour)

    monkeypatch.setattr(player, "_useful_placements", slow_useful)
    before = clock.t
    player.choose(new_game(9, Rules(komi=(0.0, 7.5))))
    assert player.last is not None
    assert player.last.seconds <= 1.0 - 0.3 - 0.05 + 0.02  # what is left, less a margin, one tick over
    assert clock.t - before <= 1.0


def test_dynamic_komi_asks_for_a_margin_while_far_ahead_and_gives_it_back() -> None:
    komi = DynamicKomi()
    game = new_game(19)
    assert komi.before(same_game=False) == 0.0
    for _ in range(3):
        komi.after(game, 0.9)
    assert komi.points == 3.0
    komi.after(game, 0.7)  # between the thresholds: kept
    assert komi.points == 3.0
    komi.after(game, 0.5)
    assert komi.points == 1.0
    assert komi.before(same_game=True) == 1.0  # the same game goes on
    for _ in range(100):
        komi.after(game, 0.99)
    assert komi.points == pytest.approx(36.1)  # at most a tenth of the board
    assert komi.before(same_game=False) == 0.0  # another game starts afresh
    small = DynamicKomi()
    small.after(new_game(13), 0.9)
    assert small.points == 0.5


def test_a_search_knows_whether_a_position_follows_on_from_its_last_one() -> None:
    search = KernelSearch(seed=1)
    game = new_game(13)
    assert not search.continues(game)  # nothing searched yet
    search.search(game, playouts=20)
    later = game.play(Place(60)).play(Place(70))
    assert search.continues(game) and search.continues(later)
    search.search(later, playouts=20)
    assert not search.continues(game)  # taken back (undo)
    assert not search.continues(new_game(13).play(Place(61)).play(Place(70)))  # another game
    assert not search.continues(new_game(13, Rules(komi=(0.0, 5.5))).play(Place(60)).play(Place(70)))


def test_giving_points_away_lowers_the_searched_win_rate() -> None:
    state = new_game(9, Rules(komi=(0.0, 7.5)))
    plain = KernelSearch(seed=3).search(state, playouts=400)
    giving = KernelSearch(seed=3).search(state, playouts=400, give=40.0)  # a win by 48 on 81 points
    assert giving.win_rate < 0.15 and plain.win_rate > 0.35


def test_the_top_level_searches_with_dynamic_komi_on_big_boards_only(monkeypatch: pytest.MonkeyPatch) -> None:
    gives: list[float] = []
    player = GoPlayer(replace(QUICK, playouts=50, dynamic_komi=True), seed=1)
    search = player.search.search

    def spy(state: GoState, colour: int, playouts: int | None, seconds: float | None, give: float) -> object:
        gives.append(give)
        return search(state, colour, playouts, seconds, give)

    monkeypatch.setattr(player.search, "search", spy)
    first = player.choose(new_game(13))
    player.komi.points = 4.0
    player.choose(new_game(13).play(first).play(Place(0)))  # (after a pass Black would pass: it wins)
    player.choose(new_game(9))
    assert gives == [0.0, 4.0, 0.0]
    assert style(10).dynamic_komi and not style(9).dynamic_komi


def hopeless_13() -> GoState:
    """Black's five-stone living group in the corner of a 13x13 board White owns (HOPELESS, stretched)."""
    rows = [" ".join("O" * 13) for _ in range(13)]
    rows[1] = "O . O O . O O O O . O O O"  # White's eyes (row 12)
    rows[11] = "X X X O . O O O O O O O O"
    rows[12] = ". X . X O O . O O O O O ."
    text = "\n".join(f"{13 - i} {row}" for i, row in enumerate(rows))
    return new_game(13, Rules(komi=(0.0, 7.5)), setup=parse_diagram(text).stones, to_move=0)


def test_never_resigns_while_giving_points_away() -> None:
    """A low win rate while giving points says the margin is too big, not that the game is lost."""
    state = hopeless_13()
    policy = ResignPolicy(threshold=0.1, searches=1, min_playouts=100)
    giving = GoPlayer(replace(QUICK, dynamic_komi=True), seed=1, resign=policy)
    first = giving.choose(state)
    assert first == RESIGN  # no points given yet: the position alone is lost
    giving = GoPlayer(replace(QUICK, dynamic_komi=True), seed=1, resign=policy)
    giving.search.search(state, playouts=20)  # the same game as the coming search
    giving.komi.points = 3.0
    assert giving.choose(state) != RESIGN
    assert giving.last is not None and giving.last.win_rate < 0.1
    assert giving.komi.points == 2.0  # the lost search asks for a point less next time


def test_does_not_take_the_settled_pass_with_a_chain_in_atari() -> None:
    """The playouts after a pass capture a chain in atari at once, so they "agree" on its points; passing
    then loses it (game 8 of the 19×19 match: a pass with five stones in atari, and the game with them)."""

    def should_pass(text: str) -> bool:
        state = position(text, 1, Rules(komi=(0.0, 7.5), dead_stones=DeadStones.AUTO))
        player = GoPlayer(QUICK, seed=1)
        cells = state.size * state.size
        player.search.ownership = lambda: [[0.0] * cells, [1.0] * cells]  # type: ignore[method-assign]
        result: SearchResult[Move] = SearchResult(Place(0), 900, 0.9, 1000, 1.0)
        return player._should_pass(state, 1, player._useful_placements(state, 1), result)

    in_atari = """
        5 . . . . .
        4 . . . . .
        3 . . . . .
        2 O X . . .
        1 O X . . .
          A B C D E
        """
    assert not should_pass(in_atari)  # White's A1-A2 has one liberty, A3
    assert should_pass(in_atari.replace("2 O X", "2 O ."))  # two liberties: the settled pass stands


FINISHED_9 = """
 9 . X . X O . O . O
 8 X X X X O O O O O
 7 . X . X O . O . O
 6 X X X X O O O O O
 5 . X . X O . O . O
 4 X X X X O O O O O
 3 . X . X O . O . O
 2 X X X X O O O O O
 1 . X . X O . O . O
   A B C D E F G H J
"""


OPEN_9 = """
 9 . X . X . O . O .
 8 X X X X . O O O O
 7 . X . X . O . O .
 6 X X X X . O O O O
 5 . X . X . O . O .
 4 X X X X . O O O O
 3 . X . X . O . O .
 2 X X X X . O O O O
 1 . X . X . O . O .
   A B C D E F G H J
"""


@pytest.mark.parametrize("level", [1, 5])
def test_answers_a_pass_with_a_pass_when_nothing_is_left(level: int) -> None:
    """Issue 32: the level-1 computer never passed; it filled its own area until the player had passed
    eight times. On a finished 9x9 board, with the player's pass, any level passes: every placement fills
    a territory, and the count (Black 36, White 45 + 6.5) cannot turn, whether the computer wins it or not.
    With every border closed it passes first too, before anyone has."""
    dgo = Rules(komi=(0.0, 6.5))
    for computer in (0, 1):  # Black (losing), White (winning)
        state = position(FINISHED_9, 1 - computer, dgo).play(PASS)  # the player passed
        assert GoPlayer(style(level), seed=3).choose(state) == PASS, (level, computer)
    assert GoPlayer(style(level), seed=3).choose(position(FINISHED_9, 1, dgo)) == PASS  # winning: first


def test_plays_on_where_a_border_is_open_and_the_count_can_turn() -> None:
    """An open border (the E column, nine neutral points): Black, behind by the 0.5 komi after White's
    pass, keeps playing instead of passing the game away; and White, ahead, does not pass first."""
    state = position(OPEN_9, 1, Rules(komi=(0.0, 0.5))).play(PASS)
    move = GoPlayer(style(1), seed=3).choose(state)
    assert isinstance(move, Place)
    assert isinstance(GoPlayer(style(1), seed=3).choose(position(OPEN_9, 1, Rules(komi=(0.0, 0.5)))), Place)
