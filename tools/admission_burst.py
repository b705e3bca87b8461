"""A burst of single audits at once against a running stack: what admission control lets in and
refuses, and that everything let in ends done.

Against the API at ``--api-url`` (its stack started with the bounds to test, e.g.
``MAX_QUEUED_AUDITS=50 claimaudit up`` on private ports and ``CLAIMAUDIT_STATE_DIR``), ``--n``
``POST /audits`` from ``--threads`` threads, the first ``--threads`` released together; ``/metrics``
is read every 0.5 s meanwhile. Then it waits for every accepted audit to end (``POST
/audits/status``, at most ``--drain-timeout`` s) and prints:

- ``codes``: answers by status; ``refusals``: the refused ones by (status, error type), and how
  many carried a ``Retry-After`` of at least 1 s;
- ``accepted``, ``done``, ``stored_new`` (the tenant's audits counted before and after:
  equal to ``accepted`` when nothing refused was stored);
- ``max_queue_depth`` (``claimaudit_queue_depth`` summed over priorities), the samples where it
  was above 0, and the largest ``claimaudit_oldest_queued_audit_age_seconds`` seen.

The key is the CLI's (``CLAIMAUDIT_API_KEY``, else the local admin key). Timings depend on the
machine: a measurement, not a check.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cli.credentials import api_key_for  # noqa: E402

REFERENCES = [
    "The Halvorsen Bridge opened to traffic on 12 May 1998. It carries six lanes.",
    "In 2004, the cellist Ines Marlow won the Varga Prize in Vienna.",
    "The Lysa river is 112 kilometres long and flows into the Baltic Sea.",
]


def audit_body(i: int) -> dict[str, Any]:
    """Audit ``i``: 2 claims against 1 to 3 references, its years and lengths varied."""
    return {
        "response": f"The Halvorsen Bridge opened in {1990 + i % 10}. "
        f"The Lysa river is {100 + i % 20} kilometres long.",
        "references": REFERENCES[: 1 + i % 3],
        "metadata": {"burst": i},
    }


def _sample(url: str, headers: dict[str, str], stop: threading.Event, out: list[tuple[float, float]]) -> None:
    with httpx.Client(base_url=url, headers=headers, timeout=10) as client:
        while not stop.is_set():
            depth = age = 0.0
            for family in text_string_to_metric_families(client.get("/metrics").text):
                for s in family.samples:
                    if s.name == "claimaudit_queue_depth":
                        depth += s.value
                    elif s.name == "claimaudit_oldest_queued_audit_age_seconds":
                        age = s.value
            out.append((depth, age))
            time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-url", required=True)
    parser.add_argument("--n", type=int, default=200, help="audits to submit (default 200)")
    parser.add_argument("--threads", type=int, default=40, help="requests in flight (default 40)")
    parser.add_argument("--drain-timeout", type=float, default=900.0)
    args = parser.parse_args()
    headers = {"Authorization": f"Bearer {api_key_for(args.api_url)}"}
    barrier = threading.Barrier(args.threads)

    def post(i: int) -> tuple[int, str | None, str]:
        with httpx.Client(base_url=args.api_url, headers=headers, timeout=120) as client:
            if i < args.threads:
                barrier.wait()
            r = client.post("/audits", json=audit_body(i))
            body = r.json()
            what = body["id"] if r.status_code in (200, 202) else body["detail"][0]["type"]
            return r.status_code, r.headers.get("Retry-After"), what

    with httpx.Client(base_url=args.api_url, headers=headers, timeout=120) as client:
        before = client.get("/audits", params={"limit": 1}).json()["total"]
        samples: list[tuple[float, float]] = []
        stop = threading.Event()
        sampler = threading.Thread(target=_sample, args=(args.api_url, headers, stop, samples), daemon=True)
        sampler.start()
        with ThreadPoolExecutor(args.threads) as pool:
            answers = list(pool.map(post, range(args.n)))
        accepted = [what for code, _, what in answers if code in (200, 202)]
        refused = [(code, ra, what) for code, ra, what in answers if code not in (200, 202)]
        status: dict[str, str] = {}
        deadline = time.monotonic() + args.drain_timeout
        while accepted and time.monotonic() < deadline:
            for start in range(0, len(accepted), 1000):
                page = client.post("/audits/status", json={"ids": accepted[start : start + 1000]}).json()
                status |= {str(x["id"]): x["status"] for x in page["items"]}
            if all(v in ("done", "failed") for v in status.values()):
                break
            time.sleep(2)
        stop.set()
        sampler.join(5)
        stored = client.get("/audits", params={"limit": 1}).json()["total"] - before
    print("codes", dict(Counter(code for code, _, _ in answers)))
    print("refusals", dict(Counter((code, what) for code, _, what in refused)),
          "with_retry_after", sum(1 for _, ra, _ in refused if ra and int(ra) >= 1))  # fmt: skip
    print("accepted", len(accepted), "done", sum(v == "done" for v in status.values()), "stored_new", stored)
    depths = [d for d, _ in samples]
    oldest = round(max((a for _, a in samples), default=0.0), 1)
    print("max_queue_depth", max(depths, default=0.0), "samples_above_0", sum(d > 0 for d in depths),
          "of", len(depths), "max_oldest_age_s", oldest)  # fmt: skip


if __name__ == "__main__":
    main()
