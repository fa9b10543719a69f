#!/usr/bin/env bash
# dask.distributed for the GPU machine, whose image lacks it: the versions in .venv, of the
# wheels that image does not have (dask, distributed, tornado, tblib, zict, partd, locket;
# cloudpickle, msgpack, psutil, toolz, ... are there), pure Python for its Python 3.12,
# without what the batch never imports (dask.array, dask.dataframe, dask.bag, tests, the
# dashboard's static files): about 0.8 MB, next to the 57 MiB toolchain in one 64 MiB call.
#   bash tools/pack_dask.sh          ->  .gpu-dask/dask-site.tar.xz (git-ignored)
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
mkdir -p .gpu-dask
XZ_OPT=-9e tar -cJf .gpu-dask/dask-site.tar.xz -C "$tmp/site" .
echo "$pins" > .gpu-dask/versions.txt
ls -la .gpu-dask/
