#!/usr/bin/env bash
# Build every port into one stripped, xz-compressed library for the GPU machine, which
# has no cargo and takes 64 MiB per call (the toolchain is 57 of them).
set -euo pipefail
cd "$(dirname "$0")/.."
env_args=$(.venv/bin/python -c 'from workbench.build.toolchain import cargo_env; import shlex; print(" ".join(f"{k}={shlex.quote(v)}" for k, v in cargo_env().items() if k in ("CUDA_TOOLKIT_PATH", "CARGO_TARGET_DIR", "PATH")))')
(cd kernels_src && env -u CUDA_HOME -u CUTILE_SETUP_DIAGNOSTICS $env_args CARGO_TERM_COLOR=never timeout 3600 cargo build --release -p wb_bundle)
mkdir -p kernels_src/.build/bundle
strip -o kernels_src/.build/bundle/libwb_bundle.so kernels_src/target/release/libwb_bundle.so
xz -9 -T2 -f -k kernels_src/.build/bundle/libwb_bundle.so
ls -la kernels_src/.build/bundle/
