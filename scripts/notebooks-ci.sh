#!/usr/bin/env bash
# notebooks-ci.sh executes every notebook in notebooks/ with GoNB and checks
# the executed copies. This is what CI runs (see docs/notebooks.md):
#
#   bash scripts/notebooks-ci.sh              # all notebooks, quick mode
#   bash scripts/notebooks-ci.sh 02-baselines # some of them
#
# Steps: build and register GoNB (scripts/notebooks-setup.sh, skipped with
# NOTEBOOKS_SKIP_SETUP=1), pre-build the packages the notebooks import,
# execute each notebook with
#   jupyter nbconvert --to notebook --execute --allow-errors
# into $ROLEPRINT_OUT/executed/, then run the checker
# (go run ./scripts/check-notebooks), which fails on error outputs, panics,
# failed tests, "error"/"exit status" lines, cells that never ran, and
# notebooks meant to draw that drew nothing. Exit status 1 when any check
# fails.
#
# Environment:
#   ROLEPRINT_QUICK   1 (default here): small data, all notebooks in minutes
#   ROLEPRINT_OUT     output root (default out/notebooks): figures, tables,
#                     caches per notebook, executed notebooks in executed/
#   NOTEBOOK_TIMEOUT  per-cell timeout in seconds (default 600)
#   NOTEBOOKS_CHECK_FRESH  1 (default): also check that the committed
#                     notebooks' outputs are fresh (check-notebooks --fresh)
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

export ROLEPRINT_QUICK="${ROLEPRINT_QUICK:-1}"
export ROLEPRINT_OUT="${ROLEPRINT_OUT:-$root/out/notebooks}"
export PATH="$(go env GOPATH)/bin:$PATH"
# Quiets the debugger warning Debian's Python 3.11+ prints for every kernel.
export PYDEVD_DISABLE_FILE_VALIDATION=1
timeout_s="${NOTEBOOK_TIMEOUT:-600}"
executed="$ROLEPRINT_OUT/executed"
mkdir -p "$executed"

if [[ "${NOTEBOOKS_SKIP_SETUP:-0}" != 1 ]]; then
	bash scripts/notebooks-setup.sh || exit 1
fi
kernels="$(jupyter kernelspec list 2>/dev/null)"
if ! grep -q '^ *gonb ' <<<"$kernels"; then
	echo "notebooks-ci: the gonb kernel is not registered; run scripts/notebooks-setup.sh" >&2
	exit 1
fi

# Every notebook cell is compiled as a program: build the project's packages
# once so that cells only compile their own code and link.
echo "notebooks-ci: pre-building the packages notebooks import" >&2
go build ./data/... ./plots/... ./kernel/... ./sv/... ./speech/... ./persona/... || exit 1

if [[ $# -gt 0 ]]; then
	notebooks=()
	for n in "$@"; do notebooks+=("notebooks/${n%.ipynb}.ipynb"); done
else
	notebooks=(notebooks/[0-9]*.ipynb)
fi

status=0
declare -a timings
start_all=$(date +%s)
# The checker, built once: it checks each executed notebook as it comes.
checker="$ROLEPRINT_OUT/check-notebooks"
go build -o "$checker" ./scripts/check-notebooks || exit 1
execute() {
	jupyter nbconvert --to notebook --execute --allow-errors \
		--ExecutePreprocessor.timeout="$timeout_s" \
		--output-dir "$executed" --output "$1" "$2" \
		>"$executed/$1.log" 2>&1
}
for nb in "${notebooks[@]}"; do
	name="$(basename "$nb" .ipynb)"
	echo "notebooks-ci: executing $name (quick=$ROLEPRINT_QUICK)" >&2
	t0=$(date +%s)
	if ! execute "$name" "$nb"; then
		echo "notebooks-ci: nbconvert failed on $name (log: $executed/$name.log):" >&2
		tail -20 "$executed/$name.log" >&2
		status=1
	elif ! "$checker" "$executed/$name.ipynb" >/dev/null 2>&1; then
		# GoNB can lose a cell's display message when the cell's program
		# exits right after sending it (seen under load: a figure saved but
		# not shown); one more execution tells that from a real failure,
		# which fails the same way twice and is reported by the checker below.
		echo "notebooks-ci: $name failed its check; executing it once more" >&2
		"$checker" "$executed/$name.ipynb" >&2 || true
		execute "$name" "$nb" || status=1
	fi
	t1=$(date +%s)
	timings+=("$(printf '%5ds  %s' $((t1 - t0)) "$name")")
done
end_all=$(date +%s)

echo "notebooks-ci: execution times ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)):" >&2
printf '  %s\n' "${timings[@]}" >&2
echo "  total $((end_all - start_all))s" >&2

executed_files=()
for nb in "${notebooks[@]}"; do
	f="$executed/$(basename "$nb")"
	[[ -f "$f" ]] && executed_files+=("$f")
done
if [[ ${#executed_files[@]} -eq 0 ]]; then
	echo "notebooks-ci: no executed notebooks to check" >&2
	exit 1
fi
"$checker" "${executed_files[@]}" || status=1
# The committed notebooks carry their outputs: they must pass the same
# checks and be no older than the code they import (stored code hash; see
# kernel/nbfresh). NOTEBOOKS_CHECK_FRESH=0 skips this step.
if [[ "${NOTEBOOKS_CHECK_FRESH:-1}" == 1 ]]; then
	echo "notebooks-ci: checking the committed notebooks' outputs are fresh" >&2
	go run ./scripts/check-notebooks --fresh || status=1
fi
exit $status
