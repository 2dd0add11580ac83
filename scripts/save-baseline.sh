#!/usr/bin/env bash
# Saves a release build of the current tree as the baseline for scripts/sprt.sh.
#   scripts/save-baseline.sh [DEST]        (default DEST: target/baseline/omega)
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-target/baseline/omega}
cargo build --release --bin omega
mkdir -p "$(dirname "$dest")"
cp target/release/omega "$dest"
echo "baseline saved: $dest ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', dirty tree'))"
