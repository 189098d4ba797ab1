#!/usr/bin/env bash
# Figures, not a test: the whole mutation run with every fault switched at run time in one
# build, next to what one fault costs when each fault is its own build (its file recompiled,
# the program relinked, the corpus run once), and the ratio for the whole catalogue.
# Usage: bench/mutants_switch_vs_rebuild.sh [FAULT_ID]   (needs the mutants tree: scripts/build mutants)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build-mutants/bin/gemini-oracle
[ -x "$bin" ] || { echo "build the mutants tree first: ./scripts/build mutants" >&2; exit 2; }
fault=${1:-builder.thought_signature_dropped}
file=$(python3 -c "import json,sys; print(next(f['file'] for f in json.load(open('mutants/catalogue.json')) if f['id']==sys.argv[1]))" "$fault")
faults=$(python3 -c "import json; print(len(json.load(open('mutants/catalogue.json'))))")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }

t0=$(now)
"$bin" mutants --jobs "$(nproc)" --report-dir "$out/switch" >"$out/switch.log" 2>&1 || true
t1=$(now)
# What the timed run did (a refused or stopped run would time nothing worth comparing).
grep -E "^(mutation score|time|gemini-oracle mutants: .*(stopped|rebuild|unknown))" "$out/switch.log" || tail -3 "$out/switch.log"
touch "$file"
cmake --build build-mutants --target gemini-oracle >/dev/null
t2=$(now)
"$bin" run --fault "$fault" --jobs "$(nproc)" --seed 1 --report-dir "$out/one" >/dev/null 2>&1 || true
t3=$(now)
python3 - "$t0" "$t1" "$t2" "$t3" "$faults" "$fault" "$file" <<'PY'
import sys
t0, t1, t2, t3 = map(float, sys.argv[1:5]); faults = int(sys.argv[5])
switch, rebuild, run = t1 - t0, t2 - t1, t3 - t2
print(f"runtime switch: whole mutation run ({faults} catalogued faults, baseline and canary included): {switch:.2f} s")
print(f"rebuild per fault: {sys.argv[6]} ({sys.argv[7]} recompiled, relinked) {rebuild:.2f} s + corpus run {run:.2f} s = {rebuild + run:.2f} s")
print(f"rebuild per fault for the whole catalogue: about {faults * (rebuild + run):.0f} s, {faults * (rebuild + run) / switch:.0f} times the runtime switch")
PY
