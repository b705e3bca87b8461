"""``load_tool(name)``: a module of ``tools/`` (scripts, not a package) loaded by its path, under
its own name in ``sys.modules`` (so its dataclasses and pickles resolve), for the tests of its
pure parts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load_tool(name: str) -> ModuleType:
    """``tools/<name>.py`` as a module; ``sys.modules[name]`` holds it (loaded once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
