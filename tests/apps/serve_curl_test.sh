#!/usr/bin/env bash
# `gemini-oracle serve` driven by curl alone (INTERPRETING §15.5): a run is created, its cases
# are listed with their client actions, each case run is taken, answered on its own base URL
# and reported, the verdict comes back (a correct client passes, one that sends its request
# twice fails), bad requests get 4xx answers, and closing writes the usual reports.
# Usage: serve_curl_test.sh GEMINI_ORACLE_BINARY SOURCE_ROOT
set -euo pipefail
oracle=$1
source_root=$2
if ! command -v curl >/dev/null; then
  echo "curl is missing (scripts/setup installs it)" >&2
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/fixtures/adr-224"
cp "$source_root/fixtures/VERSION" "$work/fixtures/"
cat > "$work/fixtures/adr-224/y_text_answer.json" <<'CASE'
{
  "description": "A text answer ends the conversation after one request",
  "clauses": ["ADR-224.12"],
  "exchanges": [
    {"user": "hello",
     "response": {"body": {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}}]}}}
  ],
  "expect": {"outcome": "accept", "requests": 1}
}
CASE
sed 's/after one request/after one request, again/' "$work/fixtures/adr-224/y_text_answer.json" \
  > "$work/fixtures/adr-224/y_text_answer_again.json"

"$oracle" --source-root "$source_root" serve --fixtures "$work/fixtures" \
  --report-dir "$work/reports" --max-runs 2 --run-idle 2 > "$work/serve.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q "listening on" "$work/serve.out" && break
  sleep 0.1
done
grep -q "listening on http://127.0.0.1:" "$work/serve.out" || fail "not listening on loopback: $(cat "$work/serve.out")"
port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/serve.out")
api="http://127.0.0.1:$port"

# status code of a request; the body goes to $work/body
call() { curl -s -o "$work/body" -w "%{http_code}" "$@"; }

[ "$(call -X POST "$api/runs" -d '{"implementation": {"name": "curl-client", "version": "1"}, "capabilities": []}')" = 201 ] \
  || fail "create: $(cat "$work/body")"
run=$(sed -n 's/.*"run": "\([^"]*\)".*/\1/p' "$work/body")
[ -n "$run" ] || fail "no run id"
[ "$(call "$api/runs/$run/cases")" = 200 ] || fail "cases"
grep -q '"id": "adr-224/y_text_answer"' "$work/body" || fail "the case list lacks a case"
grep -q '"user": "hello"' "$work/body" || fail "the case list lacks the client actions"
! grep -q '"candidates"' "$work/body" || fail "the case list shows the scripted answer"

# Bad requests: unknown run, unknown seq, a body that is not JSON, a bad creation body.
[ "$(call "$api/runs/nope/next?wait=0")" = 404 ] || fail "unknown run"
[ "$(call -X POST "$api/runs/$run/reports/999" -d '{}')" = 404 ] || fail "unknown seq"
[ "$(call -X POST "$api/runs" -d '{"capabilities": 7}')" = 400 ] || fail "bad creation body"
[ "$(call -X POST "$api/runs" -d '{"filter": "no-such-case"}')" = 400 ] || fail "empty filter"
[ "$(call -X POST "$api/runs" -d '{"implementation": {"name": 5}}')" = 400 ] || fail "a name of the wrong kind"
grep -q '"serve.body"' "$work/body" || fail "the wrong kind is not named: $(cat "$work/body")"

declare -A verdict
for _ in $(seq 1 20); do
  status=$(call "$api/runs/$run/next?wait=5")
  [ "$status" = 410 ] && break
  [ "$status" = 200 ] || fail "next answered $status"
  cp "$work/body" "$work/case.json"
  seq=$(sed -n 's/.*"seq": \([0-9]*\).*/\1/p' "$work/case.json")
  base=$(sed -n 's/.*"base_url": "\([^"]*\)".*/\1/p' "$work/case.json")
  id=$(sed -n 's/.*"id": "\([^"]*\)".*/\1/p' "$work/case.json")
  model=$(sed -n 's/.*"model": "\([^"]*\)".*/\1/p' "$work/case.json")
  sends=1
  [[ "$id" == *_again ]] && sends=2  # the negative control: one request too many
  for n in $(seq 1 "$sends"); do
    status=$(call -X POST "$base/v1beta/models/$model:generateContent" -H 'Content-Type: application/json' \
      -d '{"contents": [{"role": "user", "parts": [{"text": "hello"}]}]}')
    [ "$n" -gt 1 ] && continue  # the script has one answer; the extra request is what is judged
    [ "$status" = 200 ] || fail "the case's base URL answered $status"
    grep -q '"text": *"hi"' "$work/body" || fail "scripted answer: $(cat "$work/body")"
  done
  [ "$(call -X POST "$api/runs/$run/reports/$seq" -d 'not json')" = 400 ] || fail "a body that is not JSON"
  # A report over 8 KiB: refused with a reason as a form (curl -d's default), taken as JSON.
  padding=$(head -c 9000 /dev/zero | tr '\0' x)
  big="{\"type\": \"report\", \"seq\": $seq, \"exchanges\": [{\"request_built\": true, \"response_parsed\": true, \"calls\": []}], \"refusal\": null, \"padding\": \"$padding\"}"
  [ "$(call -X POST "$api/runs/$run/reports/$seq" -d "$big")" = 413 ] || fail "a large form body"
  grep -q "Content-Type: application/json" "$work/body" || fail "413 without a reason"
  [ "$(call -X POST "$api/runs/$run/reports/$seq" -H 'Content-Type: application/json' -d "$big")" = 200 ] \
    || fail "report: $(cat "$work/body")"
  grep -q '"status": "judged"' "$work/body" || fail "no verdict came back: $(cat "$work/body")"
  verdict[$id]=$(grep -o '"verdict": "[a-z_]*"' "$work/body" | head -1 | sed 's/.*: "\(.*\)"/\1/')
  [ "$(call -X POST "$api/runs/$run/reports/$seq" -d '{}')" = 404 ] || fail "a second answer to a finished run"
