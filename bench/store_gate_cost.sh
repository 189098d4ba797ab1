#!/usr/bin/env bash
# What the gate costs with every conversation suspended and resumed after every turn, next to
# the same gate without a store: `gemini-oracle run --jobs 1` over the whole corpus, N rounds
# each (default 5), on SQLite (a temporary file) and, when its settings are exported
# (eval "$(scripts/mariadb start)"), on MariaDB. Prints the median wall time of each and the
# cost per suspension. Figures only, nothing asserted.
#
#   bench/store_gate_cost.sh [ROUNDS]      (after ./scripts/build default)
#
# A run with a store also runs every conversation kept in memory (the resume-equivalence
# oracle compares the two), so its extra cost over two plain runs is what the suspensions
# cost. The per-case times of index.json (`duration_ms`, summed) leave out what a run costs
# once (start-up, loading the corpus, the capture server): (cases_store - 2 cases_plain) /
# suspensions, where a conversation is suspended before its first exchange and after every
# exchange it reached (cases + requests, read from index.json).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
bin=build/bin/gemini-oracle
[ -x "$bin" ] || { echo "build first: ./scripts/build default" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GEMINI_ORACLE_STATE_KEY=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')

# Median over `rounds` runs of the gate with the given extra arguments: "WALL CASES", the wall
# seconds and the seconds its cases took (summed duration_ms).
median_run() {
  local walls=() cases=() i start end
  for ((i = 0; i < rounds; ++i)); do
    start=$(date +%s.%N)
    "$bin" run --jobs 1 --seed 1 --report-dir "$work/reports" "$@" >/dev/null 2>&1 || {
      echo "the gate failed: $bin run $*" >&2
      exit 1
    }
    end=$(date +%s.%N)
    walls+=("$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')")
    cases+=("$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(r['duration_ms'] for r in d['results']) / 1000)" "$work/reports/index.json")")
  done
  printf '%s %s\n' \
    "$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')" \
    "$(printf '%s\n' "${cases[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
}

read -r plain plain_cases <<<"$(median_run)"
cases=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['results']))" "$work/reports/index.json")
requests=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(r['requests'] for r in d['results']))" "$work/reports/index.json")
suspensions=$((cases + requests))
printf 'corpus: %d cases, %d requests, %d suspensions with a store; %d rounds each, median\n' \
  "$cases" "$requests" "$suspensions" "$rounds"
printf '%-10s %9.3f s wall, cases %7.3f s\n' "no store" "$plain" "$plain_cases"
report() {
  local name=$1 wall cases_t
  read -r wall cases_t <<<"$2"
  printf '%-10s %9.3f s wall, cases %7.3f s   suspend+resume: %7.0f us per suspension\n' \
    "$name" "$wall" "$cases_t" \
    "$(awk -v t="$cases_t" -v p="$plain_cases" -v n="$suspensions" 'BEGIN {print (t - 2 * p) * 1000000 / n}')"
}
report sqlite "$(median_run --store "sqlite:$work/gate.sqlite3")"
if [ -n "${GEMINI_ORACLE_MARIADB_PORT:-}" ]; then
  report mariadb "$(median_run --store "mariadb://$GEMINI_ORACLE_MARIADB_USER@127.0.0.1:$GEMINI_ORACLE_MARIADB_PORT/$GEMINI_ORACLE_MARIADB_DATABASE")"
else
  echo "mariadb    (not measured: eval \"\$(scripts/mariadb start)\" first)"
fi
