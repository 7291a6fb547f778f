#!/usr/bin/env bash
# Compiles the stdlib modules bench.mjs measures to ES modules in out/
# (lowentc --target wasm32 --emit js), with the lowentc of this checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$here/out"
cd "$root"
go build -o "$here/out/lowentc" ./cmd/lowentc
for m in sha256 blake2b gcm chacha20poly1305; do
	"$here/out/lowentc" --target wasm32 --emit js -o "$here/out/$m.mjs" "stdlib/$m.lw"
done
echo "build.sh: out/{sha256,blake2b,gcm,chacha20poly1305}.mjs"
