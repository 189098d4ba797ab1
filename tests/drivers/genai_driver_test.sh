#!/usr/bin/env bash
# The @google/genai drivers (drivers/genai/) on the whole corpus, one run per mode: every case the
# SDK fails, errs or times out on is listed in that mode's expectations file, and no listed case
# passes (`run --expect` gates on both). Usage: genai_driver_test.sh GEMINI_ORACLE SOURCE_DIR.
# Without Node.js and npm the test is skipped (exit 77), except under CI, where it fails.
set -euo pipefail
oracle=$1
src=$2
genai="$src/drivers/genai"

missing=""
command -v node >/dev/null 2>&1 || missing="node"
command -v npm >/dev/null 2>&1 || missing="${missing:+$missing and }npm"
if [ -z "$missing" ] && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  missing="Node.js 20 or later (found $(node --version))"  # the SDK's engines
fi
if [ -n "$missing" ]; then
  if [ -n "${CI:-}" ]; then
    echo "genai_driver_test: $missing not found; CI is set, so this fails instead of skipping" >&2
    exit 1
  fi
  echo "genai_driver_test: $missing not found; skipped" >&2
  exit 77
fi

# The SDK at the version the lock pins. npm ci empties node_modules first, so it runs only when
# the installed tree is not the one this lock installed.
stamp="$genai/node_modules/.installed-package-lock.json"
if ! cmp -s "$genai/package-lock.json" "$stamp"; then
  npm ci --prefix "$genai" --no-audit --no-fund
  cp "$genai/package-lock.json" "$stamp"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for mode in chat afc; do
  impl="node $(printf '%q' "$genai/driver.mjs") --mode $mode"
  if "$oracle" --source-root "$src" run --impl "$impl" --jobs 2 --seed 1 \
      --report-dir "$tmp/$mode" --expect "$genai/expectations/$mode.json" >"$tmp/$mode.log" 2>&1; then
    echo "genai_driver_test: $mode: $(tail -n 1 "$tmp/$mode.log")"
  else
    echo "genai_driver_test: $mode: the run does not match expectations/$mode.json" >&2
    grep -v '^progress: ' "$tmp/$mode.log" | tail -n 60 >&2
    status=1
  fi
done
exit "$status"
