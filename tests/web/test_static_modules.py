"""The browser UI's ES modules (web/static/js, no build step) stay small and their imports resolve: every
`import { name } from './x.js'` names a file that exists and exports `name` (a broken import is a page that
never draws, and the browser says so only at run time)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

JS = REPO / "src" / "miai" / "web" / "static" / "js"
MOST_LINES = 400  # one concern a module: a page's entry wires modules (pages/game.js and gamepage/)
IMPORT = re.compile(r"^import\s*\{([^}]*)\}\s*from\s*'([^']+)';", re.MULTILINE)
MODULES = sorted(JS.rglob("*.js"))


def exports(module: Path) -> set[str]:
    text = module.read_text(encoding="utf-8")
    return set(re.findall(r"^export (?:async )?(?:function\*?|class|const|let) (\w+)", text, re.MULTILINE))


def test_the_modules_are_found() -> None:
    names = {m.relative_to(JS).as_posix() for m in MODULES}
    assert {"app.js", "pages/game.js", "gamepage/feed.js", "games/registry.js"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.relative_to(JS).as_posix())
def test_a_module_is_small_and_its_imports_resolve(module: Path) -> None:
    text = module.read_text(encoding="utf-8")
    lines = text.count("\n")
    assert lines <= MOST_LINES, f"{lines} lines: split it by concern (at most {MOST_LINES})"
    for names, source in IMPORT.findall(text):
        target = (module.parent / source).resolve()
        assert target.is_file(), f"imports {source}, which is not there"
        missing = {n.strip() for n in names.split(",") if n.strip()} - exports(target)
        assert not missing, f"imports {sorted(missing)} from {source}, which does not export them"
