"""The client's operations, written once as flows (``claimaudit._protocol``) for both clients.

Each function returns a generator that yields ``Call`` / ``Pause`` steps and returns the
result; the flows that the public methods run return typed models, the lower ones (``poll``,
``documents``) the JSON documents exactly as the API sent them.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from claimaudit._protocol import Call, Flow, Pause
from claimaudit.errors import AuditTimeout, ClaimauditError, NotFound
from claimaudit.models import (
    TERMINAL,
    AuditAccepted,
    AuditDocument,
    BatchItemResult,
    BatchResult,
    RunItemResult,
)

M = TypeVar("M", bound=BaseModel)

#: Longest hold of ``GET /audits/{id}?wait=`` (the API's ``MAX_WAIT_S``), seconds.
LONG_POLL_S = 30.0
#: Most ids per ``POST /audits/status`` and per ``POST /audits/documents`` (the API's limits).
STATUS_CHUNK = 1_000
DOCUMENTS_CHUNK = 100
#: Keys of an audit request (``POST /audits`` body).
AUDIT_FIELDS = ("response", "references", "question", "metadata", "config")

OnResult = Callable[[str, dict[str, Any]], None]


def call(method: str, path: str, **options: Any) -> Flow[Any]:
    """One request; returns its JSON (None for an empty body)."""
    resp = yield Call(method, path, **options)
    return resp.json() if resp.content else None


def parsed(model: type[M], flow: Flow[Any]) -> Flow[M]:
    """``flow``'s JSON as ``model``."""
    data = yield from flow
    return model.model_validate(data)


def audit_request(response: str, references: Sequence[str], fields: Mapping[str, Any]) -> dict[str, Any]:
    """The body of ``POST /audits``: ``response``, ``references`` and the given optional fields
    (``question``, ``metadata``, ``config``; None values left out).

    Raises ``TypeError`` naming a field that is none of these (a misspelt ``confg`` would
    otherwise be dropped and the audit run with the default config)."""
    unknown = sorted(set(fields) - set(AUDIT_FIELDS))
    if unknown:
        raise TypeError(
            f"unknown audit field(s) {', '.join(map(repr, unknown))}; expected {', '.join(AUDIT_FIELDS)}"
        )
    body: dict[str, Any] = {"response": response, "references": list(references)}
    body.update({k: v for k, v in fields.items() if v is not None})
    return body


def _batch_pairs(items: Sequence[Mapping[str, Any]]) -> list[tuple[dict[str, Any], str | None]]:
    """``(body, idempotency key)`` of each item; raises ``TypeError`` for an item that is no
    mapping or has a key the API does not take (nothing is sent then)."""
    allowed = {*AUDIT_FIELDS, "idempotency_key"}
    pairs = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise TypeError(f"items[{index}] must be a mapping (an audit request), got {type(item).__name__}")
        unknown = sorted(set(item) - allowed)
        if unknown:
            raise TypeError(
                f"items[{index}]: unknown key(s) {', '.join(map(repr, unknown))}; "
                f"expected {', '.join(sorted(allowed))}"
            )
        pairs.append(({k: item[k] for k in AUDIT_FIELDS if k in item}, item.get("idempotency_key")))
    return pairs


def submit(body: Mapping[str, Any], key: str | None) -> Flow[AuditAccepted]:
    """``POST /audits`` with an idempotency key (``key``, else a random one, so that a retried
    request never makes a second audit)."""
    headers = {"Idempotency-Key": key or f"client:{uuid.uuid4()}"}
    data = yield from call("POST", "/audits", json=dict(body), headers=headers, accept=(200, 201, 202))
    return AuditAccepted.model_validate(data)


def get(audit_id: str, *, wait: float = 0.0) -> Flow[dict[str, Any]]:
    """``GET /audits/{id}``; ``wait`` > 0: a long poll of at most 30 s."""
    hold = min(wait, LONG_POLL_S)
    params = {"wait": f"{hold:g}"} if hold > 0 else None
    timeout = hold + 30.0 if hold > 0 else None
    data: dict[str, Any] = yield from call("GET", f"/audits/{audit_id}", params=params, timeout=timeout)
    return data


