"""The screenshots in docs/screenshots: each page of the web UI at desktop (1280x800) and phone (390x844).

    python3 dev.py screenshots [OUTPUT_DIR]                 (default: docs/screenshots)
    .venv/bin/python tests/web/make_screenshots.py [OUTPUT_DIR]

Starts a Miai server on a fresh database, sets up the states worth showing through the HTTP API as bots would
(tests/web/screenshot_scenes.py: fixed players, fixed moves), then opens each page in headless Chromium as one
of its players and saves NAME-desktop.png and NAME-phone.png. tests/web/test_screenshots.py runs a few of the
scenes the same way into tests/artifacts so CI keeps this working.
"""

from __future__ import annotations

import base64
import struct
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script from a checkout: make `tests` and `miai` importable
    ROOT = Path(__file__).resolve().parents[2]
    sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.web.screenshot_scenes import SCENES, Cast, Shot
from tests.web.support import CHROMIUM_ARGS, PASSWORD, chromium_path, close_clients, miai_server

# tests/web/ui.py's DESKTOP and PHONE (ui.py imports Playwright, which this script first checks is installed).
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LARGE = 300_000  # bytes: a picture above this is reported


def capture(browser: Any, base: str, shot: Shot, out: Path) -> dict[str, Path]:
    """Open the shot's page as its viewer at each size and save it; the pictures by size."""
    saved = {}
    for size, viewport in VIEWPORTS.items():
        context = browser.new_context(
            base_url=base,
            viewport=viewport,
            device_scale_factor=1,
            has_touch=size == "phone",
            locale="en-GB",  # dates and times read the same on every machine
            timezone_id="UTC",
        )
        try:
            credentials = {"username": shot.viewer.username, "password": PASSWORD}
            login = context.request.post("/api/v1/session", data=credentials)
            assert login.ok, login.text()
            path = out / f"{shot.name}-{size}.png"
            png = photograph(context.new_page(), shot)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(compact(context.new_page(), png))
            saved[size] = path
        finally:
            context.close()
    return saved


def photograph(page: Any, shot: Shot) -> bytes:
    """Open the page, wait until it shows what the shot is for; what the window shows, as a PNG."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(30_000)
    page.goto(shot.path)
    if shot.press:
        page.click(shot.press)
    if shot.tab:
        page.click(shot.tab)
        expect(page.locator(shot.tab)).to_have_attribute("aria-selected", "true")
    ready = page.locator(shot.ready).first
    expect(ready).to_be_visible(timeout=60_000)
    if shot.ready_text:
        expect(ready).to_contain_text(shot.ready_text, timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    if shot.show:
        page.locator(shot.show).first.evaluate("(el, block) => el.scrollIntoView({ block })", shot.align)
    png: bytes = page.screenshot(animations="disabled", caret="hide")
    assert not errors, f"{shot.name} at {page.viewport_size}: the page raised {errors}"
    return png


# The pixels of a PNG as base64 RGB, decoded by the browser (Python has no PNG decoder of its own).
RGB = """async (data) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + data;
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.width, image.height];
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.drawImage(image, 0, 0);
  const rgba = context.getImageData(0, 0, image.width, image.height).data;
  const rgb = [];
  for (let i = 0; i < rgba.length; i += 4) rgb.push(String.fromCharCode(rgba[i], rgba[i + 1], rgba[i + 2]));
  return btoa(rgb.join(''));
}"""


def compact(blank: Any, png: bytes) -> bytes:
    """The same picture in a smaller PNG: every row unfiltered and deflated at the highest level. The boards'
    gradients are dithered, and Chromium's quick per-row filters make that noise cost a third more."""
    width, height = struct.unpack(">II", png[16:24])
    rgb = base64.b64decode(blank.evaluate(RGB, base64.b64encode(png).decode()))
    stride = 3 * width
    assert len(rgb) == stride * height
    rows = b"".join(b"\0" + rgb[y * stride : (y + 1) * stride] for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return png[:8] + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


Pictures = dict[str, tuple[Shot, dict[str, Path]]]  # shot name -> the shot, and its pictures by size


def make(browser: Any, base: str, out: Path, only: list[str] | None = None) -> Pictures:
    """Set up the scenes (all, or those named in `only`, in SCENES' order) on the server at `base` and save
    their pictures in `out`."""
    cast = Cast(base)
    done = {}
    for name, scene in SCENES.items():
        if only is None or name in only:
            for shot in scene(cast):  # photographed at once: running clocks show little time gone
                done[shot.name] = (shot, capture(browser, base, shot, out))
    return done


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    chromium = chromium_path(headless_shell=False)  # the pictures in the docs: what the browser draws
    if chromium is None:
        print("make_screenshots: Chromium is not installed (no /usr/bin/chromium, no chromium on PATH)")
        return 1
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("make_screenshots: the Python package playwright is not installed (pip install playwright)")
        return 1
    with tempfile.TemporaryDirectory() as tmp, miai_server(Path(tmp)) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            shots = make(browser, base, out)
        finally:
            browser.close()
            close_clients()
    paths = [path for _, pictures in shots.values() for path in pictures.values()]
    for path in paths:
        size = path.stat().st_size
        print(f"{path}  {size // 1024} KB{'  (large)' if size > LARGE else ''}")
    total = sum(path.stat().st_size for path in paths)
    print(f"{len(paths)} pictures of {len(shots)} views, {total // 1024} KB in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
