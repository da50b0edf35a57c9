"""Sabaki's SGF parser (@sabaki/sgf, from npm) reads Miai's clock records as Miai's own reader does: the time
system (TM, OT) and the time left after each move (BL/WL, OB/OW, MK/MV), in Go and in the other kinds; and
the game information of a finished team game: its result (RE, MO), dates (DT) and every player (MU).

The package is installed once into tests/artifacts/npm (git-ignored). Without Node.js and npm the test skips,
except under CI=true, where it fails."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

import pytest

from miai.core.clock import ClockMode, TimeControl
from miai.core.go import PASS, RESIGN, Place, Rules, new_game
from miai.core.hex import new_game as new_hex
from miai.core.twoplayer import Place as Cell
from miai.formats.sgf import encode_dates, parse_sgf
from miai.formats.sgf.games import dump_game
from miai.formats.sgf.go import dump_go, load_go
from miai.formats.sgf.times import TimeLeft, TimeSystem
from tests.conftest import REPO, need

PACKAGE = "@sabaki/sgf@3.4.7"
CACHE = REPO / "tests" / "artifacts" / "npm"
# Prints, for each file, the properties of every node of its main line as Sabaki parsed them.
SCRIPT = """
const path = require('path')
const sgf = require(path.join(process.argv[1], 'node_modules', '@sabaki', 'sgf'))
const out = process.argv.slice(2).map(file => {
  const line = []
  for (let node = sgf.parseFile(file)[0]; node; node = node.children[0]) line.push(node.data)
  return line
})
console.log(JSON.stringify(out))
"""
# Prints Sabaki's reading of each DT value given ([year, month, day] per date), and its own writing of them.
DATES = """
const path = require('path')
const sgf = require(path.join(process.argv[1], 'node_modules', '@sabaki', 'sgf'))
const dates = process.argv.slice(2).map(text => sgf.parseDates(text))
console.log(JSON.stringify({dates, written: dates.map(d => sgf.stringifyDates(d))}))
"""


@pytest.fixture(scope="module")
def sabaki() -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    need(node is not None and npm is not None, "Node.js and npm are not installed")
    assert npm is not None
    if not (CACHE / "node_modules" / "@sabaki" / "sgf" / "package.json").exists():
        CACHE.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="npm-", dir=CACHE.parent))
        try:
            command = [npm, "install", "--prefix", str(tmp), "--no-audit", "--no-fund", "--loglevel=error"]
            done = subprocess.run(
                [*command, PACKAGE], capture_output=True, text=True, timeout=300, check=False
            )
            if done.returncode == 0:  # whole or not at all: a broken install is never left in the cache
                shutil.rmtree(CACHE, ignore_errors=True)
                tmp.rename(CACHE)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        need(done.returncode == 0, f"npm could not install {PACKAGE}: {done.stderr.strip()[-300:]}")
    return CACHE


def sabaki_main_lines(prefix: Path, files: list[Path]) -> list[list[dict[str, list[str]]]]:
    node = shutil.which("node")
    assert node is not None
    command = [node, "-e", SCRIPT, str(prefix), *map(str, files)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def records() -> dict[str, bytes]:
    byoyomi = TimeSystem.of(TimeControl(600, ClockMode.BYOYOMI, main=300, periods=5, period=30))
    fischer = TimeSystem.of(TimeControl(600, ClockMode.FISCHER, main=180, increment=2.5))
    assert byoyomi is not None and fischer is not None
    two = new_game(9, Rules(komi=(0.0, 6.5)))
    for point in (40, 30, 50, 32):
        two = two.play(Place(point))
    two = two.play(PASS).play(RESIGN)
    three = new_game(9, colours=3)
    for point in (0, 1, 2, 9, 10):
        three = three.play(Place(point))
    hex_game = new_hex(5).play(Cell(0)).play(Cell(24)).play(Cell(12))
    return {
        "byo-yomi": dump_go(two, byoyomi.properties(), times={
            1: TimeLeft(0, 287.125), 2: TimeLeft(1, 30, 5), 3: TimeLeft(0, 30, 4), 4: TimeLeft(1, 30, 5),
            5: TimeLeft(0, 30, 3),
        }),
        "fischer": dump_go(two, fischer.properties(), times={1: TimeLeft(0, 170.5), 2: TimeLeft(1, 181.75)}),
        "three colours": dump_go(three, byoyomi.properties(), times={
            1: TimeLeft(0, 290), 2: TimeLeft(1, 280.5), 3: TimeLeft(2, 30, 4), 4: TimeLeft(0, 277),
            5: TimeLeft(1, 30, 5),
        }),
        "hex": dump_game("hex", hex_game, fischer.properties(), {1: TimeLeft(0, 175), 2: TimeLeft(1, 0.001)}),
    }


def test_sabaki_reads_the_time_properties_as_miai_does(sabaki: Path, tmp_path: Path) -> None:
    chosen = records()
    files = []
    for name, data in chosen.items():
        files.append(tmp_path / f"{name}.sgf")
        files[-1].write_bytes(data)
    seen = sabaki_main_lines(sabaki, files)
    for (name, data), line in zip(chosen.items(), seen, strict=True):
        ours = [node.properties for node in parse_sgf(data)[0].main_line()]
        assert line == ours, name  # every property of every node, the time ones included
    byoyomi, fischer, three, hex_line = seen
    assert (byoyomi[0]["TM"], byoyomi[0]["OT"]) == (["300"], ["5x30 byo-yomi"])
    assert [{p: v for p, v in n.items() if p in ("BL", "WL", "OB", "OW")} for n in byoyomi[1:]] == [
        {"BL": ["287.125"]}, {"WL": ["30"], "OW": ["5"]}, {"BL": ["30"], "OB": ["4"]},
        {"WL": ["30"], "OW": ["5"]}, {"BL": ["30"], "OB": ["3"]}, {},
    ]
    assert (fischer[0]["TM"], fischer[0]["OT"]) == (["180"], ["2.5 fischer"])
    assert (fischer[1]["BL"], fischer[2]["WL"]) == (["170.5"], ["181.75"])
    assert (three[3]["MK"], three[3]["MV"]) == (["2:30"], ["2:4"])
    assert hex_line[2]["WL"] == ["0.001"]
    assert load_go(chosen["three colours"]).times[3] == TimeLeft(2, 30, 4)


def test_sabaki_reads_the_result_dates_and_every_player_of_a_team_game(sabaki: Path, tmp_path: Path) -> None:
    state = new_game(5, Rules(komi=(0.0, 0.0, 0.0)), colours=3, seats=[2, 2, 2])
    for point in (0, 4, 24):
        state = state.play(Place(point))
    state = state.agreed_draw()
    players = {0: ["Ann", "Miai, level 3"], 1: ["Bob", "Cy"], 2: ["Dee", "Eve"]}
    days = [date(2025, 12, 30), date(2025, 12, 31), date(2026, 1, 2), date(2026, 2, 5)]
    data = dump_go(state, {"DT": encode_dates(days)}, players=players)
    (tmp_path / "team.sgf").write_bytes(data)
    (root, *_), = sabaki_main_lines(sabaki, [tmp_path / "team.sgf"])
    assert root == parse_sgf(data)[0].root.properties
    assert (root["RE"], root["MO"]) == (["0"], ["agreed_draw:0=1=2"])
    assert root["MU"] == ["0:Ann", "0:Miai, level 3", "1:Bob", "1:Cy", "2:Dee", "2:Eve"]
    assert (root["PB"], root["PW"]) == (["Ann, Miai, level 3"], ["Bob, Cy"])
    assert load_go(data).players == players
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, "-e", DATES, str(sabaki), *root["DT"]], capture_output=True, text=True, timeout=60, check=True
    )
    seen = json.loads(done.stdout)
    assert seen["dates"] == [[[d.year, d.month, d.day] for d in days]]
    assert seen["written"] == root["DT"] == ["2025-12-30,31,2026-01-02,02-05"]  # Sabaki shortens alike
