#!/usr/bin/env bash
# notebooks-serve-check.sh checks the README's launch command on this
# machine: it starts `jupyter notebook` on 127.0.0.1 without a browser,
# fetches its API (the server's version and its kernel specs, which must
# list GoNB) and stops it. CI runs it after `roleprint notebook setup`.
set -euo pipefail

port="${NOTEBOOK_PORT:-18888}"
token="roleprint-check-$$"
log="$(mktemp)"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Jupyter refuses to serve as root without --allow-root (CI runs as root).
as_root=()
[ "$(id -u)" -ne 0 ] || as_root=(--allow-root)

jupyter notebook "${as_root[@]}" --no-browser --ip=127.0.0.1 --port="$port" --port-retries=0 \
	--NotebookApp.token="$token" --notebook-dir="$root/notebooks" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT

api="http://127.0.0.1:$port/api"
for _ in $(seq 1 60); do
	if curl -fsS "$api" >/dev/null 2>&1; then break; fi
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "notebooks-serve-check: jupyter notebook exited:" >&2
		cat "$log" >&2
		exit 1
	fi
	sleep 1
done
version="$(curl -fsS "$api")" || { echo "notebooks-serve-check: no answer from $api" >&2; cat "$log" >&2; exit 1; }
specs="$(curl -fsS -H "Authorization: token $token" "$api/kernelspecs")"
if ! grep -q '"gonb"' <<<"$specs"; then
	echo "notebooks-serve-check: the server does not list the gonb kernel: $specs" >&2
	exit 1
fi
echo "notebooks-serve-check: jupyter notebook served $version on 127.0.0.1:$port with the gonb kernel" >&2
