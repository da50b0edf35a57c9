"""The boards of Amazons, Hex and Tanbo (static/js/games) on positions made by the rules core.

Each board is rendered on its own in a blank page: every cell is labelled for screen readers with what the
core says is there, clicks turn into exactly the move text the core accepts (Amazons in three clicks, with the
legal targets of each step highlighted), illegal clicks explain themselves and Escape cancels.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from miai.core import amazons, hex, tanbo

SETUP = """
async ({ kind, view }) => {
  const { kindOf } = await import('/static/js/games/registry.js');
  document.body.innerHTML = '<div id="host" style="width:600px"></div><p id="hint"></p>';
  window.moves = [];
  window.cancels = 0;
  const entry = kindOf(kind);
  view.palette = entry.palette(view.palette);
  window.board = new entry.Board(document.getElementById('host'), {
    onMove: (text, keyboard) => window.moves.push([text, keyboard]),
    onCancel: () => { window.cancels += 1; },
    onHint: (text) => { document.getElementById('hint').textContent = text; },
  });
  window.board.render(view);
}
"""


def position_of(state: Any, kind: str, legal: list[str]) -> dict[str, Any]:
    """A position as the API sends it (docs/api.md): arrows -1, team numbers from 1."""
    cells = [-1 if c == amazons.ARROW and kind == "amazons" else c for c in state.cells]
    return {
        "kind": kind,
        "size": state.size,
        "cells": cells,
        "to_move": None if state.is_over else {"team": state.to_move + 1, "seat": 0},
        "legal": legal,
        "last": None,
        "plies": state.plies,
        "over": state.is_over,
    }


def view(position: dict[str, Any], names: list[str], can_play: bool = True) -> dict[str, Any]:
    return {
        "position": position,
        "names": names,
        "palette": "classic",
        "coords": True,
        "canPlay": can_play,
        "preview": None,
        "previous": None,
        "label": "test board",
    }


@pytest.fixture()
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto("/api/v1/health")
        yield page
        assert not errors, errors
    finally:
        context.close()


def label(page: Page, name: str) -> str:
    cell = page.locator(f'[role="gridcell"][aria-label^="{name}:"]')
    return str(cell.get_attribute("aria-label"))


def click(page: Page, name: str) -> None:
    page.locator(f'[role="gridcell"][aria-label^="{name}:"]').click()


def targets(page: Page) -> set[str]:
    found = page.eval_on_selector_all(
        ".hit.target", "cells => cells.map((c) => c.getAttribute('aria-label'))"
    )
    return {str(text).split(":")[0] for text in found}


def moves(page: Page) -> list[list[Any]]:
    return list(page.evaluate("window.moves"))


def test_amazons_three_clicks(page: Page) -> None:
    state = amazons.new_game()
    legal = [amazons.format_move(m) for m in state.legal_moves()]
    page.evaluate(
        SETUP, {"kind": "amazons", "view": view(position_of(state, "amazons", legal), ["White", "Black"])}
    )
    assert page.locator('[role="gridcell"]').count() == 100
    assert label(page, "a4") == "a4: White queen, can move"
    assert label(page, "a7") == "a7: Black queen"
    assert targets(page) == {"a4", "d1", "g1", "j4"}

    click(page, "a7")  # not White's queen
    assert "choose one of your queens (White)" in page.inner_text("#hint")
    click(page, "d1")
    destinations = {
        amazons.format_square(m.to) for m in state.legal_moves() if m.frm == amazons.parse_square("d1")
    }
    assert targets(page) == destinations
    assert label(page, "d1").endswith("selected queen")
    click(page, "d1")  # the queen again: cancelled
    assert targets(page) == {"a4", "d1", "g1", "j4"}
    click(page, "d1")
    click(page, "j10")  # out of reach
    assert "cannot reach" in page.inner_text("#hint")
    click(page, "d5")
    arrows = {
        amazons.format_square(m.arrow)
        for m in state.legal_moves()
        if (m.frm, m.to) == (amazons.parse_square("d1"), amazons.parse_square("d5"))
    }
    assert targets(page) == arrows and "d1" in arrows  # the square the queen left is a legal target
    assert page.locator(".moving").count() == 1 and page.locator(".target-dot.arrow").count() == len(arrows)
    page.keyboard.press("Escape")  # Escape only works with the board focused
    page.locator(".board").focus()
    page.keyboard.press("Escape")
    assert targets(page) == {"a4", "d1", "g1", "j4"}
    for square in ("d1", "d5", "g8"):
        click(page, square)
    assert moves(page) == [["d1-d5/g8", False]]
    state.play(amazons.parse_move("d1-d5/g8"))  # the core accepts it


def test_amazons_arrows_and_last_move(page: Page) -> None:
    state = amazons.new_game().play(amazons.parse_move("d1-d5/g8"))
    legal = [amazons.format_move(m) for m in state.legal_moves()]
    position = position_of(state, "amazons", legal)
    position["last"] = {"team": 1, "move": "d1-d5/g8", "points": [3, 43, 76]}
    page.evaluate(SETUP, {"kind": "amazons", "view": view(position, ["White", "Black"], can_play=False)})
    assert label(page, "g8") == "g8: arrow, last arrow"
    assert label(page, "d5") == "d5: White queen, last move to here"
    assert label(page, "d1") == "d1: empty, last move from here"
    assert page.locator(".arrow .burnt").count() == 1
    assert targets(page) == set()  # not this viewer's turn: nothing to click
    click(page, "a7")
    assert moves(page) == []


def test_hex_cells_swap_and_ban(page: Page) -> None:
    state = hex.new_game(5, hex.Opening.CENTRE_ROW_BAN)
    legal = [hex.format_move(m, 5) for m in state.legal_moves()]
    page.evaluate(SETUP, {"kind": "hex", "view": view(position_of(state, "hex", legal), ["Black", "White"])})
    assert page.locator('[role="gridcell"]').count() == 25
    assert label(page, "c3") == "c3: empty, not allowed now"  # the centre row on the first move
    assert label(page, "c2") == "c2: empty"
    assert page.locator(".banned").count() == 5
    click(page, "a3")
    assert "illegal" in page.inner_text("#hint")
    # The keyboard: the cursor starts at the centre c3; up is row 2 (row 1 is at the top).
    page.locator(".board").focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    click(page, "e5")
    assert moves(page) == [["a2", True], ["e5", False]]
    # The a1 corner touches b1 and a2 only: check the geometry through the drawn centres.
    centres = page.evaluate("[0, 1, 5, 6].map((p) => window.board.centre(p))")  # a1, b1, a2, b2
    a1, b1, a2, b2 = centres
    dist = lambda u, v: ((u[0] - v[0]) ** 2 + (u[1] - v[1]) ** 2) ** 0.5  # noqa: E731
    assert abs(dist(a1, b1) - dist(a1, a2)) < 1e-6 and dist(a1, b2) > dist(a1, b1) * 1.5

    after = hex.new_game(5).play(hex.parse_move("b3", 5))
    legal = [hex.format_move(m, 5) for m in after.legal_moves()]
    assert "swap" in legal
    position = position_of(after, "hex", legal)
    position["last"] = {"team": 1, "move": "b3", "points": [11]}
    page.evaluate(SETUP, {"kind": "hex", "view": view(position, ["Black", "White"])})
    assert label(page, "b3") == "b3: Black stone, last move"
    actions = page.evaluate(
        "async (p) => (await import('/static/js/games/registry.js')).kindOf('hex').actions(p)"
        ".map((a) => a.move)",
        position,
    )
    assert actions == ["swap"]


def test_tanbo_roots_legal_points_and_removals(page: Page) -> None:
    state = tanbo.new_game()
    legal = [tanbo.format_move(m) for m in state.legal_moves()]
    assert len(legal) == 24
    page.evaluate(
        SETUP, {"kind": "tanbo", "view": view(position_of(state, "tanbo", legal), ["Black", "White"])}
    )
    assert page.locator('[role="gridcell"]').count() == 361
    assert label(page, "A19") == "A19: Black stone, root of 1 stone"
    assert label(page, "A18") == "A18: empty, legal for Black"
    assert label(page, "A1") == "A1: White stone, root of 1 stone"
    assert page.locator(".legal-dot").count() == 24
    assert targets(page) == set(legal)
    click(page, "K10")
    assert "touch exactly one stone" in page.inner_text("#hint")
    click(page, "B19")
    assert moves(page) == [["B19", False]]

    # A random game up to its first move that removes a root (not the mover's own).
    rng = random.Random(7)
    before = state
    after = state
    while not after.removed or after.current_root_removed:
        before, after = after, after.play(rng.choice(after.legal_moves()))
    legal = [tanbo.format_move(m) for m in after.legal_moves()]
    position = position_of(after, "tanbo", legal)
    placed = tanbo.format_move(after.last_move)
    removed = [tanbo.format_move(tanbo.Place(p)) for p in after.removed]
    position["last"] = {"team": after.last_player + 1, "move": placed, "points": [after.last_move.point],
                        "removed": list(after.removed)}  # fmt: skip
    page.evaluate(
        SETUP,
        {"kind": "tanbo", "view": {**view(position, ["Black", "White"]), "previous": list(before.cells)}},
    )
    assert label(page, placed).endswith(", last move")
    for name in removed:
        assert label(page, name).startswith(f"{name}: empty, removed by the last move")
    gone = before.cells[after.removed[0]]
    assert page.locator(f'.removed[data-team="{gone}"]').count() == len(removed)
    # The root lines: one segment per pair of neighbouring Black stones.
    pairs = sum(
        (p % 19 < 18 and after.cells[p + 1] == 1) + (p + 19 < 361 and after.cells[p + 19] == 1)
        for p, c in enumerate(after.cells)
        if c == 1
    )
    drawn = page.locator('.root-line[data-team="1"]').get_attribute("d")
    assert pairs > 0 and str(drawn).count("M") == pairs


def test_amazons_moves_generated_in_the_page_are_the_cores(page: Page) -> None:
    """Move events leave the legal moves out for Amazons; the page generates them from the board."""
    rng = random.Random(7)
    for _ in range(6):
        state = amazons.new_game()
        for _ in range(rng.randrange(0, 60)):
            legal_moves = state.legal_moves()
            if not legal_moves:
                break
            state = state.play(rng.choice(legal_moves))
        position = position_of(state, "amazons", [])
        del position["legal"]
        generated = page.evaluate(
            """async (position) => {
                const { legalTree, squareName } = await import('/static/js/games/amazons.js');
                const out = [];
                const name = (p) => squareName(p, 10);
                for (const [from, tos] of legalTree(position))
                    for (const [to, arrows] of tos)
                        for (const arrow of arrows) out.push(`${name(from)}-${name(to)}/${name(arrow)}`);
                return out;
            }""",
            position,
        )
        expected = [amazons.format_move(m) for m in state.legal_moves()]
        assert sorted(generated) == sorted(expected) and len(set(generated)) == len(generated)


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def assert_on(page: Page, mark: str, name: str) -> None:
    """The mark's centre is the centre of cell `name` on the screen."""
    (x, y), (cx, cy) = centre_of(page, mark), centre_of(page, f'[role="gridcell"][aria-label^="{name}:"]')
    assert abs(x - cx) < 0.5 and abs(y - cy) < 0.5, f"{mark} at {x:.1f},{y:.1f}; {name} at {cx:.1f},{cy:.1f}"


