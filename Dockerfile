# gloomtable's server in a container (docs/deploy.md, "Containers"): a slim image,
# the wheel built in a first stage and installed alone in the second, run as a
# user of its own, with Docker's health check on /healthz.
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY buildsys ./buildsys
COPY src ./src
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 GLOOMTABLE_DB=/data/tables.db
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir "$(ls /wheels/gloomtable-*.whl)[redis]" && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /data --create-home gloom
USER gloom
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
# liveness only: a database outage must not get every container restarted (/readyz is for the proxy)
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://localhost:8000/healthz', timeout=2)"]
ENTRYPOINT ["gloom", "serve", "--host", "0.0.0.0", "--port", "8000"]
