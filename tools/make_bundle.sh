#!/usr/bin/env bash
# Build every port, the fixtures' included, into one stripped, xz-compressed library for the
# GPU machine (kernels_src/.build/bundle/libwb_bundle.so.xz + .codes.json): tools/make_bundle.py.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python tools/make_bundle.py
# TileGym's kernel modules (input data, never in the repo): the GPU host reads them as the
# workbench does here, without installing or importing the package
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
(cd "$site" && tar --exclude=__pycache__ -cJf - tilegym/__init__.py tilegym/ops/__init__.py \
   tilegym/ops/cutile/__init__.py tilegym/ops/cutile/*.py) > kernels_src/.build/bundle/tilegym-src.tar.xz
ls -la kernels_src/.build/bundle/
