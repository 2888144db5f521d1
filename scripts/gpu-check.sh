#!/usr/bin/env bash
# GPU check of RolePrint's GoMLX training (issue 4 item 7, issue 10): on the lent H200 it sets up
# the XLA CUDA plugin from the machine's jax installation, then measures with a roleprint binary
# built beforehand (there is no Go on that machine):
#   1. `roleprint bench train` on xla:cuda, paper-scale config (6 layers, 384-d, 1024 pairs × 2 sets
#      × 5 utterances × 32 tokens per step) and the CPU default config;
#   2. `roleprint bench backends --backends go,xla:cuda`: same seed on both, losses must agree;
#   3. the PyTorch reference (scripts/torch-reference.py, eager and torch.compile) on both configs;
# and writes $OUT/neural/gpu-results.json (everything, plus the GoMLX/PyTorch ratios) and
# $OUT/neural/gpu-log.txt. It fits in about 8 minutes including start-up (each step has a timeout).
#
# Build here (cgo on, no build tags; the binary links only libc; stripped and gzipped it is ~15 MB,
# which keeps the working tree that travels under the 64 MiB limit):
#   go build -ldflags="-s -w" -o .device-carry/roleprint ./cmd/roleprint && gzip -9f .device-carry/roleprint
# Run there (device tool, carry [".device-carry"], timeout_s 540):
#   bash scripts/gpu-check.sh .device-carry/roleprint.gz
set -uo pipefail

BIN=${1:-.device-carry/roleprint}
OUTDIR=${OUT:-/tmp/gpu-check-out}/neural
mkdir -p "$OUTDIR"
LOG=$OUTDIR/gpu-log.txt
: >"$LOG"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$LOG"; }
WORK=$(mktemp -d)
if [[ "$BIN" == *.gz ]]; then
  gunzip -c "$BIN" >"$WORK/roleprint" && chmod +x "$WORK/roleprint" && BIN=$WORK/roleprint
fi

# --- XLA CUDA plugin from jax (the recipe that worked on this machine) ---
# shellcheck source=scripts/gpu-env.sh
source "$(dirname "$0")/gpu-env.sh" || { log "XLA CUDA set-up failed (scripts/gpu-env.sh)"; exit 1; }
log "plugin $PLUGIN; XLA_FLAGS=${XLA_FLAGS:-}; binary $BIN"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >>"$LOG" 2>&1

# step NAME TIMEOUT CMD...: runs CMD, its stdout to $WORK/NAME.json, stderr to the log.
step() {
  local name=$1 t=$2; shift 2
  log "start $name: $*"
  timeout "$t" "$@" >"$WORK/$name.json" 2>>"$LOG"
  log "end $name: exit $?"
}

step gomlx_paper 150 "$BIN" bench train --backend xla:cuda --preset paper --steps 30 --warmup 3 --embed 8192 --embed-batch 2048 --json
step gomlx_cpu 60 "$BIN" bench train --backend xla:cuda --preset cpu --steps 200 --warmup 3 --embed 4096 --json
step backends 100 "$BIN" bench backends --backends go,xla:cuda --preset cpu --steps 2 --embed 256 --json
step torch_paper 150 "$PY" scripts/torch-reference.py --preset paper --steps 30 --warmup 3
step torch_cpu 70 "$PY" scripts/torch-reference.py --preset cpu --steps 200 --warmup 3

# --- merge and summarise ---
"$PY" - "$WORK" "$OUTDIR/gpu-results.json" <<'PYEOF' 2>&1 | tee -a "$LOG"
import json, os, sys
work, dest = sys.argv[1], sys.argv[2]
res = {}
for name in ["gomlx_paper", "gomlx_cpu", "backends", "torch_paper", "torch_cpu"]:
    try:
        with open(os.path.join(work, name + ".json")) as f:
            res[name] = json.load(f)
    except Exception as e:
        res[name] = {"error": repr(e)}
ratios = {}
for preset in ["paper", "cpu"]:
    g = res.get("gomlx_" + preset, {}).get("result", {})
    t = res.get("torch_" + preset, {}).get("runs", [])
    for run in t:
        if g.get("steps_per_second") and run.get("steps_per_second"):
            ratios[f"{preset}: gomlx_xla_cuda / torch_{run['mode']}"] = g["steps_per_second"] / run["steps_per_second"]
res["ratios"] = ratios
with open(dest, "w") as f:
    json.dump(res, f, indent=1)
print("preset  system                steps/s   pairs/s")
for preset in ["paper", "cpu"]:
    g = res.get("gomlx_" + preset, {}).get("result", {})
    print(f"{preset:7s} GoMLX xla:cuda       {g.get('steps_per_second', float('nan')):8.2f}  {g.get('pairs_per_second', float('nan')):9.1f}")
    for run in res.get("torch_" + preset, {}).get("runs", []):
        print(f"{preset:7s} PyTorch {run['mode']:13s} {run['steps_per_second']:8.2f}  {run['pairs_per_second']:9.1f}")
for k, v in ratios.items():
    print(f"ratio {k}: {v:.2f}")
for r in res.get("backends", {}).get("ratios", []):
    print(f"go vs {r['backend']}: train speed-up {r['train_speedup_vs_go']:.1f}x, max |loss diff| {r['max_loss_diff_vs_go']:.2e}")
PYEOF
log "results in $OUTDIR"
