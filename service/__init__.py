"""The service layer shared by the API and the workers: settings, admission, limits, runs, checks.

Layers, lowest first (held by import-linter contracts in ``pyproject.toml``, run by ``make check``):

- ``claims``: the claim engine (decomposition, matching, verdicts); imports none of the others.
- ``db``: models, migrations' schema and every SQL statement; never reads settings.
- ``service``: what the API and the workers both decide: ``settings`` (the one ``Settings``,
  read from the environment), the admission path (``admission``, ``rate_limits``, ``backlog``,
  ``llm_policy``, ``storable``), runs and checks (``runs``, ``checks``, ``schedule``,
  ``source_policy``, ``http_limits``), the LLM configuration (``llm_config``, ``llm_formats``)
  and the Prometheus series (``metrics``). No Celery and no FastAPI here.
- ``workers``: the Celery tasks of the stages. The API reaches them only through
  ``workers.port`` (enqueue, search through a worker, count the consumers of a queue).
- ``api`` and ``cli``: the HTTP service and the command line, independent of each other.
"""
