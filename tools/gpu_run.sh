#!/usr/bin/env bash
# On the GPU machine (no network, no cargo): the carried toolchain and port bundle, then
# tools/gpu_session.py. Usage: bash tools/gpu_run.sh [STEP ...]
set -euo pipefail
cd "$(dirname "$0")/.."
source .gpu/activate.sh
bundle=kernels_src/.build/bundle/libwb_bundle.so
[ -f "$bundle" ] || xz -dkc "$bundle.xz" > "$bundle"
export WORKBENCH_PREBUILT=$PWD/$bundle
export WORKBENCH_EXTRA_CATALOG=$PWD/kernels_src/fixtures/catalog.toml
export CUDA_TILE_DUMP_BYTECODE=${TMPDIR:-/tmp}/cutile-dump
mkdir -p "$CUDA_TILE_DUMP_BYTECODE"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
export OUT=${OUT:-gpu-out}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
python3 -c 'import torch, cuda.tile; print("torch", torch.__version__, "cuda", torch.version.cuda, "cuda-tile", cuda.tile.__version__)'
exec python3 tools/gpu_session.py "$@"
