#!/usr/bin/env python3
"""PyTorch reference for `roleprint bench train|embed --vs torch` (CPU) and scripts/gpu-check.sh (GPU).

It trains the same model as RolePrint's from-scratch transformer (sv/neural/transformer.go) with
the same contrastive step as sv/neural/trainer.go, on the same batch shapes, and prints one JSON
object with steps/s and pairs/s in eager mode and with torch.compile:

  model   token embeddings N(0,1) (bert-base-uncased vocabulary size), zero-initialised learned
          positions, embedding LayerNorm, pre-LayerNorm blocks (multi-head self-attention without
          key bias, exact-GELU feed-forward), final LayerNorm, mean pooling over real tokens
  step    each set = mean of its utterance vectors; d = 1 - cos; loss y*d + (1-y)*max(0, 0.5-d);
          Adam (lr 1e-3, betas 0.9/0.999, eps 1e-8)
  data    random token ids with random lengths (padding + masks), fixed seed

  embed   --embed N: N random utterances embedded in eval mode without gradients, --embed-batch at a
          time, after one untimed batch

TF32 matmuls are enabled, as in GoMLX's XLA backend (tf32=true by default).
Usage: python3 scripts/torch-reference.py [--preset paper|cpu] [--steps N] [--warmup N] [--no-compile]
         [--threads N] [--batch-pairs N] [--max-utterances N] [--max-tokens N] [--embed N] [--embed-batch N]
         [--no-train]
The JSON's peak_rss_mib is this process's peak resident memory (getrusage).
"""
import argparse
import json
import math
import resource
import sys
import time

import torch
from torch import nn

PRESETS = {
    # layers, dim, heads, ffn, batch pairs, utterances per set, tokens
    "cpu": dict(layers=2, dim=128, heads=4, ffn=512, pairs=32, utts=8, tokens=32),
    "paper": dict(layers=6, dim=384, heads=6, ffn=1536, pairs=1024, utts=5, tokens=32),
}
VOCAB = 30522


class Block(nn.Module):
    def __init__(self, d, h, f):
        super().__init__()
        self.h = h
        self.ln1, self.ln2 = nn.LayerNorm(d, eps=1e-5), nn.LayerNorm(d, eps=1e-5)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.f1, self.f2 = nn.Linear(d, f), nn.Linear(f, d)

    def forward(self, x, bias):
        n, t, d = x.shape
        hd = d // self.h
        y = self.ln1(x)

        def split(z):
            return z.view(n, t, self.h, hd).transpose(1, 2)

        q, k, v = split(self.q(y)), split(self.k(y)), split(self.v(y))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(hd) + bias, dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(n, t, d))
        return x + self.f2(torch.nn.functional.gelu(self.f1(self.ln2(x))))


class Encoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["dim"]
        self.tok = nn.Embedding(VOCAB, d)
        nn.init.normal_(self.tok.weight, std=1.0)
        self.pos = nn.Parameter(torch.zeros(c["tokens"], d))
        self.ln = nn.LayerNorm(d, eps=1e-5)
        self.blocks = nn.ModuleList([Block(d, c["heads"], c["ffn"]) for _ in range(c["layers"])])
        self.final = nn.LayerNorm(d, eps=1e-5)

    def forward(self, ids, mask):
        x = self.ln(self.tok(ids) + self.pos[: ids.shape[1]])
        bias = (1.0 - mask[:, None, None, :].float()) * -1e9
        for b in self.blocks:
            x = b(x, bias)
        x = self.final(x)
        m = mask.float()
        return (x * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1)


def loss_fn(model, ids, mask, utt_mask, labels, margin=0.5):
    p, _, k = utt_mask.shape
    u = model(ids, mask).view(p, 2, k, -1)
    um = utt_mask.float()
    s = (u * um[..., None]).sum(2) / um.sum(2, keepdim=True).clamp(min=1)
    a, b = s[:, 0], s[:, 1]
    cos = (a * b).sum(-1) / (a.pow(2).sum(-1).add(1e-12).sqrt() * b.pow(2).sum(-1).add(1e-12).sqrt())
    d = 1 - cos
    return (labels * d + (1 - labels) * torch.clamp(margin - d, min=0)).mean()


