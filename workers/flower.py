"""Flower with every page behind its login, ``/metrics`` included: ``python -m workers.flower
--address=... --port=...`` (the arguments of ``celery -A workers.celery_app flower``).

Flower serves its Prometheus ``/metrics`` (task names, worker host names, counts) without the
login of its other pages; :func:`protect_metrics` puts it behind the same check
(``FLOWER_BASIC_AUTH`` or Flower's ``--auth``): 401 without credentials. Only ``/healthcheck``
("OK") stays open, for the container's probe. A Prometheus scraping Flower sends the basic-auth
credentials (``basic_auth`` in its scrape config).
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["protect_metrics", "main"]


def protect_metrics() -> None:
    """Wrap Flower's ``Metrics.get`` in Tornado's ``authenticated`` check (idempotent)."""
    from flower.views import monitor
    from tornado import web

    get: Any = monitor.Metrics.get
    if getattr(get, "claimaudit_login", False):
        return
    wrapped: Any = web.authenticated(get)
    wrapped.claimaudit_login = True
    monitor.Metrics.get = wrapped


def main(argv: list[str] | None = None) -> None:
    """Run ``celery -A workers.celery_app flower <argv>`` with :func:`protect_metrics` applied."""
    protect_metrics()
    from celery.bin.celery import main as celery_main

    args = sys.argv[1:] if argv is None else argv
    sys.argv = ["celery", "-A", "workers.celery_app", "flower", *args]
    celery_main()


if __name__ == "__main__":
    main()
