# syntax=docker/dockerfile:1
# Miai's image. One image for every role of a deployment (docs/operations.md, Deployment):
#   web process     miai serve  (the default command; listens on 0.0.0.0:8000 inside the container)
#   engine worker   miai worker
#   migrations      miai migrate  (once, before the others start)
# Build: docker build -t miai .

FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
# Every dependency ships wheels for Python 3.11 on amd64 and arm64, so no compiler is needed.
RUN python -m venv /opt/miai
COPY pyproject.toml README.md /src/
COPY src /src/src
RUN /opt/miai/bin/pip install /src


FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/miai --create-home \
        --shell /usr/sbin/nologin miai
COPY --from=build /opt/miai /opt/miai
ENV PATH=/opt/miai/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    MIAI_HOST=0.0.0.0 \
    MIAI_PORT=8000 \
    MIAI_DATA_DIR=/var/lib/miai/data \
    NUMBA_CACHE_DIR=/var/lib/miai/numba-cache
USER miai
WORKDIR /var/lib/miai
# The engine's numba kernels compile on first use (about 20 s of a core): compile them once here, into
# NUMBA_CACHE_DIR, so that no container pays for it again (a machine with another CPU recompiles by itself).
RUN printf 'boardsize 9\ngenmove b\nquit\n' | miai gtp --level 1 --time 1 >/dev/null
EXPOSE 8000
# No HEALTHCHECK here: workers run this image too and answer no HTTP. compose.yaml checks the web
# processes with GET /api/v1/health/live.
CMD ["miai", "serve"]