def batch(c, device, g):
    p, k, t = c["pairs"], c["utts"], c["tokens"]
    n = p * 2 * k
    lengths = torch.randint(4, t + 1, (n,), generator=g)
    ids = torch.randint(1000, VOCAB, (n, t), generator=g)
    mask = torch.arange(t)[None, :] < lengths[:, None]
    ids = ids * mask
    utt_mask = torch.ones(p, 2, k, dtype=torch.bool)
    labels = (torch.arange(p) % 2).float()
    return [x.to(device) for x in (ids, mask, utt_mask, labels)]


def run(c, steps, warmup, compile_model, device):
    torch.manual_seed(1)
    model = Encoder(c).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
    fwd = torch.compile(model) if compile_model else model
    g = torch.Generator().manual_seed(1)
    data = [batch(c, device, g) for _ in range(4)]

    def step(i):
        ids, mask, um, y = data[i % len(data)]
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(fwd, ids, mask, um, y)
        loss.backward()
        opt.step()
        return loss

    t0 = time.perf_counter()
    for i in range(warmup):
        step(i)
    if device == "cuda":
        torch.cuda.synchronize()
    first = time.perf_counter() - t0
    if device == "cuda":
        torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    for i in range(steps):
        loss = step(i)
    if device == "cuda":
        torch.cuda.synchronize()
    dt = time.perf_counter() - t0
    sps = steps / dt
    return {
        "mode": "torch.compile" if compile_model else "eager",
        "warmup_seconds": round(first, 3),
        "steps_per_second": sps,
        "pairs_per_second": sps * c["pairs"],
        "final_loss": float(loss),
        "peak_gpu_mib": torch.cuda.max_memory_allocated() / 2**20 if device == "cuda" else None,
    }


def blas_libraries():
    """The BLAS/LAPACK shared libraries this process has loaded (Debian's torch uses whatever libblas.so.3
    points to: the reference BLAS is an order of magnitude slower than OpenBLAS)."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split()[-1] for line in f if "blas" in line or "lapack" in line}
        return sorted(p for p in paths if p.startswith("/"))
    except OSError:
        return []


def embed_bench(c, n, bs, device):
    """Utterances embedded per second (eval mode, no gradients), after one untimed batch."""
    torch.manual_seed(1)
    model = Encoder(c).to(device).eval()
    g = torch.Generator().manual_seed(2)
    t = c["tokens"]

    def batch_of(k):
        lengths = torch.randint(4, t + 1, (k,), generator=g)
        ids = torch.randint(1000, VOCAB, (k, t), generator=g)
        mask = torch.arange(t)[None, :] < lengths[:, None]
        return (ids * mask).to(device), mask.to(device)

    batches = [batch_of(min(bs, n - i)) for i in range(0, n, bs)]
    with torch.no_grad():
        model(*batch_of(min(bs, n)))
        t0 = time.perf_counter()
        for ids, mask in batches:
            model(ids, mask)
        if device == "cuda":
            torch.cuda.synchronize()
        dt = time.perf_counter() - t0
    return n / dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="paper", choices=sorted(PRESETS))
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-train", action="store_true", help="skip the training runs (embedding only)")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: torch's default)")
    ap.add_argument("--batch-pairs", type=int, default=0)
    ap.add_argument("--max-utterances", type=int, default=0)
    ap.add_argument("--max-tokens", type=int, default=0)
    ap.add_argument("--embed", type=int, default=0, help="utterances to embed (0: skip)")
    ap.add_argument("--embed-batch", type=int, default=256)
    args = ap.parse_args()
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    c = dict(PRESETS[args.preset])
    for key, v in (("pairs", args.batch_pairs), ("utts", args.max_utterances), ("tokens", args.max_tokens)):
        if v > 0:
            c[key] = v
    out = {"preset": args.preset, "config": c, "torch_version": torch.__version__, "device": device,
           "gpu": torch.cuda.get_device_name(0) if device == "cuda" else None,
           "threads": torch.get_num_threads(), "runs": []}
    if not args.no_train:
        out["runs"].append(run(c, args.steps, args.warmup, False, device))
    if args.embed > 0:
        out["embed_utterances_per_second"] = embed_bench(c, args.embed, args.embed_batch, device)
    if not args.no_compile and not args.no_train:
        try:
            out["runs"].append(run(c, args.steps, args.warmup, True, device))
        except Exception as e:  # torch.compile needs a compiler toolchain; report instead of failing
            out["compile_error"] = repr(e)[:500]
    out["blas"] = blas_libraries()
    out["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
