"""``Client`` and ``AsyncClient``: the claimaudit HTTP API from Python.

>>> from claimaudit import Client
>>> with Client() as client:                                            # doctest: +SKIP
...     doc = client.audit("The bridge opened in 1989.", ["The bridge opened in 1998."])
...     [(c.text, c.verdict) for c in doc.response_claims]
[('The bridge opened in 1989.', 'contradicted')]

Both clients take ``base_url`` (default ``CLAIMAUDIT_API_URL``, else the local stack on
``http://127.0.0.1:<CLAIMAUDIT_API_PORT or 8000>``) and ``api_key`` (default
``CLAIMAUDIT_API_KEY``, else the local stack's admin key for a loopback URL). Errors raise
:mod:`claimaudit.errors` exceptions; retries follow ``claimaudit._protocol`` (``Retry-After``
honoured); :meth:`Client.wait` long-polls (``GET /audits/{id}?wait=``), so an audit's result
comes back as soon as it ends.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any, TypedDict, TypeVar, Unpack

import httpx

from claimaudit import _flows as flows
from claimaudit._protocol import Attempts, Call, Flow, Pause, default_api_key, default_base_url
from claimaudit.errors import error_for
from claimaudit.models import (
    AuditAccepted,
    AuditDocument,
    AuditPage,
    BatchItemResult,
    BatchResult,
    ClaimSearchResult,
    Comparison,
    Health,
    Run,
    RunItemResult,
    RunPage,
    Suite,
)

__all__ = ["Client", "AsyncClient", "AuditFields"]

T = TypeVar("T")


class AuditFields(TypedDict, total=False):
    """Optional fields of an audit: ``question``, ``metadata`` (a JSON object), ``config`` (see
    the README's config table) and ``idempotency_key`` (same key and body: the same audit)."""

    question: str | None
    metadata: dict[str, Any] | None
    config: dict[str, Any] | None
    idempotency_key: str | None


def _endpoint(base_url: str | None, api_key: str | None) -> tuple[str, str | None, dict[str, str]]:
    """``(base URL, key, headers)`` of a client: the given ones, else the defaults (module docstring)."""
    url = (base_url or default_base_url()).rstrip("/")
    key = api_key or default_api_key(url)
    return url, key, ({"Authorization": f"Bearer {key}"} if key else {})


class _Ops:
    """The operations as flows, shared by both clients (each runs them its own way)."""

    @staticmethod
    def submit(response: str, references: Sequence[str], fields: AuditFields) -> Flow[AuditAccepted]:
        body = flows.audit_request(response, references, fields)
        return flows.submit(body, fields.get("idempotency_key"))

    @staticmethod
    def audit(
        response: str, references: Sequence[str], fields: AuditFields, timeout: float
    ) -> Flow[AuditDocument]:
        accepted = yield from _Ops.submit(response, references, fields)
        doc = yield from flows.wait(str(accepted.id), timeout=timeout)
        return AuditDocument.model_validate(doc)

    @staticmethod
    def wait(audit_id: str, timeout: float) -> Flow[AuditDocument]:
        return flows.parsed(AuditDocument, flows.wait(audit_id, timeout=timeout))

    @staticmethod
    def list_audits(params: Mapping[str, Any]) -> Flow[AuditPage]:
        return flows.parsed(AuditPage, flows.call("GET", "/audits", params=flows.drop_none(params)))

    @staticmethod
    def search(
        q: str, k: int, model: str | None, filters: Mapping[str, str | None]
    ) -> Flow[ClaimSearchResult]:
        params = flows.drop_none({"q": q, "k": k, "model": model, **filters})
        return flows.parsed(ClaimSearchResult, flows.call("GET", "/claims/search", params=params))

    @staticmethod
    def submit_run(
        suite: str, label: str, items: Sequence[Mapping[str, Any]], final: bool
    ) -> Flow[list[RunItemResult]]:
        pairs = [(str(item["id"]), {k: v for k, v in item.items() if k != "id"}) for item in items]
        return flows.submit_run(suite, label, pairs, final=final)

    @staticmethod
    def list_runs(suite: str | None, limit: int, offset: int) -> Flow[RunPage]:
        params = flows.drop_none({"suite": suite, "limit": limit, "offset": offset})
        return flows.parsed(RunPage, flows.call("GET", "/runs", params=params))

    @staticmethod
    def compare(ref: str, base: str, limits: Mapping[str, float | int | None]) -> Flow[Comparison]:
        new = yield from flows.find_run(ref)
        if base not in ("baseline", "previous"):
            base = (yield from flows.find_run(base))["id"]
        params = flows.drop_none({"with": base, **limits})
        data = yield from flows.call("GET", f"/runs/{new['id']}/compare", params=params)
        return Comparison.model_validate(data)


#: ``on_wait(seconds, response)``: told before the client waits to retry an answer.
OnWait = Callable[[float, httpx.Response], None]


class Client:
    """Synchronous client of the claimaudit API (module docstring); a context manager.

    ``timeout``: seconds per request (a long poll adds its hold); ``max_retries``: retries of a
    transport error or a 502/503/504 (429s are retried apart, after their ``Retry-After``);
    ``on_wait``: called as ``on_wait(seconds, response)`` before each wait on an answer that is
    retried (a 429, a 503 of a full backlog or of a service down, a 502/504), so that a caller
    can say why it waits.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 5,
        on_wait: OnWait | None = None,
    ) -> None:
        self.base_url, self.api_key, headers = _endpoint(base_url, api_key)
        self.max_retries = max_retries
        self.on_wait = on_wait
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, headers=headers)
        self.runs = Runs(self)
        self.suites = Suites(self)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _send(self, call: Call) -> httpx.Response:
        attempts = Attempts(call, max_retries=self.max_retries)
        while True:
            try:
                resp = self._http.request(call.method, call.path, **call.send_args())
            except httpx.TransportError as exc:
                time.sleep(attempts.after_error(exc))
                continue
            delay = attempts.after_response(resp)
            if delay is None:
                return resp
            if self.on_wait is not None:
                self.on_wait(delay, resp)
            time.sleep(delay)

    def run(self, flow: Flow[T]) -> T:
        """Run one operation (a ``claimaudit._flows`` flow) to its result."""
        reply: Any = None
        while True:
            try:
                step = flow.send(reply)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            if isinstance(step, Pause):
                time.sleep(step.seconds)
                reply = None
            else:
                reply = self._send(step)

    def page_url(self, audit_id: object) -> str:
        """The audit's web page (``/ui/audits/{id}``)."""
        return f"{self.base_url}/ui/audits/{audit_id}"

    # ------------------------------------------------------------------ audits

    def health(self) -> Health:
        """``GET /healthz`` (a 503 ``degraded`` answer is returned, not raised)."""
        return self.run(flows.parsed(Health, flows.call("GET", "/healthz", accept=(200, 503))))

    def submit(
        self, response: str, references: Sequence[str], **fields: Unpack[AuditFields]
    ) -> AuditAccepted:
        """Submit one audit (``POST /audits``); returns its id at once."""
        return self.run(_Ops.submit(response, references, fields))

    def get(self, audit_id: object) -> AuditDocument:
        """The audit's document now (``GET /audits/{id}``)."""
        return self.run(flows.parsed(AuditDocument, flows.get(str(audit_id))))

    def wait(self, audit_id: object, *, timeout: float = 600.0) -> AuditDocument:
        """The audit's document once it has ended (long poll); ``AuditTimeout`` after ``timeout`` s."""
        return self.run(_Ops.wait(str(audit_id), timeout))

    def audit(
        self,
        response: str,
        references: Sequence[str],
        *,
        timeout: float = 600.0,
        **fields: Unpack[AuditFields],
    ) -> AuditDocument:
        """Submit one audit and wait for its document (``status`` done or failed)."""
        return self.run(_Ops.audit(response, references, fields, timeout))

    def batch(
        self,
        items: Sequence[Mapping[str, Any]],
        *,
        chunk_size: int = 100,
        stall_timeout: float = 900.0,
        on_result: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> list[BatchResult]:
        """Submit many audits (``POST /audits/batch`` in chunks; each item a request body with an
        optional ``idempotency_key``) and wait for all: one result per item, in order."""
        flow = flows.batch(items, chunk_size=chunk_size, stall_timeout=stall_timeout, on_result=on_result)
        return self.run(flow)

    def submit_many(
        self,
        items: Sequence[tuple[Mapping[str, Any], str | None]],
        *,
        chunk_size: int = 100,
        on_progress: Callable[[int], None] | None = None,
    ) -> list[BatchItemResult]:
        """Submit (body, idempotency key) pairs without waiting: one result per pair, in order."""
        return self.run(flows.submit_many(items, chunk_size=chunk_size, on_progress=on_progress))

    def poll(
        self,
        audit_ids: Sequence[str],
        *,
        stall_timeout: float = 900.0,
        on_result: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> dict[str, dict[str, Any]]:
        """Wait for many audits: ``{audit_id: document as JSON}`` (``claimaudit._flows.poll``)."""
        return self.run(flows.poll(audit_ids, stall_timeout=stall_timeout, on_result=on_result))

    def list_audits(self, **filters: Any) -> AuditPage:
        """``GET /audits`` with its filters (status, since, until, verdict, score, score_min,
        score_max, metadata_key, metadata_value, limit, offset)."""
        return self.run(_Ops.list_audits(filters))

    def search(
        self, q: str, *, k: int = 10, model: str | None = None, **filters: str | None
    ) -> ClaimSearchResult:
        """The ``k`` stored claims nearest to ``q`` in your tenant's audits, each with its verdict.

        ``filters``: ``role`` (``response``/``reference``), ``verdict``, ``suite``, ``run`` (id or
        label) and ``metadata`` (a JSON object the audit's metadata contains), as ``GET /claims/search``.
        """
        return self.run(_Ops.search(q, k, model, filters))


class Runs:
    """``client.runs``: runs of suites (submit, list, get, compare)."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def submit(
        self, suite: str, label: str, items: Sequence[Mapping[str, Any]], *, final: bool = True
    ) -> list[RunItemResult]:
        """Add ``items`` (audit requests, each with its ``id``) to run ``suite``/``label``."""
        return self._client.run(_Ops.submit_run(suite, label, items, final))

    def list(self, *, suite: str | None = None, limit: int = 50, offset: int = 0) -> RunPage:
        """Runs newest first (optionally of one suite)."""
        return self._client.run(_Ops.list_runs(suite, limit, offset))

    def get(self, ref: str) -> Run:
        """The run ``ref`` (a run id or ``suite/label``)."""
        return self._client.run(flows.parsed(Run, flows.find_run(ref)))

    def compare(self, ref: str, base: str = "baseline", **limits: float | int | None) -> Comparison:
        """Run ``ref`` against ``base`` (``baseline``: the suite's, ``previous``, or a run);
        ``limits`` override the suite's gate (``contradicted_share_rise=2.0``, ...)."""
        return self._client.run(_Ops.compare(ref, base, limits))

    def items(self, ref: str, *, documents: bool = False) -> Iterator[dict[str, Any]]:
        """Every item of run ``ref`` in item order, each as it arrives (``GET /runs/{id}/items``,
        one JSON line an item: item_id, audit_id, status, error, scores, verdict counts,
        poll_url; with ``documents``, ``document`` = what ``GET /audits/{id}`` answers). Neither
        side holds the run: a night of 10,000 items is read line by line. Errors as every call."""
        run = self.get(ref)
        params = {"documents": "true"} if documents else {}
        yield from self._lines(f"/runs/{run.id}/items", params)

    def rejections(self, ref: str) -> Iterator[dict[str, Any]]:
        """Every rejected line of run ``ref`` (``{line, item_id, reason}``, by line number), each as
        it arrives (``GET /runs/{id}/rejections``; ``GET /runs/{id}`` holds only the first 100).
        ``ref``: a run id or ``suite/label``. Errors as every call."""
        yield from self._lines(f"/runs/{self.get(ref).id}/rejections", {})

    def _lines(self, path: str, params: dict[str, str]) -> Iterator[dict[str, Any]]:
        with self._client._http.stream("GET", path, params=params) as resp:
            if resp.status_code != 200:
                resp.read()
                raise error_for(resp)
            for line in resp.iter_lines():
                if line:
                    yield json.loads(line)


class Suites:
    """``client.suites``: define, read and delete suites."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def put(self, name: str, definition: Mapping[str, Any]) -> Suite:
        """Create or replace the suite ``name`` (``PUT /suites/{name}``)."""
        flow = flows.call("PUT", f"/suites/{name}", json=dict(definition), accept=(200, 201))
        return self._client.run(flows.parsed(Suite, flow))

    def delete(self, name: str) -> None:
        """Delete the suite ``name`` (its runs stay); ``NotFound`` when there is none."""
        self._client.run(flows.call("DELETE", f"/suites/{name}", accept=(200, 204)))


class AsyncClient:
    """The asynchronous twin of :class:`Client` (same arguments; each method a coroutine)."""

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 5,
        on_wait: OnWait | None = None,
    ) -> None:
        self.base_url, self.api_key, headers = _endpoint(base_url, api_key)
        self.max_retries = max_retries
        self.on_wait = on_wait
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, headers=headers)
        self.runs = AsyncRuns(self)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, call: Call) -> httpx.Response:
        attempts = Attempts(call, max_retries=self.max_retries)
        while True:
            try:
                resp = await self._http.request(call.method, call.path, **call.send_args())
            except httpx.TransportError as exc:
                await asyncio.sleep(attempts.after_error(exc))
                continue
            delay = attempts.after_response(resp)
            if delay is None:
                return resp
            if self.on_wait is not None:
                self.on_wait(delay, resp)
            await asyncio.sleep(delay)

    async def run(self, flow: Flow[T]) -> T:
        """Run one operation (a ``claimaudit._flows`` flow) to its result."""
        reply: Any = None
        while True:
            try:
                step = flow.send(reply)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            if isinstance(step, Pause):
                await asyncio.sleep(step.seconds)
                reply = None
            else:
                reply = await self._send(step)

    async def health(self) -> Health:
        """``GET /healthz``."""
        return await self.run(flows.parsed(Health, flows.call("GET", "/healthz", accept=(200, 503))))

    async def submit(
        self, response: str, references: Sequence[str], **fields: Unpack[AuditFields]
    ) -> AuditAccepted:
        """Submit one audit; returns its id at once."""
        return await self.run(_Ops.submit(response, references, fields))

    async def wait(self, audit_id: object, *, timeout: float = 600.0) -> AuditDocument:
        """The audit's document once it has ended (long poll)."""
        return await self.run(_Ops.wait(str(audit_id), timeout))

    async def audit(
        self,
        response: str,
        references: Sequence[str],
        *,
        timeout: float = 600.0,
        **fields: Unpack[AuditFields],
    ) -> AuditDocument:
        """Submit one audit and wait for its document."""
        return await self.run(_Ops.audit(response, references, fields, timeout))

    async def batch(
        self, items: Sequence[Mapping[str, Any]], *, chunk_size: int = 100, stall_timeout: float = 900.0
    ) -> list[BatchResult]:
        """Submit many audits and wait for all: one result per item, in order."""
        return await self.run(flows.batch(items, chunk_size=chunk_size, stall_timeout=stall_timeout))

    async def search(
        self, q: str, *, k: int = 10, model: str | None = None, **filters: str | None
    ) -> ClaimSearchResult:
        """The ``k`` stored claims nearest to ``q`` (filters as :meth:`Client.search`)."""
        return await self.run(_Ops.search(q, k, model, filters))


class AsyncRuns:
    """``async_client.runs``: the coroutines of :class:`Runs`."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def submit(
        self, suite: str, label: str, items: Sequence[Mapping[str, Any]], *, final: bool = True
    ) -> list[RunItemResult]:
        """See :meth:`Runs.submit`."""
        return await self._client.run(_Ops.submit_run(suite, label, items, final))

    async def list(self, *, suite: str | None = None, limit: int = 50, offset: int = 0) -> RunPage:
        """See :meth:`Runs.list`."""
        return await self._client.run(_Ops.list_runs(suite, limit, offset))

    async def get(self, ref: str) -> Run:
        """See :meth:`Runs.get`."""
        return await self._client.run(flows.parsed(Run, flows.find_run(ref)))

    async def compare(self, ref: str, base: str = "baseline", **limits: float | int | None) -> Comparison:
        """See :meth:`Runs.compare`."""
        return await self._client.run(_Ops.compare(ref, base, limits))

    async def items(self, ref: str, *, documents: bool = False) -> AsyncIterator[dict[str, Any]]:
        """See :meth:`Runs.items` (an async iterator: ``async for item in client.runs.items(ref)``)."""
        run = await self.get(ref)
        params = {"documents": "true"} if documents else {}
        async for line in self._lines(f"/runs/{run.id}/items", params):
            yield line

    async def rejections(self, ref: str) -> AsyncIterator[dict[str, Any]]:
        """See :meth:`Runs.rejections` (an async iterator)."""
        run = await self.get(ref)
        async for line in self._lines(f"/runs/{run.id}/rejections", {}):
            yield line

    async def _lines(self, path: str, params: dict[str, str]) -> AsyncIterator[dict[str, Any]]:
        async with self._client._http.stream("GET", path, params=params) as resp:
            if resp.status_code != 200:
                await resp.aread()
                raise error_for(resp)
            async for line in resp.aiter_lines():
                if line:
                    yield json.loads(line)
