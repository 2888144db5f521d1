#!/usr/bin/python3
"""Make the tiny random-weight speaker-embedding model of speech/spkemb's tests.

Writes speech/testdata/speaker/ (or the folder given as argument):

  model.onnx       a stand-in for a WeSpeaker ONNX export: input "feats" [batch, frames, 80] (Kaldi fbank,
                   mean-normalised per utterance), output "embs" [batch, 16]; a 1-D convolution, ReLU, mean and
                   standard-deviation pooling over frames, a linear layer (the shape of an x-vector/ECAPA
                   model's pooling, tiny and with random seeded weights)
  config.yaml      the feature settings, as WeSpeaker's exports carry them
  reference.json   PyTorch's embeddings of three eSpeak recordings of speech/testdata/espeak, with the features
                   computed by torchaudio.compliance.kaldi.fbank as WeSpeaker computes them (16-bit integer
                   scale, hamming window, dither 0, 80 bins) and the mean over frames subtracted

Run with Debian's Python: apt-get install -y python3-torch python3-onnx python3-torchaudio, then
  /usr/bin/python3 scripts/make-speaker-fixture.py
"""
import json
import os
import sys
import wave

import onnx
import torch
from torch import nn
from torchaudio.compliance import kaldi

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
WAVS = ["speech/testdata/espeak/voice-en-f2-p70-a.wav", "speech/testdata/espeak/voice-en-f2-p70-b.wav",
        "speech/testdata/espeak/voice-enus-m1-p30-a.wav"]


class TinySpeaker(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(80, 24, 3, padding=1)
        self.out = nn.Linear(48, 16)

    def forward(self, feats):
        h = torch.relu(self.conv(feats.transpose(1, 2)))  # [B, 24, T]
        mean = h.mean(dim=2)
        std = torch.sqrt(((h - mean.unsqueeze(2)) ** 2).mean(dim=2) + 1e-5)
        return self.out(torch.cat([mean, std], dim=1))


def features(rel):
    with wave.open(os.path.join(ROOT, rel)) as w:
        rate = w.getframerate()
        x = torch.frombuffer(bytearray(w.readframes(w.getnframes())), dtype=torch.int16).to(torch.float64)
    f = kaldi.fbank(x.unsqueeze(0), num_mel_bins=80, frame_length=25, frame_shift=10, dither=0.0,
                    sample_frequency=float(rate), window_type="hamming")
    return (f - f.mean(dim=0)).float()  # features in float64, the model in float32, as in Go


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "speech", "testdata", "speaker")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(99)
    model = TinySpeaker().eval()
    example = features(WAVS[0]).unsqueeze(0)
    path = os.path.join(out, "model.onnx")
    torch.onnx.export(model, (example,), path, input_names=["feats"], output_names=["embs"],
                      dynamic_axes={"feats": {0: "B", 1: "T"}, "embs": {0: "B"}}, opset_version=14)
    onnx.checker.check_model(onnx.load(path))
    refs = []
    with torch.no_grad():
        for rel in WAVS:
            emb = model(features(rel).unsqueeze(0))[0]
            refs.append({"wav": rel, "embedding": [round(float(v), 7) for v in emb]})
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump({"torch_version": torch.__version__, "embeddings": refs}, f, indent=1)
    with open(os.path.join(out, "config.yaml"), "w") as f:
        f.write("# the feature settings of this model, as in WeSpeaker's config.yaml\n"
                "dataset_args:\n  fbank_args:\n    num_mel_bins: 80\n    frame_shift: 10\n    frame_length: 25\n"
                "    dither: 0.0\n")
    print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
