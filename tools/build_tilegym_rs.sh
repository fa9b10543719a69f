#!/usr/bin/env bash
# TileGym's own cutile-rs ports (installed input, tilegym/ops/cutile_rs, never in the repo),
# built as they ship: one cdylib pinned to cutile =0.2.0, stripped and xz'd for the GPU machine
# (kernels_src/.build/bundle/libcutile_kernels.so.xz; tools/gpu_run.sh unpacks it and exports
# WORKBENCH_TILEGYM_RS). Its own cargo target: the 0.2.0 crates share nothing with our 0.4.0
# ones. About 16 minutes cold on 2 cores. Usage: bash tools/build_tilegym_rs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD/kernels_src/.build/tilegym-rs
bundle=$PWD/kernels_src/.build/bundle
site=$(timeout 60 .venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
tree=$site/tilegym/ops/cutile_rs
[ -f "$tree/cutile_kernels/Cargo.toml" ] || { echo "no $tree/cutile_kernels: run scripts/setup (tilegym 1.5.1)" >&2; exit 2; }
# a fresh copy each time, so a changed install is what gets built (cargo keeps its target)
rm -rf "$root/src"
mkdir -p "$root/src" "$bundle"
(cd "$tree" && tar --exclude=__pycache__ --exclude='*.py' -cf - .) | tar -xf - -C "$root/src"
# the copy lies under kernels_src/, whose Cargo.toml is our workspace: keep it a crate of its own
printf '\n[workspace]\n' >> "$root/src/cutile_kernels/Cargo.toml"
# tar kept the sources' mtimes; the manifest's too, so an unchanged tree is not rebuilt
touch -r "$tree/cutile_kernels/Cargo.toml" "$root/src/cutile_kernels/Cargo.toml"
# bindgen's headers (cuda.h, curand.h) and the toolkit cutile's build script looks for: pip's
# nvidia/cu13, as workbench/rust/toolchain.py gives our own builds
export CUDA_TOOLKIT_PATH=$site/nvidia/cu13
unset CUDA_HOME CUDA_PATH RUSTFLAGS
export CARGO_TARGET_DIR=$root/target CARGO_TERM_COLOR=never
start=$(date +%s)
timeout 3600 cargo build --release --manifest-path "$root/src/cutile_kernels/Cargo.toml"
echo "cargo build: $(( $(date +%s) - start )) s"
# the stripped library beside its build (tests load it), only its xz in the carried folder
timeout 120 strip -o "$root/libcutile_kernels.so" "$CARGO_TARGET_DIR/release/libcutile_kernels.so"
timeout 600 xz -9 -c "$root/libcutile_kernels.so" > "$bundle/libcutile_kernels.so.xz"
ls -la "$root/libcutile_kernels.so" "$bundle/libcutile_kernels.so.xz"
