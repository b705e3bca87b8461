"""A local HTTP server speaking the OpenAI API, for tests without network.

Routes: ``POST /v1/chat/completions`` and ``POST /v1/embeddings`` (the shapes the ``openai``
client parses). Answers are deterministic functions of the request, so the same request gets
the same answer (a model at temperature 0 as it should behave):

* decomposition (system prompt carries ``[claimaudit:decompose]``): one claim per sentence
  of the passage (``claims.decompose.split_sentences``), lightly paraphrased (leading "In <year>,"
  moved to the end, the final period dropped) so that span alignment is exercised; questions
  and opinions are ``outside_scope``;
* judge (``[claimaudit:judge]``): per claim, ``supported`` when its best evidence has cosine
  similarity >= ``support_threshold``, else ``unsupported``; policy ``"always_supported"``
  says ``supported`` for every claim (to test that rule conflicts are not overruled);
* embeddings: a hashed bag of words (each lower-cased word → a fixed pseudo-random unit
  vector seeded by its SHA-256; a text is the normalised sum), ``dim`` floats, so texts that
  share words are close.

Faults are injected per kind (``"decompose"``, ``"judge"``, ``"embeddings"``) with ``fail``
(queued, consumed one per request) or ``fail_always``: ``"429"``, ``"500"``, ``"timeout"``
(sleeps ``timeout_sleep_s`` before answering normally, past the client's timeout), any other
HTTP status as digits (``"401"``, ``"503"``),
``"malformed"`` (content that is not JSON), ``"refusal"`` (an apology as content),
``"wrong_schema"`` (JSON of the wrong shape), ``"length"`` (the answer cut in half with
``finish_reason: "length"``, as when ``max_tokens`` runs out). ``calls`` counts requests per kind
(faulty ones included); ``log`` keeps ``(kind, outcome, body)``.

Structured output: ``accepted_formats`` (None: every format) lists the ``response_format`` types
the server takes (``"prompted"`` stands for a request without the field); any other is answered
with ``format_rejection`` (status and body; by default what llama-cpp-python's server 0.3.36
answers to ``json_schema``: HTTP 500 with its request validation error), logged as outcome
``"format_rejected"``.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import re
import threading
import time
from collections import Counter, defaultdict, deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from claims.decompose import split_sentences

DECOMPOSE_TAG = "[claimaudit:decompose]"
JUDGE_TAG = "[claimaudit:judge]"
REFUSAL = "I'm sorry, but I can't help with that request."
#: llama-cpp-python 0.3.36's answer to ``response_format: {"type": "json_schema", ...}``.
LLAMA_CPP_PYTHON_REJECTION: tuple[int, dict[str, Any]] = (
    500,
    {
        "error": {
            "message": "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
            "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}]",
            "type": "internal_server_error",
        }
    },
)
_OPINION = re.compile(r"\b(I think|I believe|in my opinion|you should|lovely|wonderful|best)\b", re.I)
_LEADING_YEAR = re.compile(r"^In (\d{4}), (.+)$", re.S)
_WORD = re.compile(r"\w+", re.U)


def _tokens(text: str) -> int:
    """Rough token count (4 characters per token, at least 1)."""
    return max(1, len(text) // 4)


def fake_embedding(text: str, dim: int) -> np.ndarray:
    """Deterministic unit vector of ``text`` (hashed bag of words), float32 ``(dim,)``."""
    acc = np.zeros(dim, dtype=np.float64)
    for word in _WORD.findall(text.lower()) or [""]:
        seed = int.from_bytes(hashlib.sha256(word.encode("utf-8")).digest()[:8], "little")
        acc += np.random.default_rng(seed).standard_normal(dim)
    norm = np.linalg.norm(acc)
    return (acc / norm).astype(np.float32)


def fake_decomposition(passage: str) -> dict[str, Any]:
    claims = []
    for s, e in split_sentences(passage):
        sentence = passage[s:e].strip()
        outside = sentence.endswith("?") or bool(_OPINION.search(sentence))
        text = sentence.rstrip(".")
        m = _LEADING_YEAR.match(text)
        if m and not outside:
            body = m.group(2)
            text = f"{body[:1].upper()}{body[1:]} in {m.group(1)}"
        claims.append({"text": text, "kind": "outside_scope" if outside else "material", "ambiguous": False})
    return {"claims": claims}


def fake_judgement(payload: dict[str, Any], *, policy: str, threshold: float) -> dict[str, Any]:
    verdicts = []
    for item in payload["claims"]:
        evidence = item.get("evidence") or []
        best = max(evidence, key=lambda e: e["similarity"], default=None)
        if policy == "always_supported" or (best is not None and best["similarity"] >= threshold):
            ref = best["id"] if best is not None else "none"
            verdicts.append({"id": item["id"], "verdict": "supported", "reason": f"{ref} states it"})
        else:
            verdicts.append({"id": item["id"], "verdict": "unsupported", "reason": "no evidence states it"})
    return {"verdicts": verdicts}


class FakeOpenAI:
    """The server; ``start()`` it, use ``base_url``, ``stop()`` it (or use it as a context manager)."""

    def __init__(self, *, dim: int = 1536, host: str = "127.0.0.1", port: int = 0) -> None:
        self.dim = dim
        self.judge_policy = "threshold"
        self.support_threshold = 0.5
        self.timeout_sleep_s = 3.0
        self.accepted_formats: set[str] | None = None
        self.format_rejection: tuple[int, dict[str, Any]] = LLAMA_CPP_PYTHON_REJECTION
        self.calls: Counter[str] = Counter()
        self.log: list[tuple[str, str, dict[str, Any]]] = []
        self._faults: dict[str, deque[str]] = defaultdict(deque)
        self._always: dict[str, str] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((host, port), self._handler())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    # -- control ---------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reset(self) -> None:
        """Forget counts, log and faults; back to the default judge policy."""
        with self._lock:
            self.calls.clear()
            self.log.clear()
            self._faults.clear()
            self._always.clear()
            self.judge_policy = "threshold"
            self.accepted_formats = None
            self.format_rejection = LLAMA_CPP_PYTHON_REJECTION

    def fail(self, kind: str, *faults: str) -> None:
        """Queue ``faults`` for the next requests of ``kind`` (one per request)."""
        with self._lock:
            self._faults[kind].extend(faults)

    def fail_always(self, kind: str, fault: str | None) -> None:
        """Answer every request of ``kind`` with ``fault`` (None: stop)."""
        with self._lock:
            if fault is None:
                self._always.pop(kind, None)
            else:
                self._always[kind] = fault

    def count(self, kind: str, outcome: str | None = None) -> int:
        """Requests of ``kind`` (optionally only those that ended with ``outcome``, e.g. ``"ok"``)."""
        with self._lock:
            return sum(1 for k, o, _ in self.log if k == kind and (outcome is None or o == outcome))

    # -- serving ---------------------------------------------------------------------------
    def _next_fault(self, kind: str, body: dict[str, Any]) -> str | None:
        """Count and log the request (on arrival) and return the fault to inject, if any (a
        rejected ``response_format`` first, without consuming a queued fault)."""
        with self._lock:
            self.calls[kind] += 1
            fmt = (body.get("response_format") or {}).get("type", "prompted")
            if (
                kind != "embeddings"
                and self.accepted_formats is not None
                and fmt not in self.accepted_formats
            ):
                self.log.append((kind, "format_rejected", body))
                return "format_rejected"
            fault = self._faults[kind].popleft() if self._faults[kind] else self._always.get(kind)
            self.log.append((kind, fault or "ok", body))
            return fault

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/").endswith("/chat/completions"):
                    fake._chat(self, body)
                elif self.path.rstrip("/").endswith("/embeddings"):
                    fake._embeddings(self, body)
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})

        return Handler

    def _fault_reply(self, handler: Any, kind: str, fault: str | None, body: dict[str, Any]) -> bool:
        """Send the error of ``fault`` if it is an HTTP-level one; True when a reply was sent."""
        if fault == "format_rejected":
            handler._send(*self.format_rejection)
            return True
        if fault == "429":
            handler._send(429, {"error": {"message": "Rate limit reached (fake)", "type": "rate_limit"}})
            return True
        if fault == "500":
            handler._send(
                500, {"error": {"message": "upstream model crashed (fake)", "type": "server_error"}}
            )
            return True
        if fault is not None and fault.isdigit():  # any other HTTP status, e.g. "401", "503"
            handler._send(int(fault), {"error": {"message": f"HTTP {fault} (fake)", "type": "fake"}})
            return True
        if fault == "timeout":  # answer too late (the caller then answers normally)
            time.sleep(self.timeout_sleep_s)
        return False

    def _chat(self, handler: Any, body: dict[str, Any]) -> None:
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        user = next((m["content"] for m in messages if m.get("role") == "user"), "")
        kind = "decompose" if DECOMPOSE_TAG in system else "judge" if JUDGE_TAG in system else "chat"
        fault = self._next_fault(kind, body)
        if self._fault_reply(handler, kind, fault, body):
            return
        if kind == "decompose":
            answer: Any = fake_decomposition(user.split("Passage:\n", 1)[-1])
        elif kind == "judge":
            payload = json.loads(user.split("Claims with their evidence:\n", 1)[-1])
            answer = fake_judgement(payload, policy=self.judge_policy, threshold=self.support_threshold)
        else:
            answer = {"echo": user}
        content = json.dumps(answer)
        if fault == "malformed":
            content = content[: len(content) // 2] + " ..."
        elif fault == "refusal":
            content = REFUSAL
        elif fault == "wrong_schema":
            content = json.dumps({"result": "ok"})
        elif fault == "length":
            content = content[: len(content) // 2]
        prompt = sum(len(m.get("content") or "") for m in messages)
        handler._send(
            200,
            {
                "id": f"chatcmpl-fake-{self.calls[kind]}",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content, "refusal": None},
                        "finish_reason": "length" if fault == "length" else "stop",
                        "logprobs": None,
                    }
                ],
                "usage": {
                    "prompt_tokens": max(1, prompt // 4),
                    "completion_tokens": _tokens(content),
                    "total_tokens": max(1, prompt // 4) + _tokens(content),
                },
            },
        )

    def _embeddings(self, handler: Any, body: dict[str, Any]) -> None:
        kind = "embeddings"
        fault = self._next_fault(kind, body)
        if self._fault_reply(handler, kind, fault, body):
            return
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        data = []
        for i, text in enumerate(texts):
            vec = fake_embedding(text, self.dim)
            if fault in ("malformed", "wrong_schema", "refusal"):
                vec = vec[: self.dim // 2]  # wrong dimension
            emb: Any = (
                base64.b64encode(vec.astype("<f4").tobytes()).decode("ascii")
                if body.get("encoding_format") == "base64"
                else [float(x) for x in vec]
            )
            data.append({"object": "embedding", "index": i, "embedding": emb})
        tokens = sum(_tokens(t) for t in texts)
        handler._send(
            200,
            {
                "object": "list",
                "data": data,
                "model": body.get("model", "fake-embedding"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )
