"""Where the local stack keeps its files: the project root and the state folder."""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    """The repository root (editable install), else the current directory."""
    here = Path(__file__).resolve().parent.parent
    if (here / "pyproject.toml").exists():
        return here
    return Path.cwd()


def state_dir() -> Path:
    """Folder for data, pid files and logs: ``$CLAIMAUDIT_STATE_DIR`` or ``<project>/.claimaudit``."""
    env = os.environ.get("CLAIMAUDIT_STATE_DIR")
    path = Path(env) if env else project_root() / ".claimaudit"
    path.mkdir(parents=True, exist_ok=True)
    return path
