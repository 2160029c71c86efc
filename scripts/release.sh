#!/usr/bin/env bash
# Builds Wuzi for release: pbrain-wuzi for Linux (amd64) and pbrain-wuzi64.exe
# for Windows (amd64), both static (CGO_ENABLED=0), and packs the Windows
# engine at the root of a Gomocup-ready zip.
#
#   scripts/release.sh [OUTDIR]      (default: dist/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
mkdir -p "$out"
version=$(sed -n 's/^const Version = "\(.*\)"/\1/p' brain/brain.go)
flags=(-trimpath -ldflags "-s -w")

echo "building pbrain-wuzi $version"
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build "${flags[@]}" -o "$out/pbrain-wuzi" ./cmd/pbrain-wuzi
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build "${flags[@]}" -o "$out/pbrain-wuzi64.exe" ./cmd/pbrain-wuzi
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build "${flags[@]}" -o "$out/wuzi-match" ./cmd/wuzi-match 2>/dev/null || true

# Gomocup: the brain's files at most 8 MB, executables at the root of the zip.
zip_name="$out/wuzi-$version-gomocup.zip"
rm -f "$zip_name"
if command -v zip >/dev/null 2>&1; then
  (cd "$out" && zip -q -X "$(basename "$zip_name")" pbrain-wuzi64.exe)
else
  python3 - "$zip_name" "$out/pbrain-wuzi64.exe" <<'PY'
import sys, zipfile, os
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.write(sys.argv[2], os.path.basename(sys.argv[2]))
PY
fi
size=$(stat -c %s "$out/pbrain-wuzi64.exe")
if [ "$size" -gt $((8 * 1024 * 1024)) ]; then
  echo "warning: pbrain-wuzi64.exe is $size bytes, over Gomocup's 8 MB" >&2
fi
ls -l "$out"
