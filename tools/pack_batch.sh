#!/usr/bin/env bash
# What `bash tools/gpu_run.sh batch` needs on the GPU machine beyond .gpu and the bundle:
# - dask.distributed, which its image lacks: the versions in .venv of the wheels it does not
#   have (dask, distributed, tornado, tblib, zict, partd, locket; cloudpickle, msgpack,
#   psutil, toolz, ... are there), for its Python 3.12, without what the batch never imports
#   (dask.array, dask.dataframe, dask.bag, tests, the dashboard's static files): 0.8 MB;
# - tileirdisasm, for the port stage's IR diff, and cuobjdump + nvdisasm, for the SASS that
#   tells a compiler fault from a host one (the toolchain pack has tileiras and ptxas only):
#   6.2 MB.
# About 7 MB: carried in the call after the one that carries the 57 MiB toolchain.
#   bash tools/pack_batch.sh          ->  .gpu-batch/ (git-ignored)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(dask distributed tornado tblib zict partd locket)
pins=$(.venv/bin/python -c 'import sys, importlib.metadata as m; print(" ".join(f"{n}=={m.version(n)}" for n in sys.argv[1:]))' "${packages[@]}")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
.venv/bin/python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d "$tmp/wheels" $pins
.venv/bin/python -m pip install -q --no-index --no-deps --no-compile --target "$tmp/site" "$tmp"/wheels/*.whl
rm -rf "$tmp"/site/dask/{array,dataframe,bag,tests} "$tmp"/site/distributed/{dashboard,http/static} \
  "$tmp"/site/tornado/test "$tmp"/site/bin
find "$tmp/site" \( -name tests -o -name __pycache__ \) -type d -prune -exec rm -rf {} +
mkdir -p .gpu-batch
XZ_OPT=-9e tar -cJf .gpu-batch/dask-site.tar.xz -C "$tmp/site" .
echo "$pins" > .gpu-batch/versions.txt
bin=$(.venv/bin/python -c 'from workbench.tools import nvidia_bin_dir; print(nvidia_bin_dir())')
for tool in tileirdisasm cuobjdump nvdisasm; do xz -9e -T2 -c "$bin/$tool" > ".gpu-batch/$tool.xz"; done
ls -la .gpu-batch/
