"""The API process loads neither the LLM client nor model weights (STYLE.md import rules)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_api_imports_no_openai_and_no_model_code() -> None:
    code = (
        "import sys, api.main\n"
        "heavy = {'openai', 'torch', 'sentence_transformers', 'transformers', 'spacy'}\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in heavy)\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == ""


def test_db_and_claims_do_not_import_the_service_layers() -> None:
    code = (
        "import sys, db.repository, db.models, claims.audit\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'api', 'workers', 'celery', 'fastapi'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == ""
