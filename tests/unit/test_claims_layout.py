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


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_module(dotted: str) -> bool:
    """``dotted`` names a module or package of the source tree ("claims.verdict.order")."""
    where = CLAIMS.parent.joinpath(*dotted.split("."))
    return where.with_suffix(".py").is_file() or where.is_dir()


def private_imports(path: Path) -> list[str]:
    """``file:line module.name`` of each private name ``path`` takes from a ``claims`` module:
    imported by name (``from claims.x import _f``, or relative: ``from .x import _f``), or read
    as an attribute of a module imported from ``claims`` (``from claims.verdict import alike``
    then ``alike._f``; ``import claims.verdict.alike as m`` then ``m._f``). Dunder names
    (``__version__``) are public."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    modules: set[str] = set()  # local names bound to a claims module (or package)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] == "claims"):
            where = "." * node.level + (node.module or "")
            found += [f"{path.name}:{node.lineno} {where}.{a.name}" for a in node.names if _private(a.name)]
            modules |= {a.asname or a.name for a in node.names if _is_module(f"{node.module}.{a.name}")}
        elif isinstance(node, ast.Import):
            modules |= {
                a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] == "claims"
            }
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_the_package_has_modules() -> None:
    assert len(MODULES) > 50  # the rules below read something


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(CLAIMS)))
def test_no_module_is_over_the_line_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(CLAIMS)} has {lines} lines"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(CLAIMS)))
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    found = private_imports(path)
    why = "make the name public (no underscore, in __all__, documented) or keep it in its module"
    assert not found, f"private names taken from other modules: {found}; {why}"


def test_a_private_import_is_found(tmp_path: Path) -> None:
    """The reader itself, on a module written here: every way of taking a private name from a
    ``claims`` module is found, with its line; other packages' names and dunders are not."""
    module = tmp_path / "m.py"
    module.write_text(
        "from claims.verdict.alike import WORD, _one_place\n"
        "from os import _exit\n"
        "from .alike import _said\n"
        "from claims import __version__\n"
        "import claims.verdict.alike as m\n"
        "from claims.verdict import order\n"
        "def f():\n"
        "    from claims.lexicon import _rows\n"
        "    return m._one_place, order._pairs, WORD._x, __version__\n"
    )
    assert sorted(private_imports(module)) == [
        "m.py:1 claims.verdict.alike._one_place",
        "m.py:3 .alike._said",
        "m.py:8 claims.lexicon._rows",
        "m.py:9 m._one_place",
        "m.py:9 order._pairs",
    ]
