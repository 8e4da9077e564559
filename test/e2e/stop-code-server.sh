#!/usr/bin/env bash
# usage: stop-code-server.sh <workdir> — ends the process group start-code-server.sh started
# (code-server, its extension hosts, the language server and any MCP server they spawned).
WORK=${1:?workdir}
[ -f "$WORK/cs.pid" ] || exit 0
PID=$(cat "$WORK/cs.pid")
kill -TERM -- "-$PID" 2>/dev/null || true
for _ in $(seq 1 50); do kill -0 -- "-$PID" 2>/dev/null || exit 0; sleep 0.1; done
kill -KILL -- "-$PID" 2>/dev/null || true
