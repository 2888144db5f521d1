#!/usr/bin/python3
"""Reference log-mel filter-bank features for speech/fbank.go's tests, from torchaudio's Kaldi-compatible
fbank (torchaudio.compliance.kaldi.fbank: Kaldi's compute-fbank-feats in PyTorch).

Writes speech/testdata/fbank/reference.json (or the path given as argument): for each case the input (a WAV
of speech/testdata/espeak read as 16-bit integers, or a short synthetic signal given inline), the options
passed to fbank, the number of frames, every 7th frame (frame 0, 7, 14, ...) and the per-bin sum over all
frames.

Run with Debian's Python: apt-get install -y python3-torch python3-torchaudio, then
  /usr/bin/python3 scripts/make-fbank-fixtures.py
"""
import json
import math
import os
import sys
import wave

import torch
import torchaudio
from torchaudio.compliance import kaldi

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def read_wav(rel):
    with wave.open(os.path.join(ROOT, rel)) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        rate = w.getframerate()
        raw = w.readframes(w.getnframes())
    x = torch.frombuffer(bytearray(raw), dtype=torch.int16).to(torch.float64)
    return x, rate


def synthetic(rate, seconds):
    """A vowel-like tone (120 Hz with harmonics) plus a seeded noise floor and a DC offset, as int16 values."""
    g = torch.Generator().manual_seed(7)
    n = int(rate * seconds)
    t = torch.arange(n, dtype=torch.float64) / rate
    x = sum((0.6 / k) * torch.sin(2 * math.pi * 120 * k * t + k) for k in range(1, 12))
    x = x + 0.01 * torch.randn(n, generator=g, dtype=torch.float64) + 0.05
    return torch.round(x * 12000).clamp(-32768, 32767)


CASES = [
    {"name": "povey-default", "wav": "speech/testdata/espeak/rate-en-m3-p50-s300.wav",
     "options": {"num_mel_bins": 80}},
    {"name": "hamming-energy-noedges", "wav": "speech/testdata/espeak/voice-en-f2-p70-a.wav",
     "options": {"num_mel_bins": 64, "window_type": "hamming", "snip_edges": False, "use_energy": True,
                 "energy_floor": 1.0, "low_freq": 40.0, "high_freq": -400.0, "subtract_mean": True}},
    {"name": "hanning-8k", "synthetic": {"rate": 8000, "seconds": 0.2},
     "options": {"num_mel_bins": 23, "window_type": "hanning", "preemphasis_coefficient": 0.0,
                 "remove_dc_offset": False, "frame_length": 20.0, "frame_shift": 8.0, "energy_floor": 0.0,
                 "use_energy": True, "raw_energy": False}},
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "speech", "testdata", "fbank", "reference.json")
    cases = []
    for c in CASES:
        if "wav" in c:
            x, rate = read_wav(c["wav"])
        else:
            rate = c["synthetic"]["rate"]
            x = synthetic(rate, c["synthetic"]["seconds"])
        opts = dict(c["options"], dither=0.0, sample_frequency=float(rate))
        feats = kaldi.fbank(x.unsqueeze(0), **opts)
        case = {"name": c["name"], "rate": rate, "options": opts, "frames": feats.shape[0], "bins": feats.shape[1],
                "every": 7, "sampled": [[round(float(v), 6) for v in feats[i]] for i in range(0, feats.shape[0], 7)],
                "sums": [round(float(v), 5) for v in feats.sum(0)]}
        if "wav" in c:
            case["wav"] = c["wav"]
        else:
            case["samples"] = [int(v) for v in x.tolist()]
        cases.append(case)
        print(c["name"], tuple(feats.shape))
    with open(out, "w") as f:
        json.dump({"torch_version": torch.__version__, "torchaudio_version": torchaudio.__version__, "cases": cases}, f)
    print(out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
