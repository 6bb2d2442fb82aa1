#!/usr/bin/env bash
# Makes sure the Debian packages the test suite uses are installed: pgn-extract (the independent
# PGN oracle of the corpus tests), socat (pseudo-terminal pairs standing in for serial cables) and
# mosquitto (a real MQTT broker for the integration tests; its service is not started) and
# chromium (headless browser tests of the web display and arbiter console) and faketime (libfaketime: the fault
# tests make the daemon's wall clock jump). Installs them with apt-get when running as root (or with
# password-less sudo); otherwise prints the command to run and fails.
set -euo pipefail

need=()
[ -x /usr/games/pgn-extract ] || command -v pgn-extract >/dev/null 2>&1 || need+=(pgn-extract)
command -v socat >/dev/null 2>&1 || need+=(socat)
[ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1 || need+=(mosquitto)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v faketime >/dev/null 2>&1 || need+=(faketime)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "The tests need these Debian packages: ${need[*]}" >&2
  echo "Install them with: sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
echo "installing Debian packages for the tests: ${need[*]}"
"${SUDO[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
