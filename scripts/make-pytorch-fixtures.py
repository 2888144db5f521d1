#!/usr/bin/python3
"""Make the PyTorch-pickle fixtures of sv/neural's pytorch_model.bin reader.

Reads the tiny random-weight models that scripts/make-safetensors-fixtures.py wrote under
sv/neural/testdata/safetensors/ (bert F32, roberta F16, mpnet F32, luar BF16) and writes their state dicts,
tensor for tensor with the same names, dtypes and values, under sv/neural/testdata/pytorch/ as torch.save
does for transformers' pytorch_model.bin:

  NAME.bin          the zip format of torch >= 1.6 (NAME/data.pkl and NAME/data/N); in bert.bin one weight
                    (encoder.layer.0.intermediate.dense.weight) is stored transposed (column-major strides,
                    as a tensor saved from a .t() view is) and two share one storage at different offsets
                    (embeddings.LayerNorm.weight and .bias), with the same values
  bert-legacy.bin   the bert weights in the legacy (pre-1.6, non-zip) format
  bert-shards/      the bert weights split as transformers shards them: pytorch_model.bin.index.json and
                    pytorch_model-0000N-of-00002.bin
  expanded.bin      a state dict whose one tensor is an expanded view (stride 0), refused by the reader
  foreign-global.bin
                    a zip laid out like torch.save's whose data.pkl calls os.system: crafted here as bytes
                    (never unpickled), for the test that the reader refuses globals other than torch's
                    tensor and storage types and collections.OrderedDict

The weights are those of the safetensors fixtures, so their reference.json (PyTorch's vectors) holds for
these files too. Run with Debian's Python (python3-torch):
  /usr/bin/python3 scripts/make-pytorch-fixtures.py
"""
import collections
import json
import os
import struct
import sys
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "sv", "neural", "testdata")
DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "F64": torch.float64, "I64": torch.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    state = collections.OrderedDict()
    for name in sorted(header):
        if name == "__metadata__":
            continue
        t = header[name]
        a, b = t["data_offsets"]
        buf = bytearray(data[a:b])
        dtype = DTYPES[t["dtype"]]
        state[name] = torch.frombuffer(buf, dtype=dtype).reshape(t["shape"]).clone() if b > a else torch.zeros(t["shape"], dtype=dtype)
    return state


def foreign_global_pickle():
    # Protocol 2: GLOBAL 'os system', the argument tuple, REDUCE, STOP. Never loaded here.
    return b"\x80\x02cos\nsystem\nX\x0b\x00\x00\x00echo pwned!\x85R."


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "pytorch")
    os.makedirs(out, exist_ok=True)
    for name in ["bert", "roberta", "mpnet", "luar"]:
        state = read_safetensors(os.path.join(ROOT, "safetensors", name, "model.safetensors"))
        if name == "bert":
            torch.save(state, os.path.join(out, "bert-legacy.bin"), _use_new_zipfile_serialization=False)
            shards = os.path.join(out, "bert-shards")
            os.makedirs(shards, exist_ok=True)
            names = list(state)
            weight_map = {}
            for i, part in enumerate([names[:len(names) // 2], names[len(names) // 2:]]):
                fname = "pytorch_model-%05d-of-00002.bin" % (i + 1)
                torch.save(collections.OrderedDict((k, state[k]) for k in part), os.path.join(shards, fname))
                weight_map.update({k: fname for k in part})
            with open(os.path.join(shards, "pytorch_model.bin.index.json"), "w") as f:
                json.dump({"metadata": {"total_size": sum(v.numel() * v.element_size() for v in state.values())}, "weight_map": weight_map}, f, indent=1)
            strided = collections.OrderedDict(state)
            w = strided["encoder.layer.0.intermediate.dense.weight"]
            strided["encoder.layer.0.intermediate.dense.weight"] = w.t().contiguous().t()
            assert not strided["encoder.layer.0.intermediate.dense.weight"].is_contiguous()
            g, b = strided["embeddings.LayerNorm.weight"], strided["embeddings.LayerNorm.bias"]
            both = torch.cat([g, b])
            strided["embeddings.LayerNorm.weight"], strided["embeddings.LayerNorm.bias"] = both[:len(g)], both[len(g):]
            state = strided
        torch.save(state, os.path.join(out, name + ".bin"))
        back = torch.load(os.path.join(out, name + ".bin"))
        assert all(torch.equal(back[k], v) for k, v in state.items())
    torch.save({"w": torch.arange(2.0).expand(3, 2)}, os.path.join(out, "expanded.bin"))
    with zipfile.ZipFile(os.path.join(out, "foreign-global.bin"), "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", foreign_global_pickle())
        z.writestr("archive/version", "3\n")


if __name__ == "__main__":
    main()
