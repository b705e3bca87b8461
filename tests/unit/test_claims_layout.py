"""The engine package's layout: no module of ``claims/`` over 500 lines, and no private name (a
leading underscore) imported from one ``claims`` module into another: what a module shares is
public, documented and in its ``__all__``. Both are read from the source files, so a new long
module or a new private import fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLAIMS = Path(__file__).resolve().parents[2] / "claims"
#: the longest a module of ``claims/`` may be, in lines (blank lines and docstrings counted)
MAX_MODULE_LINES = 500
MODULES = sorted(CLAIMS.rglob("*.py"))


def private_imports(path: Path) -> list[str]:
    """``module.name`` of each private name ``path`` imports from a ``claims`` module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "claims"
        for alias in node.names
        if alias.name.startswith("_")
    ]


def test_the_package_has_modules() -> None:
    assert len(MODULES) > 50  # the rules below read something


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(CLAIMS)))
def test_no_module_is_over_the_line_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(CLAIMS)} has {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(CLAIMS)))
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    assert private_imports(path) == []


def test_a_private_import_is_found(tmp_path: Path) -> None:
    """The reader itself: it finds a private import, plain or relative to the package."""
    module = tmp_path / "m.py"
    module.write_text("from claims.verdict.alike import WORD, _one_place\nfrom os import _exit\n")
    assert private_imports(module) == ["claims.verdict.alike._one_place"]
