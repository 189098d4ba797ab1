#!/usr/bin/env bash
# A driver that leaves processes behind: when it starts, a background child (in its process
# group) and a `setsid` grandchild (in a session of its own), both `sleep 300` named
# $ORPHAN_MARKER (their argv[0]). Each case is answered with a report at once; with ORPHAN_HANG
# set, the driver first creates that file and waits on a third such sleep.
set -u
marker=$ORPHAN_MARKER
# Away from the protocol's pipes, so that only the processes themselves remain.
(exec -a "$marker" sleep 300) </dev/null >/dev/null 2>&1 3>&- &
setsid bash -c 'exec -a "$0" sleep 300' "$marker" </dev/null >/dev/null 2>&1 3>&- &
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*)
      echo '{"type":"hello","protocol":1,"name":"orphans","version":"0","language":"bash","capabilities":[]}' ;;
    *'"type":"run_case"'*)
      seq=$(printf '%s' "$line" | sed -n 's/.*"seq":\([0-9]*\).*/\1/p')
      if [ -n "${ORPHAN_HANG:-}" ]; then
        : >"$ORPHAN_HANG"
        (exec -a "$marker" sleep 300) </dev/null >/dev/null 2>&1 3>&-
      fi
      echo "{\"type\":\"report\",\"seq\":$seq,\"exchanges\":[]}" ;;
    *'"type":"stop"'*) exit 0 ;;
  esac
done
