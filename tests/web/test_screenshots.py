"""The screenshot script keeps working: both games end as planned and their pages show the territory."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.web.make_screenshots import make


def test_screenshot_script(browser: Browser, server: str, artifacts: Path) -> None:
    games = make(browser, server, artifacts / "screenshots")
    big, four = games["finished-19x19"], games["four-colours-9x9"]
    assert big["options"]["size"] == 19 and big["status"] == "finished"
    assert big["result"]["reason"] == "passes"
    assert four["options"]["teams"] == 4 and four["result"]["reason"] == "passes"
    totals = {s["team"]: s["total"] for s in four["result"]["scores"]}
    assert totals == {1: 20, 2: 12, 3: 12, 4: 24}  # the map in make_screenshots.FOUR_COLOURS, B3 captured
    assert sorted(set(four["result"]["territory"])) == [0, 1, 2, 3, 4]
    for name in ("finished-19x19.png", "four-colours-9x9.png"):
        png = (artifacts / "screenshots" / name).read_bytes()
        assert png.startswith(b"\x89PNG") and len(png) > 10_000
