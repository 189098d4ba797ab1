#!/usr/bin/env bash
# A misbehaving driver for the process driver's tests. Answers `start` as the protocol says,
# then, case by case (counted in the file FAKE_DRIVER_STATE, across restarts): 1 ends the
# process, 2 writes a line that is not JSON, 3 hangs, 4 answers `skipped`, 5 answers `errored`,
# 6 answers another seq, 7 answers a report and ends, later ones a report with no exchange.
set -u
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*)
      echo '{"type":"hello","protocol":1,"name":"fake","version":"0","language":"bash","capabilities":[]}' ;;
    *'"type":"run_case"'*)
      n=$(( $(cat "$FAKE_DRIVER_STATE" 2>/dev/null || echo 0) + 1 ))
      echo "$n" >"$FAKE_DRIVER_STATE"
      seq=$(printf '%s' "$line" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p')
      case "$n" in
        1) exit 3 ;;
        2) echo 'this is not JSON' ;;
        3) sleep 30 ;;
        4) echo "{\"type\":\"skipped\",\"seq\":$seq,\"reason\":\"not supported here\"}" ;;
        5) echo "{\"type\":\"errored\",\"seq\":$seq,\"context\":\"the adapter threw\"}" ;;
        6) echo "{\"type\":\"report\",\"seq\":$((seq + 100)),\"exchanges\":[]}" ;;
        7) echo "{\"type\":\"report\",\"seq\":$seq,\"exchanges\":[]}"; exit 0 ;;
        *) echo "{\"type\":\"report\",\"seq\":$seq,\"exchanges\":[]}" ;;
      esac ;;
    *'"type":"stop"'*) exit 0 ;;
  esac
done
