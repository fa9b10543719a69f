#!/usr/bin/env bash
# Build every port, the fixtures' included, into one stripped, xz-compressed library for the
# GPU machine (kernels_src/.build/bundle/libwb_bundle.so.xz + .codes.json): tools/make_bundle.py.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python tools/make_bundle.py
