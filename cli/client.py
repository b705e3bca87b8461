"""HTTP client for the claimaudit API (contract: POST /audits, POST /audits/batch, GET /audits/{id}).

Batch submission with idempotency keys, then concurrent polling of the pending audits in
submission order. The client never validates audit content itself: the API is the one validator,
and its 422/413 messages become the ``error`` of rejected lines.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from cli.credentials import api_key_for

TERMINAL = frozenset({"done", "failed", "rejected"})
"""Audit statuses after which nothing changes."""
AUDIT_FIELDS = ("response", "references", "question", "metadata", "config")
"""Keys of an input line that go into the request body (others, like ``id``, stay local)."""
LINE_FIELDS = frozenset({"id", *AUDIT_FIELDS})
"""Keys a batch input line may have (anything else rejects the line, as the API would)."""


def transport_problem(value: Any, path: str = "") -> str | None:
    """Why ``value`` cannot travel as strict JSON to Postgres, or None.

    Catches what the API cannot even receive or store: NaN/±inf numbers (Python's ``json`` reads
    ``NaN``/``Infinity``, strict JSON and httpx refuse them) and NUL characters. Everything else
    is left to the API, the one validator.
    """
    where = path or "line"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{where}: {value!r} is not a finite number (not valid JSON)"
    if isinstance(value, str):
        return f"{where}: must not contain NUL characters (\\u0000)" if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            if "\x00" in str(key):
                return f"{sub!r}: keys must not contain NUL characters (\\u0000)"
            problem = transport_problem(item, sub)
            if problem:
                return problem
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = transport_problem(item, f"{path}[{i}]")
            if problem:
                return problem
    return None


class ApiError(RuntimeError):
    """The API answered something the contract does not allow (5xx, unexpected shape), or
    refused the key (401/403)."""


#: Longest the client waits on one 429 (seconds); it waits what ``Retry-After`` says up to this.
MAX_RETRY_AFTER = 60.0
#: 429 answers the client sits out in a row before it gives up.
MAX_RATE_LIMITED = 30


def retry_after(resp: httpx.Response) -> float:
    """Seconds to wait after a 429: ``Retry-After`` (whole seconds), 1 when absent or not a number,
    at most :data:`MAX_RETRY_AFTER`."""
    try:
        seconds = float(resp.headers.get("Retry-After", "1"))
    except ValueError:
        seconds = 1.0
    return min(max(seconds, 0.1), MAX_RETRY_AFTER)


def access_problem(resp: httpx.Response) -> str | None:
    """A readable message for a 401/403 answer (what to do about the key), else None."""
    if resp.status_code == 401:
        message = (
            f"the API refused the key ({error_message(resp)}): set CLAIMAUDIT_API_KEY, or run "
            "`claimaudit up` for the local stack's key"
        )
        return message + _foreign_api_hint(resp)
    if resp.status_code == 403:
        return f"the API key may not do this ({error_message(resp)})"
    return None


def _foreign_api_hint(resp: httpx.Response) -> str:
    """For a refused local key: a hint when the API on this loopback port was not started by
    this checkout (``claimaudit up`` keeps a live pid file): another clone's stack answers there
    and knows none of this checkout's keys."""
    from cli import stack
    from cli.credentials import ENV_KEY
    from workers.settings import is_loopback

    try:
        url = resp.request.url
    except RuntimeError:  # a response built without its request: nothing to say about the host
        return ""
    if os.environ.get(ENV_KEY) or not is_loopback(url.host) or stack.api_started_here():
        return ""
    return (
        f"; the API on port {url.port} was not started by this checkout (another clone's stack?): "
        "stop it there with `claimaudit down`, or start this one on another port "
        "(CLAIMAUDIT_API_PORT)"
    )


def poll_order(pending: Sequence[str], window: int, turn: int) -> tuple[list[str], int]:
    """The audits one polling round GETs, and the next ``turn``: the oldest ``window`` pending
    ones, then ``window`` of the others starting at ``turn`` (round robin), so every pending
    audit is seen within ``ceil((len(pending) - window) / window)`` rounds."""
    head, rest = list(pending[:window]), list(pending[window:])
    if not rest:
        return head, 0
    turn %= len(rest)
    return head + (rest[turn:] + rest[:turn])[:window], turn + window