done
[ "${verdict[adr-224/y_text_answer]:-}" = pass ] || fail "the correct client: ${verdict[adr-224/y_text_answer]:-none}"
[ "${verdict[adr-224/y_text_answer_again]:-}" = fail ] || fail "the negative control: ${verdict[adr-224/y_text_answer_again]:-none}"

[ "$(call -X POST "$api/runs/$run/close" -d '')" = 200 ] || fail "close"
grep -q '"gate": "fail"' "$work/body" || fail "close summary: $(cat "$work/body")"
for f in index.json junit.xml summary.md summary.html; do
  [ -s "$work/reports/$run/$f" ] || fail "no $f"
done
grep -q '"passed": 1' "$work/reports/$run/index.json" || fail "index: passed"
grep -q '"failed": 1' "$work/reports/$run/index.json" || fail "index: failed"
grep -q '"implementation": "curl-client 1"' "$work/reports/$run/index.json" || fail "index: implementation"

# At most --max-runs open runs. Runs idle past --run-idle are closed (reports written) only to
# make room, the longest idle first and no more than needed, rather than refusing runs for good.
run_id() { sed -n 's/.*"run": "\([^"]*\)".*/\1/p' "$work/body"; }
is_open() { call "$api/runs/$1" >/dev/null; grep -q '"closed": false' "$work/body"; }
[ "$(call -X POST "$api/runs" -d '{"implementation": {"name": "idle-1"}}')" = 201 ] || fail "idle run 1"
idle_run=$(run_id)
[ "$(call -X POST "$api/runs" -d '{"implementation": {"name": "idle-2"}}')" = 201 ] || fail "idle run 2"
other_run=$(run_id)
[ "$(call -X POST "$api/runs" -d '{}')" = 429 ] || fail "a run past --max-runs"
sleep 2.5
[ "$(call -X POST "$api/runs/$other_run/close" -d '')" = 200 ] || fail "close idle run 2"
[ "$(call -X POST "$api/runs" -d '{"implementation": {"name": "newer"}}')" = 201 ] || fail "a run with room"
newer_run=$(run_id)
[ -s "$work/reports/$idle_run/index.json" ] && fail "an idle run was closed although there was room"
sleep 2.5  # idle-1 is now idle 5 s, the newer run 2.5 s: both past --run-idle
# SIGTERM while a client long-polls an open run: the run is closed, its reports written, and
# the server ends at once rather than after the poll's 60 s.
[ "$(call -X POST "$api/runs" -d '{"implementation": {"name": "left-open"}}')" = 201 ] || fail "a run once idle runs are closed"
open_run=$(run_id)
[ -s "$work/reports/$idle_run/index.json" ] || fail "the longest idle run's reports were not written"
[ "$(call "$api/runs/$idle_run/cases")" = 410 ] || fail "a closed run's cases"
[ -s "$work/reports/$newer_run/index.json" ] && fail "more idle runs were closed than room needed"
is_open "$newer_run" || fail "the newer idle run was closed"
[ "$(call "$api/runs/$open_run/next?wait=5")" = 200 ] || fail "second run's first case"
curl -s -o /dev/null "$api/runs/$open_run/next?wait=60" &
poll_pid=$!
sleep 0.5
started=$(date +%s)
kill -TERM "$server_pid"
wait "$server_pid" || fail "serve did not end cleanly on SIGTERM"
server_pid=""
[ $(( $(date +%s) - started )) -lt 20 ] || fail "SIGTERM waited for the long poll"
wait "$poll_pid" || true
[ -s "$work/reports/$open_run/index.json" ] || fail "the open run's reports were not written at shutdown"
grep -q '"errors": [1-9]' "$work/reports/$open_run/index.json" || fail "unanswered cases are not errors"
echo "serve driven by curl: pass and fail verdicts, 4xx answers, reports written"
