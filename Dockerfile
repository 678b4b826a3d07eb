# fourcards server image (docs/deploy.md "Containers"): multi-stage, runs as a non-root user.
# The build stage's only install step is scripts/install.sh, which CI runs too (.ci/run);
# hadolint checks this file in CI.
#
#   docker build -t fourcards:0.1.0 .
#   docker run -p 8000:8000 -e FOURCARDS_DATABASE_URL=postgresql+psycopg://... fourcards:0.1.0

FROM python:3.13-slim-bookworm AS build
# a C compiler for the numba kernels compiled while the package is built
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHON=python3
WORKDIR /src
COPY pyproject.toml setup.py requirements.lock README.md ./
COPY src ./src
COPY scripts/install.sh ./scripts/install.sh
RUN ./scripts/install.sh /opt/fourcards

FROM python:3.13-slim-bookworm
LABEL org.opencontainers.image.title="fourcards" \
      org.opencontainers.image.description="Four Card Poker and Four of a Kind: the web server"
RUN groupadd --system --gid 10001 fourcards \
    && useradd --system --uid 10001 --gid fourcards --home-dir /var/lib/fourcards --create-home fourcards
COPY --from=build /opt/fourcards /opt/fourcards
ENV PATH="/opt/fourcards/bin:$PATH" \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    FOURCARDS_CACHE_DIR=/var/lib/fourcards/cache \
    FOURCARDS_DATABASE_URL=sqlite:////var/lib/fourcards/fourcards.db
USER 10001:10001
WORKDIR /var/lib/fourcards
VOLUME ["/var/lib/fourcards"]
EXPOSE 8000
# ready: the database answers and its schema is current (not only "the process is up")
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/api/ready', timeout=2).status == 200 else 1)"]
ENTRYPOINT ["fourcards"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
