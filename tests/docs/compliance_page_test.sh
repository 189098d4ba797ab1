#!/usr/bin/env bash
# docs/compliance/index.html in a real browser: headless Chromium renders the committed page at
# 1400 px and the page's own script marks it (data-matrix="fits" when the clause matrix fits
# the window). The test fails on a script error (no mark, or data-script-error) and on a matrix
# wider than the page. Two controls prove the check can fail: a table of forty columns must
# overflow, and a page whose script throws must go unmarked.
# Usage: compliance_page_test.sh GEMINI_ORACLE SOURCE_DIR.
# Without Chromium the test is skipped (exit 77), except under CI, where it fails.
set -euo pipefail
oracle=$1
src=$2
page="$src/docs/compliance/index.html"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  if [ -n "${CI:-}" ]; then
    echo "compliance_page_test: chromium not found (scripts/setup installs it); CI is set, so this fails" >&2
    exit 1
  fi
  echo "compliance_page_test: chromium not found; skipped" >&2
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The <body> tag as rendered, after the page's load handler ran.
body_of() {
  "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
    --window-size=1400,1000 --virtual-time-budget=5000 --dump-dom "file://$(realpath "$1")" 2>/dev/null |
    grep -o '<body[^>]*>' | head -n 1 || true
}

status=0
[ -f "$page" ] || { echo "compliance_page_test: $page is missing (run scripts/compliance)" >&2; exit 1; }
body=$(body_of "$page")
case "$body" in
  *'data-script-error'*) echo "compliance_page_test: the page's script failed: $body" >&2; status=1 ;;
  *'data-matrix="fits"'*) echo "compliance_page_test: the matrix fits 1400 px" ;;
  *) echo "compliance_page_test: the matrix does not fit 1400 px or the page was not marked: $body" >&2
     status=1 ;;
esac

# Control 1: forty implementations cannot fit; the check must say so.
mkdir -p "$tmp/report"
printf '%s' '{"json_schema_version":2,"context":{"implementation":"x"},"summary":{},
  "results":[{"id":"a/y_one","verdict":"pass","clauses":["ADR-224.1"],"findings":[]}]}' \
  >"$tmp/report/index.json"
labels=()
for i in $(seq 1 40); do labels+=("implementation-$i=$tmp/report"); done
"$oracle" --source-root "$src" compliance --out "$tmp/wide" "${labels[@]}" >/dev/null
body=$(body_of "$tmp/wide/index.html")
case "$body" in
  *'data-matrix="overflows"'*) ;;
  *) echo "compliance_page_test: control: a forty-column matrix was not found too wide: $body" >&2
     status=1 ;;
esac

# Control 2: a page whose script throws is marked as such and never as fitting.
sed 's/getBoundingClientRect()/noSuchMethod()/' "$page" >"$tmp/broken.html"
cmp -s "$page" "$tmp/broken.html" && { echo "compliance_page_test: control: the page's script changed; update the control" >&2; status=1; }
body=$(body_of "$tmp/broken.html")
case "$body" in
  *'data-matrix='*) echo "compliance_page_test: control: a throwing script still marked the page" >&2
     status=1 ;;
  *'data-script-error'*) ;;
  *) echo "compliance_page_test: control: a throwing script was not caught: $body" >&2; status=1 ;;
esac
exit "$status"