def wait(audit_id: str, *, timeout: float, interval: float = 0.25) -> Flow[dict[str, Any]]:
    """Long-poll one audit until it is done, failed or rejected; ``AuditTimeout`` after
    ``timeout`` seconds. An early answer that is not terminal (a server that does not hold long
    polls) is followed by a pause of ``interval``."""
    deadline = time.monotonic() + timeout
    while True:
        asked = time.monotonic()
        doc = yield from get(audit_id, wait=max(0.0, deadline - asked))
        if doc.get("status") in TERMINAL:
            return doc
        if time.monotonic() >= deadline:
            raise AuditTimeout(
                f"audit {audit_id} still {doc.get('status')!r} after {timeout:g} s",
                audit_id=audit_id,
                status=doc.get("status"),
            )
        rest = interval - (time.monotonic() - asked)
        if rest > 0:
            yield Pause(rest)


def submit_many(
    items: Sequence[tuple[Mapping[str, Any], str | None]],
    *,
    chunk_size: int = 100,
    on_progress: Callable[[int], None] | None = None,
) -> Flow[list[BatchItemResult]]:
    """``POST /audits/batch`` in chunks of ``chunk_size``: one result per (body, key) pair, in
    order (items without a key get a random one: retries stay idempotent)."""
    out: list[BatchItemResult] = []
    for start in range(0, len(items), chunk_size):
        chunk = items[start : start + chunk_size]
        payload = {
            "audits": [{**body, "idempotency_key": key or f"client:{uuid.uuid4()}"} for body, key in chunk]
        }
        data = yield from call("POST", "/audits/batch", json=payload, accept=(200, 201, 202))
        answered = sorted(data.get("audits", []), key=lambda a: a.get("index", 0))
        if len(answered) != len(chunk):
            raise ClaimauditError(f"POST /audits/batch answered {len(answered)} items for {len(chunk)}")
        for item in answered:
            out.append(BatchItemResult.model_validate({**item, "index": start + item.get("index", 0)}))
        if on_progress is not None:
            on_progress(len(chunk))
    return out


def statuses(audit_ids: Sequence[str]) -> Flow[dict[str, dict[str, Any]]]:
    """``{id: {id, status, stage, error, finished_at}}`` of the audits (``POST /audits/status``
    per 1,000 ids); an unknown id raises ``ClaimauditError``."""
    out: dict[str, dict[str, Any]] = {}
    for start in range(0, len(audit_ids), STATUS_CHUNK):
        chunk = list(audit_ids[start : start + STATUS_CHUNK])
        data = yield from call("POST", "/audits/status", json={"ids": chunk})
        if data.get("missing"):
            raise ClaimauditError(f"POST /audits/status: audits not found: {', '.join(data['missing'][:5])}")
        out.update({str(item["id"]): item for item in data.get("items", [])})
    return out


def documents(audit_ids: Sequence[str]) -> Flow[dict[str, dict[str, Any]]]:
    """The documents of the audits (``POST /audits/documents``, 100 per request; the ids an answer
    left out to bound its size are asked for again)."""
    out: dict[str, dict[str, Any]] = {}
    todo = list(audit_ids)
    while todo:
        chunk, todo = todo[:DOCUMENTS_CHUNK], todo[DOCUMENTS_CHUNK:]
        data = yield from call("POST", "/audits/documents", json={"ids": chunk})
        if data.get("missing"):
            raise ClaimauditError(
                f"POST /audits/documents: audits not found: {', '.join(data['missing'][:5])}"
            )
        items = data.get("items", [])
        if not items:
            raise ClaimauditError("POST /audits/documents answered no document")
        out.update({str(doc["id"]): doc for doc in items})
        todo = [str(i) for i in data.get("truncated", [])] + todo
    return out


def stage_moved(before: Mapping[str, Any] | None, now: Mapping[str, Any]) -> bool:
    """The audit moved since the last look (another status or stage); False on the first look."""
    if before is None:
        return False
    return (before.get("status"), before.get("stage")) != (now.get("status"), now.get("stage"))


