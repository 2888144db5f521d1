#!/usr/bin/env bash
# praat-measure.sh — have Praat (headless) measure WAV files the way
# RolePrint's speech package does, for comparison (docs/speech.md):
#
#   scripts/praat-measure.sh [--summary] OUT.json FILES...
#
# writes Praat's pitch, intensity and syllable-nucleus measurements of FILES
# to OUT.json (the format `roleprint speech validate` and the speech tests
# read). File names are stored as given, relative to OUT.json's folder when
# they lie under it. --summary leaves out the per-frame tracks (for timing).
# Needs Debian's praat (apt-get install praat); runs without a display.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
frames=1
if [[ "${1:-}" == "--summary" ]]; then
	frames=0
	shift
fi
out="${1:?usage: $0 [--summary] OUT.json FILES...}"
shift
[[ $# -gt 0 ]] || { echo "usage: $0 [--summary] OUT.json FILES..." >&2; exit 2; }
command -v praat >/dev/null || { echo "$0: praat not found (apt-get install praat)" >&2; exit 1; }
outdir="$(cd "$(dirname "$out")" && pwd)"
list="$(mktemp)"
trap 'rm -f "$list"' EXIT
for f in "$@"; do
	abs="$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
	[[ -f "$abs" ]] || { echo "$0: $f: no such file" >&2; exit 1; }
	# Store paths relative to OUT.json's folder when possible.
	case "$abs" in
	"$outdir"/*) echo "${abs#"$outdir"/}" ;;
	*) echo "$abs" ;;
	esac
done >"$list"
# praat-measure.praat resolves relative names against the list's folder.
cp "$list" "$outdir/.praat-list.txt"
trap 'rm -f "$list" "$outdir/.praat-list.txt"' EXIT
praat --run "$here/praat-measure.praat" "$outdir/.praat-list.txt" "$outdir/$(basename "$out")" "$frames"
