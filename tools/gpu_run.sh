#!/usr/bin/env bash
# On the GPU machine (no network, no cargo): the carried toolchain and port bundle, then
# tools/gpu_session.py. Usage: bash tools/gpu_run.sh [STEP ...]
#   bash tools/gpu_run.sh batch       workbench batch over the catalog (GPU checks, benches)
#   against a plain bench; needs .gpu-batch/ carried too (tools/pack_batch.sh, 7 MB).
#   bash tools/gpu_run.sh tilegym     TileGym's families: checks and three-sided timings
#                                     (TILEGYM_FAMILIES=tilegym.softmax,... picks some); a
#   fourth side, TileGym's own cutile-rs ports, where kernels_src/.build/bundle/
#   libcutile_kernels.so.xz is there (tools/build_tilegym_rs.sh)
#   bash tools/gpu_run.sh notebooks   runs the three notebooks (tools/gpu_notebooks.py); it
#   needs .gpu-notebooks/ carried, and .gpu and the bundle already there from a call just
#   before it (one call cannot carry all three: 64 MiB).
#   bash tools/gpu_run.sh record      recorded targets against the user's own kernels
#   (tools/gpu_record.py): carry .gpu-record, with .gpu there from the call before
#   bash tools/gpu_run.sh interp      the CPU interpreter's verdicts against the GPU's, same
#   cases, one run (tools/gpu_interp.py; INTERP_TARGETS=a,b picks some); carry .gpu-batch
#   bash tools/gpu_run.sh tune        workbench tune on each own operator's largest case, then
#   bench/tune_bench.py (TUNE_OPS=a,b picks some); carry .gpu-batch (dask) and the bundle
#   bash tools/gpu_run.sh triton      the Triton ports against their Triton kernels
#   (tools/gpu_triton.py); carry .gpu, .triton-gpu and .whl (tilegym's wheel); the libraries
#   travel xz-compressed (about 10 MB each stripped, 2 MB compressed): xz -9 .triton-gpu/*.so;
#   TRITON_TARGETS=FILE.json (tools/gpu_triton.py) runs kernels of files instead (no wheel)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .gpu/activate.sh ] || { echo "no .gpu here: carry it (or run a call that carries it first)" >&2; exit 2; }
source .gpu/activate.sh
export WORKBENCH_NVIDIA_BIN=$CUDA_HOME/bin
bundle=kernels_src/.build/bundle/libwb_bundle.so
if [ -f "$bundle" ] || [ -f "$bundle.xz" ]; then     # the record step needs none
  [ -f "$bundle" ] || xz -dkc "$bundle.xz" > "$bundle"
  export WORKBENCH_PREBUILT=$PWD/$bundle
fi
# TileGym's own cutile-rs ports (tools/build_tilegym_rs.sh), the tilegym step's fourth side when
# carried; it needs only what .gpu/activate.sh sets (cutile 0.2.0 runs $CUTILE_TILEIRAS_PATH,
# else tileiras on PATH; tileiras reads libNVVM from $CUDA_HOME) and the driver's libcuda
other_rust=kernels_src/.build/bundle/libcutile_kernels.so
# unpacked on every call (1 s): a warm machine may hold the library of an earlier call
[ -f "$other_rust.xz" ] && xz -dc "$other_rust.xz" > "$other_rust"
[ -f "$other_rust" ] && export WORKBENCH_TILEGYM_RS=$PWD/$other_rust
# TileGym's kernel modules, read (never imported) by the workbench: see tools/make_bundle.sh
tilegym_src=${TMPDIR:-/tmp}/tilegym-src
if [ -f kernels_src/.build/bundle/tilegym-src.tar.xz ]; then
  mkdir -p "$tilegym_src" && tar -xJf kernels_src/.build/bundle/tilegym-src.tar.xz -C "$tilegym_src"
