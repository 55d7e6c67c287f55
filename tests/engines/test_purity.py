"""Engines are pure (docs/design.md §3): no Django, no clock, no global random, no network."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINES = Path(__file__).resolve().parents[2] / "engines"
FORBIDDEN = {
    "django", "channels", "time", "datetime", "socket", "requests", "random",
    "secrets", "uuid", "subprocess", "urllib",
}
ALLOWED = {
    "chance.py": {"random"},    # the chance kit: every draw of every ruleset
    "apps.py": {"django"},      # the Django app config, if any
}
SOURCES = sorted(ENGINES.rglob("*.py"))


def imported_modules(tree: ast.AST) -> set[str]:
    """Top-level names of every module imported anywhere in ``tree`` (including __import__)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in {"__import__", "import_module"} and node.args
              and isinstance(node.args[0], ast.Constant)):
            names.add(str(node.args[0].value).split(".")[0])
    return names


def test_engines_folder_has_sources():
    assert any(path.name == "base.py" for path in SOURCES)
    assert any(path.parent.name == "mafie" for path in SOURCES)   # a ruleset's folder is scanned too


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ENGINES)) for p in SOURCES])
def test_engine_module_imports_nothing_impure(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    allowed = ALLOWED.get(path.name, set()) if path.parent == ENGINES else set()
    impure = (imported_modules(tree) & FORBIDDEN) - allowed
    assert not impure, f"{path.relative_to(ENGINES.parent)} imports {sorted(impure)}"


def test_the_scan_sees_imports():
    tree = ast.parse("import os.path\nfrom time import monotonic\n"
                     "def f():\n    import random\n    __import__('django.conf')\n")
    assert imported_modules(tree) == {"os", "time", "random", "django"}