def poll(
    audit_ids: Sequence[str],
    *,
    interval: float = 0.3,
    stall_timeout: float = 900.0,
    on_result: OnResult | None = None,
) -> Flow[dict[str, dict[str, Any]]]:
    """Wait for many audits: ``{audit_id: document}`` once each has ended.

    Each round reads the status of every pending audit in one request per 1,000 and fetches the
    documents of those that ended (``on_result(audit_id, document)`` for each, as it comes).
    Progress is any audit ending or moving to another stage; when none moved for
    ``stall_timeout`` seconds, the pending audits are returned with their last status and an
    ``error`` saying they timed out.
    """
    pending = list(dict.fromkeys(str(a) for a in audit_ids))
    done: dict[str, dict[str, Any]] = {}
    last: dict[str, dict[str, Any]] = {}
    progress_at = time.monotonic()
    while pending:
        states = yield from statuses(pending)
        ended = [a for a in pending if states[a].get("status") in TERMINAL]
        if ended or any(stage_moved(last.get(a), states[a]) for a in pending):
            progress_at = time.monotonic()
        last.update(states)
        docs = (yield from documents(ended)) if ended else {}
        for audit_id in ended:
            done[audit_id] = docs[audit_id]
            if on_result is not None:
                on_result(audit_id, docs[audit_id])
        pending = [a for a in pending if a not in done]
        if pending and time.monotonic() - progress_at > stall_timeout:
            for audit_id in pending:
                state = last[audit_id].get("status")
                error = f"timed out: still {state!r} after {stall_timeout:g} s without progress"
                done[audit_id] = {**last[audit_id], "error": error}
            break
        if pending:
            yield Pause(interval)
    return done


def batch(
    items: Sequence[Mapping[str, Any]],
    *,
    chunk_size: int = 100,
    stall_timeout: float = 900.0,
    on_result: OnResult | None = None,
) -> Flow[list[BatchResult]]:
    """Submit ``items`` (audit requests, each with an optional ``idempotency_key``) and wait for
    them all: one :class:`BatchResult` per item, in order. Raises ``TypeError`` before sending
    anything for an item that is no mapping or has an unknown key (the API would answer 422)."""
    pairs = _batch_pairs(items)
    accepted = yield from submit_many(pairs, chunk_size=chunk_size)
    ids = [str(a.id) for a in accepted if a.id is not None]
    docs = yield from poll(ids, stall_timeout=stall_timeout, on_result=on_result)
    out = []
    for a in accepted:
        doc = docs.get(str(a.id)) if a.id is not None else None
        status = a.status if doc is None else doc.get("status", a.status)
        error = a.error if doc is None else doc.get("error")
        document = None if doc is None else AuditDocument.model_validate(doc)
        out.append(BatchResult(index=a.index, audit_id=a.id, status=status, error=error, document=document))
    return out


def submit_run(
    suite: str,
    label: str,
    items: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    rejected: Sequence[Mapping[str, Any]] = (),
    chunk_size: int = 100,
    source: str = "client",
    final: bool = True,
    on_progress: Callable[[int], None] | None = None,
) -> Flow[list[RunItemResult]]:
    """``POST /runs`` in chunks: ``(item id, body)`` pairs as the items of run ``suite``/``label``,
    and the ``rejected`` lines (``{line, id, reason}``) with the first chunk. Every chunk but the
    last is sent with ``final: false``; with ``final`` the last one seals the run. Idempotent per
    (suite, label, item id)."""
    out: list[RunItemResult] = []
    starts = list(range(0, len(items), chunk_size)) or [0]
    for start in starts:
        chunk = items[start : start + chunk_size]
        payload: dict[str, Any] = {
            "suite": suite,
            "label": label,
            "source": source,
            "final": final and start == starts[-1],
            "items": [{"id": item_id, **body} for item_id, body in chunk],
        }
        if rejected and start == starts[0]:
            payload["rejected"] = [dict(r) for r in rejected]
        data = yield from call("POST", "/runs", json=payload, accept=(200, 201, 202))
        answered = sorted(data.get("items", []), key=lambda a: a.get("index", 0))
        if len(answered) != len(chunk):
            raise ClaimauditError(f"POST /runs answered {len(answered)} items for {len(chunk)}")
        for item in answered:
            out.append(RunItemResult.model_validate({**item, "index": start + item.get("index", 0)}))
        if on_progress is not None:
            on_progress(len(chunk))
    return out


def find_run(ref: str) -> Flow[dict[str, Any]]:
    """The run named by ``ref``: a run id, or ``suite/label``; ``NotFound`` when there is none."""
    if "/" not in ref:
        data: dict[str, Any] = yield from call("GET", f"/runs/{ref}")
        return data
    suite, label = ref.split("/", 1)
    page = yield from call("GET", "/runs", params={"suite": suite, "label": label})
    if not page["items"]:
        raise NotFound(404, f"no run {label!r} of suite {suite!r}", method="GET", url="/runs")
    return dict(page["items"][0])


def drop_none(params: Mapping[str, Any]) -> dict[str, Any]:
    """Query parameters without the None ones."""
    return {k: v for k, v in params.items() if v is not None}
