#!/usr/bin/env bash
# Install the fourcards server - the package with its web extra, at the locked versions - into a
# new virtual environment at PREFIX, and check that it runs. The one install step of the
# Dockerfile (its build stage runs it), of a machine installed by hand (docs/deploy.md), and of
# CI (.ci/run runs it into a temporary folder, so the step images use is tested even where no
# image can be built).
#
#   scripts/install.sh PREFIX            e.g. scripts/install.sh /opt/fourcards
#   PYTHON=python3.13 scripts/install.sh /opt/fourcards
#
# Needs Python 3.11 or newer with venv, and a C compiler (the numba kernels are compiled
# ahead of time while the package is built). Leaves PREFIX/bin/fourcards.
set -euo pipefail

prefix="${1:?usage: scripts/install.sh PREFIX}"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"

"$python" -c 'import sys; assert sys.version_info >= (3, 11), "fourcards needs Python 3.11 or newer"'
"$python" -m venv "$prefix"
"$prefix/bin/pip" install --quiet --upgrade pip
"$prefix/bin/pip" install --quiet --constraint "$source_dir/requirements.lock" "$source_dir[web]"

# The check: the commands start, the schema's migrations are packaged and run on a scratch database.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$prefix/bin/fourcards" --help > /dev/null
"$prefix/bin/fourcards" db upgrade --database-url "sqlite:///$scratch/check.db" > /dev/null
"$prefix/bin/fourcards" db current --database-url "sqlite:///$scratch/check.db" | grep -q "up to date"
"$prefix/bin/python" -c 'import fourcards, fourcards.web, argon2, psycopg; print("fourcards", fourcards.__version__, "installed")'
