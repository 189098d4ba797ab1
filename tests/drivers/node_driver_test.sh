#!/usr/bin/env bash
# One Node.js driver folder (drivers/<client>/) on the whole corpus: every run its driver.json
# lists (under the run's `profile`, default adr), against that run's expectations file (`run --expect` fails on an unlisted failure,
# error or timeout and on a listed case that passes), three times; the three runs must give the
# same verdict for every case, a known failure's own verdict included (a driver's verdicts do
# not depend on timing, and a listed failure that turns into an error or a timeout shows).
# Usage: node_driver_test.sh GEMINI_ORACLE SOURCE_DIR CLIENT [REPEAT].
# Without Node.js 20 and npm the test is skipped (exit 77), except under CI, where it fails.
set -euo pipefail
oracle=$1
src=$2
client=$3
repeat=${4:-3}
dir="$src/drivers/$client"
name="node_driver_test($client)"

missing=""
command -v node >/dev/null 2>&1 || missing="node"
command -v npm >/dev/null 2>&1 || missing="${missing:+$missing and }npm"
if [ -z "$missing" ] && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  missing="Node.js 20 or later (found $(node --version))"
fi
if [ -n "$missing" ]; then
  if [ -n "${CI:-}" ]; then
    echo "$name: $missing not found; CI is set, so this fails instead of skipping" >&2
    exit 1
  fi
  echo "$name: $missing not found; skipped" >&2
  exit 77
fi

# The libraries at the versions the lock pins. npm ci empties node_modules first, so it runs
# only when the installed tree is not the one this lock installed.
stamp="$dir/node_modules/.installed-package-lock.json"
if ! cmp -s "$dir/package-lock.json" "$stamp"; then
  npm ci --prefix "$dir" --no-audit --no-fund
  cp "$dir/package-lock.json" "$stamp"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# driver.json's runs as lines: label <TAB> expectations file <TAB> shell-quoted arguments.
node -e '
  const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const q = (s) => "'"'"'" + String(s).replace(/'"'"'/g, "'"'"'\\'"'"''"'"'") + "'"'"'";
  for (const r of m.runs) console.log([r.label, r.expect, r.profile || "adr", r.args.map(q).join(" ")].join("\t"));
' "$dir/driver.json" >"$tmp/runs"

verdicts() {  # id <TAB> verdict (and a known failure's own verdict) for each result, sorted
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const line = (x) => `${x.id}\t${x.verdict}` +
      (x.known_failure ? `\t${x.known_failure.verdict}` : "");
    for (const x of r.results.map(line).sort()) console.log(x);
  ' "$1/index.json"
}

status=0
n=0
while IFS=$'\t' read -r label expect profile args; do
  n=$((n + 1))
  impl="node $(printf '%q' "$dir/driver.mjs") $args"
  for i in $(seq 1 "$repeat"); do
    out="$tmp/run$n.$i"
    if "$oracle" --source-root "$src" run --impl "$impl" --profile "$profile" --jobs 2 --seed "$i" \
        --report-dir "$out" --expect "$dir/$expect" >"$out.log" 2>&1 </dev/null; then
      echo "$name: $label, run $i: $(tail -n 1 "$out.log")"
    else
      echo "$name: $label, run $i: the run does not match $expect" >&2
      grep -v '^progress: ' "$out.log" | tail -n 60 >&2 || true
      status=1
      continue
    fi
    verdicts "$out" >"$out.verdicts"
    if [ "$i" -gt 1 ] && ! cmp -s "$tmp/run$n.1.verdicts" "$out.verdicts"; then
      echo "$name: $label: run $i's verdicts differ from run 1's:" >&2
      diff "$tmp/run$n.1.verdicts" "$out.verdicts" | head -n 40 >&2 || true
      status=1
    fi
  done
done <"$tmp/runs"
[ "$n" -gt 0 ] || { echo "$name: driver.json lists no runs" >&2; status=1; }
exit "$status"