def stage_moved(before: dict[str, Any] | None, doc: dict[str, Any]) -> bool:
    """The audit moved since the last look (another status or stage); False on the first look."""
    if before is None:
        return False
    return (before.get("status"), before.get("stage")) != (doc.get("status"), doc.get("stage"))


def audit_body(line: dict[str, Any]) -> dict[str, Any]:
    """The POST /audits body for one batch input line: the audit fields that are present."""
    return {k: line[k] for k in AUDIT_FIELDS if k in line}


def idempotency_key(line_id: str, body: dict[str, Any]) -> str:
    """Key for one input line: its id (first 100 chars) + sha256 of the canonical JSON body.

    The same line submitted again (same id, same content) maps to the same key, so the API
    returns the existing audit instead of creating a new one; an edited line gets a new key.
    """
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    prefix = line_id[:100].replace("\x00", "")  # the API refuses NUL in keys
    return f"{prefix}:{digest}"


def error_message(resp: httpx.Response) -> str:
    """A readable message from a FastAPI error response (``detail`` string or list of errors)."""
    try:
        data = resp.json()
    except ValueError:
        return f"HTTP {resp.status_code}: {resp.text[:500]}"
    detail = data.get("detail", data) if isinstance(data, dict) else data
    if isinstance(detail, list):
        parts = []
        for item in detail:
            if isinstance(item, dict):
                loc = ".".join(str(p) for p in item.get("loc", []) if p != "body")
                msg = item.get("msg", "")
                parts.append(f"{loc}: {msg}" if loc else str(msg))
            else:
                parts.append(str(item))
        return "; ".join(parts)
    return str(detail)


@dataclass
class Submission:
    """Outcome of submitting one audit: an id, or a rejection message."""

    index: int
    audit_id: str | None
    status: str
    error: str | None = None


#: Longest long poll the API holds (``GET /audits/{id}?wait=``, ``api.routes.audits.MAX_WAIT_S``).
LONG_POLL_S = 30.0


