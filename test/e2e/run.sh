#!/usr/bin/env bash
# npm run test:e2e — the extension in a real VS Code (code-server), driven headless in Chromium.
#   1. install the kit into $E2E_HOME when missing (a no-op when cached; see install.sh)
#   2. build the VSIX (npm run package), exactly what users install
#   3. driver.mjs: fresh code-server + user data per phase, the six journeys, screenshots, stop
# env: E2E_HOME (~/.cache/nika-e2e)  E2E_WORK ($TMPDIR/nika-e2e)  ONLY=1,3  E2E_SKIP_PACKAGE=1
set -uo pipefail
cd "$(dirname "$0")/../.."
export E2E_HOME=${E2E_HOME:-$HOME/.cache/nika-e2e}
WORK=${E2E_WORK:-${TMPDIR:-/tmp}/nika-e2e}
mkdir -p "$WORK"
T0=$(date +%s)
test/e2e/install.sh || { echo "e2e: installing the kit failed"; exit 2; }
T1=$(date +%s)
if [ "${E2E_SKIP_PACKAGE:-}" != 1 ]; then
  npm run package > "$WORK/package.log" 2>&1 || { cat "$WORK/package.log"; echo "e2e: npm run package failed"; exit 2; }
fi
T2=$(date +%s)
WORK="$WORK" VSIX="$PWD/nika-workflows.vsix" node test/e2e/driver.mjs 2>&1 | tee "$WORK/driver.log"
RC=${PIPESTATUS[0]}
T3=$(date +%s)
echo "e2e timings: install $((T1-T0)) s, package $((T2-T1)) s, journeys $((T3-T2)) s"
if [ "$RC" != 0 ]; then
  echo
  echo "=== e2e failed: where to look ==="
  echo "driver log:   $WORK/driver.log"
  echo "screenshots:  $WORK/shots  ($(ls "$WORK"/shots/*FAILED.png 2>/dev/null | wc -l) failure shots, each with its page HTML)"
  for cs in "$WORK"/cs-*; do
    [ -d "$cs" ] || continue
    echo "code-server:  $cs/cs.log"
    # The extension's own channels, as the extension host mirrored them to disk.
    for f in "$cs"/ud/logs/*/exthost*/output_logging_*/*Nika*.log "$cs"/ud/logs/*/exthost*/remoteexthost.log; do
      [ -f "$f" ] || continue
      echo "--- tail of $f"
      tail -n 25 "$f" | sed 's/^/    /'
    done
  done
fi
exit "$RC"
