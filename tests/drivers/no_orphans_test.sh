#!/usr/bin/env bash
# No process a driver starts outlives `gemini-oracle run`, whichever way the run ends: a normal
# end, SIGTERM (a CI job cancelled) and SIGINT mid-case; and a process started before the oracle
# was exec'd (a container's `database & exec gemini-oracle run ...`) is not the oracle's to end. The driver (orphan_driver.sh) leaves a
# child in its process group and a `setsid` grandchild outside it; every one is counted by the
# marker in its command line after the oracle has ended.
# Usage: no_orphans_test.sh GEMINI_ORACLE_BINARY SOURCE_ROOT
set -uo pipefail
oracle=$1
source_root=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v setsid >/dev/null || { echo "setsid is missing" >&2; exit 1; }
work=$(mktemp -d)
marker="gemini-orphan-$$-$RANDOM"
# Kept in a file: a command line holding the marker would be counted itself.
printf '%s\n' "$marker" >"$work/marker"
left() { grep -l -a -F -f "$work/marker" /proc/[0-9]*/cmdline 2>/dev/null | wc -l; }
cleanup() {
  cleanup_marked
  rm -rf "$work"
}
trap cleanup EXIT
failed=0

mkdir -p "$work/fixtures/adr-224"
cp "$source_root/fixtures/VERSION" "$work/fixtures/"
for name in one two three; do
  cat >"$work/fixtures/adr-224/y_text_answer_$name.json" <<CASE
{
  "description": "A text answer ends the conversation after one request ($name)",
  "clauses": ["ADR-224.12"],
  "exchanges": [
    {"user": "hello",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 1}
}
CASE
done

run() {  # run REPORT_DIR: the oracle on the three cases with the orphan driver, in the background
  ORPHAN_MARKER=$marker "$oracle" --source-root "$source_root" run --fixtures "$work/fixtures" \
    --report-dir "$1" --impl "bash $here/orphan_driver.sh" --jobs 2 --no-twins \
    --case-timeout 60 >"$1.out" 2>&1 &
  oracle_pid=$!
}

# The processes left once the oracle has ended: none, after a moment for killed ones to go.
check_none() {
  local what=$1 count
  for _ in $(seq 1 100); do
    count=$(left)
    [ "$count" -eq 0 ] && break
    sleep 0.1
  done
  echo "$what: $count marked processes left"
  if [ "$count" -ne 0 ]; then
    echo "FAIL: $what left $count processes" >&2
    failed=1
    cleanup_marked
  fi
}
cleanup_marked() {
  for f in $(grep -l -a -F -f "$work/marker" /proc/[0-9]*/cmdline 2>/dev/null); do
    pid=${f#/proc/}
    kill -9 "${pid%/cmdline}" 2>/dev/null
  done
  sleep 0.2
}

# Job control: a background job of a script ignores SIGINT otherwise, and the test sends it.
set -m

# 1. A normal end.
run "$work/normal"
wait "$oracle_pid"
status=$?
if [ "$status" -ge 128 ]; then
  echo "FAIL: the normal run ended by a signal ($status): $(cat "$work/normal.out")" >&2
  failed=1
fi
check_none "normal end"

# 2 and 3. A signal while a case hangs in the driver.
for signal in TERM INT; do
  export ORPHAN_HANG="$work/hang-$signal"
  run "$work/$signal"
  for _ in $(seq 1 300); do
    [ -e "$ORPHAN_HANG" ] && break
    sleep 0.1
  done
  unset ORPHAN_HANG
  if [ ! -e "$work/hang-$signal" ]; then
    echo "FAIL: no case reached the driver: $(cat "$work/$signal.out")" >&2
    failed=1
  fi
  sleep 0.3
  kill -s "$signal" "$oracle_pid"
  wait "$oracle_pid"
  status=$?
  expected=$([ "$signal" = TERM ] && echo 143 || echo 130)
  if [ "$status" -ne "$expected" ]; then
    echo "FAIL: SIG$signal: exit status $status, not $expected" >&2
    failed=1
  fi
  check_none "SIG$signal mid-case"
done

# 4. A child from before the exec survives the oracle; the driver's processes still do not.
before="gemini-before-$$-$RANDOM"
printf '%s\n' "$before" >"$work/before-marker"
before_left() { grep -l -a -F -f "$work/before-marker" /proc/[0-9]*/cmdline 2>/dev/null | wc -l; }
ORPHAN_MARKER=$marker bash -c '(exec -a "$1" sleep 300) </dev/null >/dev/null 2>&1 &
  shift
  exec "$@"' start-first "$before" "$oracle" --source-root "$source_root" run \
  --fixtures "$work/fixtures" --report-dir "$work/before" --impl "bash $here/orphan_driver.sh" \
  --jobs 2 --no-twins --case-timeout 60 >"$work/before.out" 2>&1
status=$?
if [ "$status" -ge 128 ]; then
  echo "FAIL: the run after a background child ended by a signal ($status): $(cat "$work/before.out")" >&2
  failed=1
fi
check_none "a child from before the exec"
count=$(before_left)
echo "a child from before the exec: $count of 1 still running"
if [ "$count" -ne 1 ]; then
  echo "FAIL: the process started before the oracle was exec'd did not survive it" >&2
  failed=1
fi
for f in $(grep -l -a -F -f "$work/before-marker" /proc/[0-9]*/cmdline 2>/dev/null); do
  pid=${f#/proc/}
  kill -9 "${pid%/cmdline}" 2>/dev/null
done
exit "$failed"