fi
export WORKBENCH_EXTRA_CATALOG=$PWD/kernels_src/fixtures/catalog.toml
# Both sides' compiled kernels outlive a call (an ignored folder stays on a warm machine):
# cuTile Python's disk cache and the bundle's cutile one (workbench/rust/library.py)
export CUDA_TILE_CACHE_DIR=$PWD/.gpu-cache/cutile-python WORKBENCH_JIT_CACHE=$PWD/.gpu-cache/cutile-rs
# ... and sessions, when carried: a fresh machine seeds .gpu-cache from a carried
# kernels_src/.build/gpu-cache.tar.xz, which SAVE_GPU_CACHE=1 writes to $OUT at the end (each
# cache keys a kernel by its bytecode or source, generics, compiler and GPU, so a changed port
# compiles again; on the H200 one bmm specialization took tileiras 63 s a side)
cache_seed=kernels_src/.build/gpu-cache.tar.xz
[ -f "$cache_seed" ] && [ ! -d .gpu-cache ] && tar -xJf "$cache_seed"
export CUDA_TILE_DUMP_BYTECODE=${TMPDIR:-/tmp}/cutile-dump
mkdir -p "$CUDA_TILE_DUMP_BYTECODE"
export PYTHONPATH=$PWD:$tilegym_src${PYTHONPATH:+:$PYTHONPATH}
if [ -f .gpu-batch/dask-site.tar.xz ]; then     # the batch step's (tools/pack_batch.sh)
  dask_site=${TMPDIR:-/tmp}/dask-site
  [ -d "$dask_site/distributed" ] || { mkdir -p "$dask_site" && tar -xJf .gpu-batch/dask-site.tar.xz -C "$dask_site"; }
  export PYTHONPATH=$PYTHONPATH:$dask_site
  for tool in tileirdisasm cuobjdump nvdisasm; do      # the IR diff's and the SASS's tools
    if [ -f ".gpu-batch/$tool.xz" ] && [ ! -x "$CUDA_HOME/bin/$tool" ]; then
      xz -dc ".gpu-batch/$tool.xz" > "$CUDA_HOME/bin/$tool" && chmod +x "$CUDA_HOME/bin/$tool"
    fi
  done
fi
export OUT=${OUT:-gpu-out}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
python3 -c 'import torch, cuda.tile; print("torch", torch.__version__, "cuda", torch.version.cuda, "cuda-tile", cuda.tile.__version__)'
if [ "${1:-}" = notebooks ]; then
  site=${TMPDIR:-/tmp}/notebook-site
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$site" .gpu-notebooks/wheels/*.whl
  export PYTHONPATH=$PYTHONPATH:$site
  tar -xJf .gpu-notebooks/payload.tar.xz -C "$CUDA_HOME" bin
  tar -xJf .gpu-notebooks/payload.tar.xz --strip-components=1 prebuilt
  unset CUDA_TILE_DUMP_BYTECODE       # the specialize step's, not the notebooks'
  exec python3 tools/gpu_notebooks.py run
fi
if [ "${1:-}" = record ]; then
  # recorded targets against the user's own kernels (tools/gpu_record.py); carry .gpu-record
  unset CUDA_TILE_DUMP_BYTECODE
  exec python3 tools/gpu_record.py run
fi
if [ "${1:-}" = interp ]; then
  # the CPU interpreter's verdicts against the GPU's (tools/gpu_interp.py); carry .gpu-batch
  unset CUDA_TILE_DUMP_BYTECODE
  exec python3 tools/gpu_interp.py run
fi
if [ "${1:-}" = triton ]; then
  # Triton ports: TileGym is carried as its wheel (.whl/, no dependencies), ports in .triton-gpu
  # (not needed by TRITON_TARGETS of the user's own files)
  if compgen -G ".whl/tilegym-*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "${TMPDIR:-/tmp}/triton-site" .whl/tilegym-*.whl
  fi
  # first: the whole package, ahead of the bundle's tilegym-src (its cutile modules only)
  export PYTHONPATH=${TMPDIR:-/tmp}/triton-site:$PYTHONPATH
  unset CUDA_TILE_DUMP_BYTECODE
  for lib in .triton-gpu/*.so.xz; do [ -e "$lib" ] && xz -dkf "$lib"; done   # pack --xz
  exec python3 tools/gpu_triton.py run
fi
status=0
python3 tools/gpu_session.py "$@" || status=$?
if [ "${SAVE_GPU_CACHE:-}" = 1 ] && [ -d .gpu-cache ]; then
  tar -cJf "$OUT/gpu-cache.tar.xz" .gpu-cache
  echo "kernel caches for the next session: $(du -h "$OUT/gpu-cache.tar.xz" | cut -f1) (16 MiB at most come back)"
fi
exit $status
