"""The screenshot script keeps working: two of its games end as planned, and their pictures at desktop and
phone size show the whole board, its stones in the teams' colours and the territory."""

from __future__ import annotations

import base64
import struct
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from tests.web.make_screenshots import VIEWPORTS, make
from tests.web.screenshot_scenes import Shot
from tests.web.ui import DESKTOP, PHONE

# The classic palette (static/js/palette.js) and the board's wood (static/app.css).
WOOD = "#dcb35c"
BLACK, WHITE, RED, BLUE = "#111111", "#f4f2ec", "#d32f2f", "#1e63c6"

# Decodes the PNG with the browser's own decoder, finds the board (the bounding box of the wood's colour) and
# counts the pixels of each colour inside it, within a small tolerance for antialiasing.
MEASURE = """async ([data, wood, colours]) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + data;
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.width, image.height];
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const near = (i, [r, g, b]) =>
    Math.abs(pixels[i] - r) <= 8 && Math.abs(pixels[i + 1] - g) <= 8 && Math.abs(pixels[i + 2] - b) <= 8;
  const board = { count: 0, left: Infinity, top: Infinity, right: -1, bottom: -1 };
  const distinct = new Set();
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = 4 * (y * image.width + x);
      if (distinct.size < 1000) distinct.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      if (near(i, rgb(wood))) {
        board.count++;
        board.left = Math.min(board.left, x); board.right = Math.max(board.right, x);
        board.top = Math.min(board.top, y); board.bottom = Math.max(board.bottom, y);
      }
    }
  }
  const counts = colours.map(rgb).map((colour) => {
    let count = 0;
    for (let y = board.top; y <= board.bottom; y++) {
      for (let x = board.left; x <= board.right; x++) count += near(4 * (y * image.width + x), colour);
    }
    return count;
  });
  return { width: image.width, height: image.height, distinct: distinct.size, board, counts };
}"""


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def measure(browser: Browser, png: bytes, colours: list[str]) -> dict[str, Any]:
    page = browser.new_page()
    try:
        result: dict[str, Any] = page.evaluate(MEASURE, [base64.b64encode(png).decode(), WOOD, colours])
    finally:
        page.close()
    return result


def check_picture(browser: Browser, path: Path, viewport: Any, size: int, stones: dict[str, int]) -> None:
    """The picture is the viewport, the whole board is in it and fills most of its width or height, and the
    board shows each colour's stones (at least `stones[colour]` stones' worth of pixels of that colour)."""
    png = path.read_bytes()
    window = (viewport["width"], viewport["height"])
    assert png_size(png) == window, path.name
    seen = measure(browser, png, list(stones))
    assert (seen["width"], seen["height"]) == window
    assert seen["distinct"] > 100, f"{path.name} is nearly blank"
    board = seen["board"]
    width, height = board["right"] - board["left"], board["bottom"] - board["top"]
    assert board["count"] > 0, f"{path.name}: no board"
    edges = (board["left"], board["top"], window[0] - 1 - board["right"], window[1] - 1 - board["bottom"])
    assert min(edges) > 0, f"{path.name}: the board is cut off at the picture's edge: {board}"
    big = min(width, height) > 0.85 * min(window)
    assert big and board["count"] > 0.3 * width * height, f"{path.name}: {board}"
    square = width / (size + 2)  # the grid and a margin for the coordinates
    for (colour, least), count in zip(stones.items(), seen["counts"], strict=True):
        # A stone's disc is about 0.6 of a grid square; marks on it and antialiasing take some of that.
        assert count > least * 0.3 * square**2, f"{path.name}: {count} pixels of {colour} on the board"


def test_screenshot_script(browser: Browser, server: str, artifacts: Path) -> None:
    """Two of the scenes at both sizes (all of them take a minute or more: `python3 dev.py screenshots`)."""
    shots = make(browser, server, artifacts / "screenshots", only=["finished-19x19", "four-colours-9x9"])
    assert sorted(shots) == ["finished-19x19", "four-colours-9x9"]
    big, four = (game_of(shots[name][0]) for name in ("finished-19x19", "four-colours-9x9"))
    assert big["options"]["size"] == 19 and big["status"] == "finished"
    assert big["result"]["reason"] == "passes"
    assert four["options"]["teams"] == 4 and four["result"]["reason"] == "passes"
    totals = {s["team"]: s["total"] for s in four["result"]["scores"]}
    assert totals == {1: 20, 2: 12, 3: 12, 4: 24}  # the map in screenshot_scenes.FOUR_COLOURS, B3 captured
    assert sorted(set(four["result"]["territory"])) == [0, 1, 2, 3, 4]
    for size, viewport in VIEWPORTS.items():
        pictures = {name: shots[name][1][size] for name in shots}
        assert pictures["finished-19x19"].name == f"finished-19x19-{size}.png"
        check_picture(browser, pictures["finished-19x19"], viewport, 19, {BLACK: 36, WHITE: 36})
        four_stones = {BLACK: 12, WHITE: 6, RED: 6, BLUE: 9}
        check_picture(browser, pictures["four-colours-9x9"], viewport, 9, four_stones)


def game_of(shot: Shot) -> Any:
    """The game a shot of a game page shows, as the API reports it to the shot's viewer."""
    return shot.viewer.game(int(shot.path.rsplit("/", 1)[1]))


def test_the_script_uses_the_sizes_of_the_browser_tests() -> None:
    assert VIEWPORTS == {"desktop": DESKTOP, "phone": PHONE}
