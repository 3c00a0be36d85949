#!/usr/bin/env bash
# Measures the release app in a virtual X display: time to the first frame, the app's own
# work per frame while the engine analyses, and memory; takes a screenshot in each
# language to look at. Needs Xvfb, xdotool and imagemagick (Debian: xvfb xdotool
# imagemagick) and `cargo build --release`. Usage: app/tools/measure.sh [OUTDIR]
# Run from the project root; the game opened is ../shared/data/formats/xqf_eleeye/SAMPLE.XQF.
set -u
BIN=target/release/chuhe
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
  DISPLAY=$display CHUHE_HOME=$home CHUHE_STATS=$OUT/stats-$lang.txt \
    "$BIN" ../shared/data/formats/xqf_eleeye/SAMPLE.XQF >/dev/null 2>&1 &
  app=$!
  sleep 4
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
  kill "$app" "$xvfb"
  wait 2>/dev/null
  rm -rf "$home"
  echo "== $lang"
  cat "$OUT/stats-$lang.txt" "$OUT/memory-$lang.txt"
done
