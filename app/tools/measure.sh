#!/usr/bin/env bash
# Measures the release app in a virtual X display: time to the first frame, the app's own
# work per frame while the engine analyses, and memory; takes a screenshot in each
# language to look at. Needs Xvfb, xdotool and imagemagick (Debian: xvfb xdotool
# imagemagick) and `cargo build --release`. Usage: app/tools/measure.sh [OUTDIR]
# Run from the project root; the game opened is ../shared/data/formats/xqf_eleeye/SAMPLE.XQF.
# With CLASS_PORT=N the app also opens a class on port N (`--class --port N`) and
# CLASS_STUDENTS students (default 20, curl) follow its board throughout.
# CHUHE_BIN overrides the binary (for another target directory).
set -u
BIN=${CHUHE_BIN:-target/release/chuhe}
CLASS_PORT=${CLASS_PORT:-}
CLASS_STUDENTS=${CLASS_STUDENTS:-20}
OUT=${1:-/tmp/chuhe-measure}
mkdir -p "$OUT"
display=:77
for lang in ZhCn ZhTw En; do
  home=$(mktemp -d)
  printf '(language: %s)\n' "$lang" >"$home/settings.ron"
  Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
  xvfb=$!
  sleep 1
  # CHUHE_STATS: the app writes its frame statistics there every 30 frames.
  class=()
  if [ -n "$CLASS_PORT" ]; then class=(--class --port "$CLASS_PORT"); fi
  DISPLAY=$display CHUHE_HOME=$home CHUHE_STATS=$OUT/stats-$lang.txt \
    "$BIN" "${class[@]}" ../shared/data/formats/xqf_eleeye/SAMPLE.XQF >"$OUT/stdout-$lang.txt" 2>/dev/null &
  app=$!
  sleep 4
  students=()
  if [ -n "$CLASS_PORT" ]; then
    # The announcement: class: http://<address>:<port>/ code <code>
    code=$(sed -n 's/^class: .* code \([0-9]*\)$/\1/p' "$OUT/stdout-$lang.txt")
    cat "$OUT/stdout-$lang.txt"
    for _ in $(seq "$CLASS_STUDENTS"); do
      curl -sN "http://127.0.0.1:$CLASS_PORT/events?code=$code" >/dev/null 2>&1 &
      students+=($!)
    done
  fi
  window=$(DISPLAY=$display xdotool search --name Chuhe | head -1)
  DISPLAY=$display xdotool windowfocus --sync "$window"
  sleep 0.3
  # To the end of the game, then analyse it (Space) for 12 seconds.
  DISPLAY=$display xdotool key End
  sleep 0.3
  DISPLAY=$display xdotool key space
  sleep 12
  DISPLAY=$display import -window root "$OUT/main-$lang.png"
  grep -E "VmRSS|VmHWM" "/proc/$app/status" >"$OUT/memory-$lang.txt"
  kill "$app" "$xvfb" "${students[@]}" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$home"
  echo "== $lang"
  cat "$OUT/stats-$lang.txt" "$OUT/memory-$lang.txt"
done