def test_last_move_marked_and_stones_lit_on_every_kind(page: Page) -> None:
    """Hex and Tanbo ring the last stone (lit, without shapes on a plain palette); Amazons tints the last
    move's from, to and arrow squares."""
    state = hex.new_game(5).play(hex.parse_move("b3", 5))
    position = position_of(state, "hex", [hex.format_move(m, 5) for m in state.legal_moves()])
    position["last"] = {"team": 1, "move": "b3", "points": [11]}
    plain = {**view(position, ["Black", "White"]), "palette": "classic/plain"}  # no shapes on the stones
    page.evaluate(SETUP, {"kind": "hex", "view": plain})
    assert_on(page, ".last-move", "b3")
    assert page.locator(".last-move").get_attribute("data-ink") == "#ffffff"  # white on the black stone
    fill = page.locator(".stone circle").evaluate("(c) => getComputedStyle(c).fill")
    assert fill.startswith('url("#') and page.locator(".stone path, .stone text").count() == 0

    state = tanbo.new_game().play(tanbo.parse_move("B19"))
    position = position_of(state, "tanbo", [])
    position["last"] = {"team": 1, "move": "B19", "points": [tanbo.parse_point("B19", 19)]}
    page.evaluate(SETUP, {"kind": "tanbo", "view": view(position, ["Black", "White"], can_play=False)})
    assert_on(page, ".last-move", "B19")
    assert page.locator(".stone path").count() == page.locator(".stone").count()  # default palette: shapes

    state = amazons.new_game().play(amazons.parse_move("d1-d5/g8"))
    position = position_of(state, "amazons", [])
    position["last"] = {"team": 1, "move": "d1-d5/g8", "points": [3, 43, 76]}
    page.evaluate(SETUP, {"kind": "amazons", "view": view(position, ["White", "Black"], can_play=False)})
    for mark, name in ((".last-from", "d1"), (".last-to", "d5"), (".last-arrow", "g8")):
        assert_on(page, mark, name)
