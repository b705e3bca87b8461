# One image for the api, worker, flower and migrate services (docker-compose.yml).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first (cached layer): only pyproject.toml and empty packages are needed to resolve them.
COPY pyproject.toml README.md ./
# The CPU build of torch (PyPI's default Linux wheel bundles CUDA: several GB the image never uses).
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
RUN mkdir -p claims db workers api cli migrations \
    && for p in claims db workers api cli migrations; do touch $p/__init__.py; done \
    && pip install . \
    && pip uninstall -y claimaudit

COPY claims ./claims
COPY db ./db
COPY workers ./workers
COPY api ./api
COPY cli ./cli
COPY migrations ./migrations
COPY alembic.ini ./
RUN pip install --no-deps . \
    && useradd --system --uid 10001 --no-create-home claimaudit

USER claimaudit
EXPOSE 8000 5555
CMD ["uvicorn", "api.main:app", "--host", "0.0.0.0", "--port", "8000"]