@dataclass
class Client:
    """Thin synchronous + asynchronous client around the API base URL."""

    base_url: str
    timeout: float = 60.0
    #: Sent as ``Authorization: Bearer``; default ``cli.credentials.api_key_for(base_url)``.
    api_key: str | None = None
    _http: httpx.Client = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.base_url = self.base_url.rstrip("/")
        self.api_key = self.api_key or api_key_for(self.base_url)
        self._http = httpx.Client(base_url=self.base_url, timeout=self.timeout, headers=self.auth_headers)

    @property
    def auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One request; a 429 is sat out (``Retry-After``) and sent again; 401/403 raise ``ApiError``."""
        for _ in range(MAX_RATE_LIMITED):
            resp = self._http.request(method, path, **kwargs)
            if resp.status_code != 429:
                problem = access_problem(resp)
                if problem:
                    raise ApiError(problem)
                return resp
            time.sleep(retry_after(resp))
        raise ApiError(f"{method} {path} answered 429 {MAX_RATE_LIMITED} times: {error_message(resp)}")

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ single calls

    def healthz(self) -> dict[str, Any]:
        resp = self._http.get("/healthz")
        resp.raise_for_status()
        data: dict[str, Any] = resp.json()
        return data

    def submit(self, body: dict[str, Any], *, key: str | None = None, index: int = 0) -> Submission:
        """POST /audits. 422/413 → a rejected Submission carrying the API's message."""
        headers = {"Idempotency-Key": key} if key else {}
        resp = self._request("POST", "/audits", json=body, headers=headers)
        if resp.status_code in (200, 201, 202):
            data = resp.json()
            return Submission(index, data["id"], data.get("status", "queued"))
        if resp.status_code in (400, 409, 413, 422):
            return Submission(index, None, "rejected", error_message(resp))
        raise ApiError(f"POST /audits answered {resp.status_code}: {error_message(resp)}")

    def get(self, audit_id: str, *, wait: float = 0.0) -> dict[str, Any]:
        """``GET /audits/{id}``; ``wait`` > 0: a long poll of up to ``wait`` seconds (at most 30;
        the answer comes as soon as the audit ends)."""
        params = {"wait": f"{min(wait, LONG_POLL_S):g}"} if wait > 0 else None
        resp = self._request("GET", f"/audits/{audit_id}", params=params)
        if resp.status_code != 200:
            raise ApiError(f"GET /audits/{audit_id} answered {resp.status_code}: {error_message(resp)}")
        data: dict[str, Any] = resp.json()
        return data

    def wait(self, audit_id: str, *, timeout: float = 600, interval: float = 0.25) -> dict[str, Any]:
        """Long-poll one audit until it is done/failed/rejected (``GET /audits/{id}?wait=``, so
        the answer comes as soon as it ends); raise TimeoutError after ``timeout`` s. An answer
        sooner than ``interval`` that is not terminal (a server without long polls) is followed
        by a pause of ``interval``."""
        deadline = time.monotonic() + timeout
        while True:
            asked = time.monotonic()
            doc = self.get(audit_id, wait=max(0.0, min(deadline - asked, self.timeout / 2)))
            if doc.get("status") in TERMINAL:
                return doc
            if time.monotonic() > deadline:
                raise TimeoutError(f"audit {audit_id} still {doc.get('status')!r} after {timeout:.0f} s")
            time.sleep(max(0.0, interval - (time.monotonic() - asked)))

    # ------------------------------------------------------------------ many audits

    def submit_many(
        self,
        items: Sequence[tuple[dict[str, Any], str | None]],
        *,
        chunk_size: int = 100,
        on_progress: Callable[[int], None] | None = None,
    ) -> list[Submission]:
        """Submit (body, idempotency key) pairs through POST /audits/batch in chunks.

        A chunk the batch endpoint refuses as a whole (404/405 when it is missing, 413/422 when
        one item's shape breaks the envelope) is sent item by item through POST /audits, so
        every item gets its own id or its own rejection message.
        """
        results: list[Submission] = []
        for start in range(0, len(items), chunk_size):
            chunk = items[start : start + chunk_size]
            payload = {"audits": [{**body, "idempotency_key": key} for body, key in chunk]}
            resp = self._request("POST", "/audits/batch", json=payload)
            if resp.status_code in (200, 201, 202):
                answered = resp.json().get("audits", [])
                if len(answered) != len(chunk):
                    raise ApiError(f"POST /audits/batch answered {len(answered)} items for {len(chunk)}")
                for offset, item in enumerate(sorted(answered, key=lambda a: a.get("index", 0))):
                    status = item.get("status") or ("queued" if item.get("id") else "rejected")
                    results.append(Submission(start + offset, item.get("id"), status, item.get("error")))
            elif resp.status_code in (404, 405, 413, 422):
                for offset, (body, key) in enumerate(chunk):
                    results.append(self.submit(body, key=key, index=start + offset))
            else:
                raise ApiError(f"POST /audits/batch answered {resp.status_code}: {error_message(resp)}")
            if on_progress is not None:
                on_progress(len(chunk))
        return results

    def submit_run(
        self,
        suite: str,
        label: str,
        items: Sequence[tuple[str, dict[str, Any]]],
        *,
        chunk_size: int = 100,
        source: str = "cli",
        on_progress: Callable[[int], None] | None = None,
    ) -> list[Submission]:
        """Submit ``(item id, body)`` pairs as the items of run ``suite``/``label`` (POST /runs in chunks).

        Every chunk but the last is sent with ``final: false``; the last one seals the run. The
        API is idempotent per (suite, label, item id), so a resumed batch creates nothing new.
        """
        results: list[Submission] = []
        starts = list(range(0, len(items), chunk_size)) or [0]
        for start in starts:
            chunk = items[start : start + chunk_size]
            payload = {
                "suite": suite,
                "label": label,
                "source": source,
                "final": start == starts[-1],
                "items": [{"id": item_id, **body} for item_id, body in chunk],
            }
            resp = self._http.post("/runs", json=payload)
            if resp.status_code not in (200, 201, 202):
                raise ApiError(f"POST /runs answered {resp.status_code}: {error_message(resp)}")
            answered = sorted(resp.json().get("items", []), key=lambda a: a.get("index", 0))
            if len(answered) != len(chunk):
                raise ApiError(f"POST /runs answered {len(answered)} items for {len(chunk)}")
            for offset, item in enumerate(answered):
                results.append(
                    Submission(start + offset, item.get("audit_id"), item["status"], item.get("error"))
                )
            if on_progress is not None:
                on_progress(len(chunk))
        return results

    def get_json(self, path: str, **params: Any) -> dict[str, Any]:
        """GET ``path`` (query ``params``, None dropped); ``ApiError`` with the API's message unless 200."""
        resp = self._http.get(path, params={k: v for k, v in params.items() if v is not None})
        if resp.status_code != 200:
            raise ApiError(f"GET {path} answered {resp.status_code}: {error_message(resp)}")
        data: dict[str, Any] = resp.json()
        return data

    def put_json(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """PUT ``body``; ``ApiError`` with the API's message unless 200/201."""
        resp = self._http.put(path, json=body)
        if resp.status_code not in (200, 201):
            raise ApiError(f"PUT {path} answered {resp.status_code}: {error_message(resp)}")
        data: dict[str, Any] = resp.json()
        return data

    def poll_many(
        self,
        audit_ids: Sequence[str],
        *,
        window: int = 64,
        concurrency: int = 16,
        interval: float = 0.3,
        stall_timeout: float = 900,
        on_result: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> dict[str, dict[str, Any]]:
        """Poll audits until each is terminal; return ``{audit_id: document}``.

        Each round asks ``POST /audits/status`` for every pending audit (one request per 1,000
        ids, one indexed read on the server) and fetches the full documents only of the audits
        that became terminal (``POST /audits/documents``, 100 per request; one ``GET`` each,
        ``concurrency`` at a time, against an API without the documents endpoint). Against an API
        without the status endpoint (404/405) each round GETs the oldest ``window`` pending audits
        and the next ``window`` of the others in turn. Progress is any audit of the batch finishing
        or moving to another stage. Audits not terminal when nothing has moved for
        ``stall_timeout`` seconds are returned with their last document and an ``error`` saying
        they timed out (status unchanged).
        """
        return asyncio.run(
            self._poll_many(
                list(dict.fromkeys(audit_ids)), window, concurrency, interval, stall_timeout, on_result
            )
        )

    async def _poll_many(
        self,
        pending: list[str],
        window: int,
        concurrency: int,
        interval: float,
        stall_timeout: float,
        on_result: Callable[[str, dict[str, Any]], None] | None,
    ) -> dict[str, dict[str, Any]]:
        done: dict[str, dict[str, Any]] = {}
        last: dict[str, dict[str, Any]] = {}
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        last_progress = time.monotonic()
        async with httpx.AsyncClient(
            base_url=self.base_url, timeout=self.timeout, limits=limits, headers=self.auth_headers
        ) as http:
            looker = _Looker(http, asyncio.Semaphore(concurrency), window)
            while pending:
                docs = await looker.look(pending)
                finished, moved = 0, False
                for audit_id, doc in docs.items():
                    moved |= stage_moved(last.get(audit_id), doc)
                    last[audit_id] = doc
                    if doc.get("status") in TERMINAL:
                        done[audit_id] = doc
                        finished += 1
                        if on_result is not None:
                            on_result(audit_id, doc)
                if finished or moved:
                    last_progress = time.monotonic()
                if finished:
                    pending = [a for a in pending if a not in done]
                elif time.monotonic() - last_progress > stall_timeout:
                    for audit_id in pending:
                        doc = dict(last.get(audit_id, {"id": audit_id}))
                        state, limit = doc.get("status"), f"{stall_timeout:.0f}"
                        doc["error"] = f"timed out: still {state!r} after {limit} s without progress"
                        done[audit_id] = doc
                    break
                if pending and not looker.skip_sleep:
                    await asyncio.sleep(interval)
        return done


#: Most ids per ``POST /audits/status`` (the API's limit).
STATUS_CHUNK = 1_000
#: Most ids per ``POST /audits/documents`` (the API's limit).
DOCUMENTS_CHUNK = 100


@dataclass
class _Looker:
    """One polling round: the state of the pending audits, full documents for the terminal ones."""

    http: httpx.AsyncClient
    sem: asyncio.Semaphore
    window: int
    bulk: bool = True  # False once the API answered 404/405 to POST /audits/status
    bulk_documents: bool = True  # False once the API answered 404/405 to POST /audits/documents
    turn: int = 0
    skip_sleep: bool = False

    async def look(self, pending: list[str]) -> dict[str, dict[str, Any]]:
        """``{audit_id: document}`` for the audits looked at this round (terminal ones in full)."""
        if self.bulk:
            states = await self._statuses(pending)
            if states is not None:
                terminal = [a for a, st in states.items() if st.get("status") in TERMINAL]
                return {**states, **await self.fetch_many(terminal)}
            self.bulk = False
        batch, self.turn = poll_order(pending, self.window, self.turn)
        docs = dict(zip(batch, await asyncio.gather(*(self.fetch(a) for a in batch)), strict=True))
        head = batch[: self.window]
        # the oldest window all done: look at the next one at once
        self.skip_sleep = all(docs[a].get("status") in TERMINAL for a in head)
        return docs

    async def _statuses(self, pending: list[str]) -> dict[str, dict[str, Any]] | None:
        """``{id: {status, stage, error, ...}}`` from ``POST /audits/status``; None without that endpoint."""
        out: dict[str, dict[str, Any]] = {}
        for start in range(0, len(pending), STATUS_CHUNK):
            chunk = pending[start : start + STATUS_CHUNK]
            resp = await self._request("POST", "/audits/status", json={"ids": chunk})
            if resp.status_code in (404, 405):
                return None
            body = resp.json()
            if body.get("missing"):
                raise ApiError(f"POST /audits/status: audits not found: {', '.join(body['missing'][:5])}")
            out.update({str(item["id"]): item for item in body.get("items", [])})
        return out

    async def fetch_many(self, audit_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The full documents of ``audit_ids``: ``POST /audits/documents`` in chunks of
        ``DOCUMENTS_CHUNK`` (concurrently), or one ``GET`` each against an API without it."""
        if self.bulk_documents and audit_ids:
            chunks = [audit_ids[i : i + DOCUMENTS_CHUNK] for i in range(0, len(audit_ids), DOCUMENTS_CHUNK)]
            found = await asyncio.gather(*(self._documents(chunk) for chunk in chunks))
            if all(part is not None for part in found):
                return {k: v for part in found if part is not None for k, v in part.items()}
            self.bulk_documents = False
        return dict(zip(audit_ids, await asyncio.gather(*(self.fetch(a) for a in audit_ids)), strict=True))

    async def _documents(self, chunk: list[str]) -> dict[str, dict[str, Any]] | None:
        """``{id: document}`` of ``chunk`` from ``POST /audits/documents`` (asking again for the
        audits an answer left out to bound its size); None against an API without that endpoint
        or with a smaller limit (404/405/422)."""
        out: dict[str, dict[str, Any]] = {}
        while chunk:
            resp = await self._request(
                "POST", "/audits/documents", json={"ids": chunk}, passed=(404, 405, 422)
            )
            if resp.status_code in (404, 405, 422):
                return None
            body = resp.json()
            if body.get("missing"):
                raise ApiError(f"POST /audits/documents: audits not found: {', '.join(body['missing'][:5])}")
            items = body.get("items", [])
            if not items:
                return None  # an answer without progress: fall back to one GET each
            out.update({str(doc["id"]): doc for doc in items})
            chunk = [str(i) for i in body.get("truncated", [])]
        return out

    async def fetch(self, audit_id: str) -> dict[str, Any]:
        """The full document of one audit (``GET /audits/{id}``)."""
        resp = await self._request("GET", f"/audits/{audit_id}")
        data: dict[str, Any] = resp.json()
        return data

    async def _request(
        self, method: str, url: str, *, passed: tuple[int, ...] = (404, 405), **kwargs: Any
    ) -> httpx.Response:
        """One request, retried on transport errors and 5xx (5 attempts) and after a 429 (up to
        ``MAX_RATE_LIMITED`` times, waiting its Retry-After); 200 and a POST's ``passed`` statuses
        (404/405: an API without the endpoint) returned, anything else raises ApiError."""
        async with self.sem:
            limited = attempt = 0
            while attempt < 5:
                attempt += 1
                try:
                    resp = await self.http.request(method, url, **kwargs)
                except httpx.TransportError:
                    if attempt == 5:
                        raise
                    await asyncio.sleep(0.5 * attempt)
                    continue
                if resp.status_code == 200 or (method == "POST" and resp.status_code in passed):
                    return resp
                if resp.status_code == 429 and limited < MAX_RATE_LIMITED:
                    limited += 1
                    attempt -= 1  # a rate limit is not a failed attempt
                    await asyncio.sleep(retry_after(resp))
                    continue
                if resp.status_code >= 500 and attempt < 5:
                    await asyncio.sleep(0.5 * attempt)
                    continue
                answered = f"{method} {url} answered {resp.status_code}: {error_message(resp)}"
                raise ApiError(access_problem(resp) or answered)
        raise AssertionError("unreachable")
