#!/usr/bin/env bash
# Runs the Windows engine, pbrain-wuzi64.exe, under Wine and checks that it
# speaks the protocol: the session tests of cmd/pbrain-wuzi (CR LF input,
# START/BEGIN/TURN/BOARD/INFO/END, bad input, time limits) drive the exe
# through pipes, as Piskvork and GomocupJudge do.
#
# Debian's Wine 8 lacks bcryptprimitives.dll, whose ProcessPrng every Go
# >= 1.22 Windows program needs at start-up; scripts/winprng builds a
# stand-in with mingw-w64 and installs it in the prefix's system32 (Go
# loads it from there only).
#
# Installs wine, wine64 and the mingw-w64 C compiler with apt-get when they
# are missing. Where they cannot be installed it prints SKIP and exits 0;
# once Wine runs, any failure fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

work=$(mktemp -d)
trap 'WINEPREFIX="$work/prefix" wineserver -k >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

need=()
command -v wine >/dev/null 2>&1 || need+=(wine)
[ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null 2>&1 || need+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo -n"
    else
      echo "SKIP: the Windows engine was not run under Wine: ${need[*]} missing and no root to install them"
      exit 0
    fi
  fi
  echo "== installing ${need[*]}"
  if ! { $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
         $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$work/apt.log" 2>&1; then
    tail -5 "$work/apt.log"
    echo "SKIP: the Windows engine was not run under Wine: apt-get could not install ${need[*]}"
    exit 0
  fi
fi
wine=wine
if ! command -v wine >/dev/null 2>&1; then
  wine=$(command -v wine64)
fi

export WINEPREFIX="$work/prefix" WINEARCH=win64 WINEDEBUG=-all
unset DISPLAY

echo "== building bcryptprimitives.dll and pbrain-wuzi64.exe"
x86_64-w64-mingw32-gcc -O2 -shared -s -o "$work/bcryptprimitives.dll" scripts/winprng/bcryptprimitives.c -ladvapi32
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o "$work/pbrain-wuzi64.exe" ./cmd/pbrain-wuzi

echo "== a fresh Wine prefix"
start=$(date +%s)
$wine wineboot -i >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; exit 1; }
system32="$WINEPREFIX/drive_c/windows/system32"
[ -d "$system32" ] || { echo "no $system32 after wineboot"; cat "$work/wineboot.log"; exit 1; }
cp "$work/bcryptprimitives.dll" "$system32/"
echo "prefix ready in $(($(date +%s) - start)) s: $($wine --version)"

echo "== pbrain-wuzi64.exe answers under Wine"
printf 'ABOUT\r\nSTART 15\r\nINFO timeout_turn 1000\r\nBEGIN\r\nEND\r\n' | timeout 60 $wine "$work/pbrain-wuzi64.exe"

echo "== the protocol session tests against pbrain-wuzi64.exe under Wine"
WUZI_ENGINE_CMD="$wine $work/pbrain-wuzi64.exe" go test -count=1 -v -run 'External|Session|Rule|Swap2|OddInput|BeforeStart|Overlong' ./cmd/pbrain-wuzi
echo "Windows engine under Wine: passed"
