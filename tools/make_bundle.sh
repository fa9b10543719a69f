#!/usr/bin/env bash
# Build every port into one stripped, xz-compressed library for the GPU machine, which
# has no cargo and takes 64 MiB per call (the toolchain is 57 of them).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python tools/sync_bundle.py     # every catalog port is a member of the bundle
env_args=$(.venv/bin/python -c 'from workbench.rust.toolchain import cargo_env; import shlex; print(" ".join(f"{k}={shlex.quote(v)}" for k, v in cargo_env().items() if k in ("CUDA_TOOLKIT_PATH", "CARGO_TARGET_DIR", "PATH")))')
(cd kernels_src && env -u CUDA_HOME -u CUTILE_SETUP_DIAGNOSTICS $env_args CARGO_TERM_COLOR=never timeout 3600 cargo build --release -p wb_bundle)
mkdir -p kernels_src/.build/bundle
strip -o kernels_src/.build/bundle/libwb_bundle.so kernels_src/target/release/libwb_bundle.so
xz -9 -T2 -f -k kernels_src/.build/bundle/libwb_bundle.so
# what each port in it was built from: without cargo, a port is loaded from the bundle only
# while its sources still match (workbench/rust/cargo.py, code_hash)
WORKBENCH_EXTRA_CATALOG=$PWD/kernels_src/fixtures/catalog.toml .venv/bin/python -c '
import json, sys
from workbench.rust.cargo import code_hash, has_port
from workbench.catalog import all_operators
json.dump({name: code_hash(op) for name, op in all_operators().items() if has_port(op)}, sys.stdout, indent=1)
' > kernels_src/.build/bundle/libwb_bundle.codes.json
# TileGym's kernel modules (input data, never in the repo): the GPU host reads them as the
# workbench does here, without installing or importing the package
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
(cd "$site" && tar --exclude=__pycache__ -cJf - tilegym/__init__.py tilegym/ops/__init__.py \
   tilegym/ops/cutile/__init__.py tilegym/ops/cutile/*.py) > kernels_src/.build/bundle/tilegym-src.tar.xz
ls -la kernels_src/.build/bundle/
