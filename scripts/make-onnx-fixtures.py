#!/usr/bin/python3
"""Make the tiny random-weight ONNX fixtures of sv/neural's parity tests.

Writes, under sv/neural/testdata/onnx/ (or the folder given as argument):

  bert/model.onnx, bert/tokenizer.json        BERT-style encoder (WordPiece, token types,
                                               absolute positions, post-LayerNorm, exact GELU)
  roberta/model.onnx, roberta/tokenizer.json  RoBERTa-style encoder (byte-level BPE, positions
                                               counted from padding_idx+1 over real tokens only)
  */reference.json                             inputs and PyTorch's last_hidden_state for them, and
                                               PyTorch's sentence embeddings of the tokenizer sentences
  */config.json, */modules.json, */sentence_bert_config.json, */1_Pooling/config.json
                                               the configuration files of a Hugging Face
                                               sentence-transformers repository, so that a stand-in Hub
                                               serves each folder as a model repository (model.onnx as
                                               onnx/model.onnx); bert pools by mean, roberta by [CLS]

The models are written in plain PyTorch (no `transformers`, which Debian does not package) so
that they have the same ONNX structure as Hugging Face exports of BERT/RoBERTa: inputs
input_ids / attention_mask (/ token_type_ids), output last_hidden_state [batch, tokens, hidden].
Weights are random (seeded), so the fixtures are small (~100 KB each) and free of licences.

Run with Debian's Python: apt-get install -y python3-torch python3-onnx, then
  /usr/bin/python3 scripts/make-onnx-fixtures.py
Re-running gives the same files (fixed seeds) up to the exporter's version.
"""
import json
import math
import os
import sys

import onnx
import torch
from torch import nn

HIDDEN, LAYERS, HEADS, FFN, MAX_POS = 32, 2, 2, 64, 40

WORDS = """the a an and or but so i you he she we they it me him her my your this that is are was
were be have has had do did will would can not no yes oh well like just really very hey hello hi
thanks please sorry okay sure right yeah what why how when where who science physics theory
quantum love heart feel money work job boss coffee tea beer pizza game comic movie music shall
thee thou art hath go come see look know think want need get make take give tell say talk good
bad great nice cool weird , . ! ? ' -""".split()


class Layer(nn.Module):
    """One post-LayerNorm encoder block, as in BERT and RoBERTa."""

    def __init__(self):
        super().__init__()
        self.q = nn.Linear(HIDDEN, HIDDEN)
        self.k = nn.Linear(HIDDEN, HIDDEN)
        self.v = nn.Linear(HIDDEN, HIDDEN)
        self.o = nn.Linear(HIDDEN, HIDDEN)
        self.ln1 = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.ff1 = nn.Linear(HIDDEN, FFN)
        self.ff2 = nn.Linear(FFN, HIDDEN)
        self.ln2 = nn.LayerNorm(HIDDEN, eps=1e-12)

    def forward(self, x, bias):
        b, t, _ = x.shape
        hd = HIDDEN // HEADS

        def split(y):
            return y.view(b, t, HEADS, hd).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd) + bias
        att = torch.softmax(scores, dim=-1)
        ctx = torch.matmul(att, v).transpose(1, 2).reshape(b, t, HIDDEN)
        x = self.ln1(x + self.o(ctx))
        h = self.ff2(torch.nn.functional.gelu(self.ff1(x)))  # exact (erf) GELU
        return self.ln2(x + h)


class Encoder(nn.Module):
    def __init__(self, vocab, roberta):
        super().__init__()
        self.roberta = roberta
        self.pad = 1 if roberta else 0
        self.words = nn.Embedding(vocab, HIDDEN, padding_idx=self.pad)
        self.positions = nn.Embedding(MAX_POS, HIDDEN, padding_idx=self.pad if roberta else None)
        self.types = nn.Embedding(1 if roberta else 2, HIDDEN)
        self.ln = nn.LayerNorm(HIDDEN, eps=1e-12)
        self.layers = nn.ModuleList([Layer() for _ in range(LAYERS)])
        self.register_buffer("position_ids", torch.arange(MAX_POS).unsqueeze(0))

    def forward(self, input_ids, attention_mask, token_type_ids=None):
        t = input_ids.shape[1]
        if self.roberta:
            # RoBERTa: positions count real tokens from padding_idx + 1.
            m = input_ids.ne(self.pad).int()
            pos = (torch.cumsum(m, dim=1).type_as(m) * m).long() + self.pad
            types = torch.zeros_like(input_ids)
        else:
            pos = self.position_ids[:, :t]
            types = token_type_ids
        x = self.words(input_ids) + self.positions(pos) + self.types(types)
        x = self.ln(x)
        bias = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return x


def wordpiece_tokenizer_json(vocab):
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for t in ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {"type": "BertProcessing", "sep": ["[SEP]", vocab["[SEP]"]], "cls": ["[CLS]", vocab["[CLS]"]]},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab},
    }


def bytes_to_unicode():
    """GPT-2's byte → printable character map used by byte-level BPE."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


def bpe_tokenizer_json():
    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    vocab = {t: i for i, t in enumerate(specials)}
    for ch in sorted(set(bytes_to_unicode().values())):
        vocab[ch] = len(vocab)
    space = bytes_to_unicode()[ord(" ")]  # "Ġ"
    merges = []
    # A few merges so that common words become single tokens.
    for word in ["the", "and", "you", "oh", "hello", "theory", "pizza"]:
        for w in [word, space + word]:
            cur = w[0]
            for ch in w[1:]:
                pair = (cur, ch)
                if cur + ch not in vocab:
                    merges.append(" ".join(pair))
                    vocab[cur + ch] = len(vocab)
                cur = cur + ch
    tok = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": True, "special": True} for t in specials],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                           "trim_offsets": True, "add_prefix_space": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "vocab": vocab, "merges": merges},
    }
    return tok, vocab


# Sentences whose tokenization the Go tests compare with the reference
# implementations below (plain ASCII: the pre-tokenizers below are the
# standard ones restricted to ASCII letters, digits and punctuation).
TOKENIZER_SENTENCES = [
    "Hello, World!",
    "oh the theory of pizza",
    "You and the boss? Okay... sure.",
    "hellos thanked; thinking",
    "zzz qqq",
]


def wordpiece_ids(text, vocab):
    """BERT basic tokenizer (lower-case, split on spaces and punctuation) + greedy longest-match WordPiece."""
    words = []
    for w in text.lower().split():
        cur = ""
        for ch in w:
            if not ch.isalnum():
                if cur:
                    words.append(cur)
                words.append(ch)
                cur = ""
            else:
                cur += ch
        if cur:
            words.append(cur)
    ids = [vocab["[CLS]"]]
    for w in words:
        start, pieces = 0, []
        while start < len(w):
            end = len(w)
            while end > start:
                piece = w[start:end] if start == 0 else "##" + w[start:end]
                if piece in vocab:
                    pieces.append(vocab[piece])
                    break
                end -= 1
            if end == start:
                pieces = [vocab["[UNK]"]]
                break
            start = end
        ids.extend(pieces)
    return ids + [vocab["[SEP]"]]


def bpe_ids(text, vocab, merges):
    """GPT-2 byte-level BPE: regex pre-tokenization, byte → unicode map, lowest-rank merges first."""
    import re
    pat = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+""")
    b2u = bytes_to_unicode()
    ranks = {tuple(m.split(" ")): i for i, m in enumerate(merges)}
    ids = [vocab["<s>"]]
    for tok in pat.findall(text):
        word = [b2u[b] for b in tok.encode("utf-8")]
        while len(word) > 1:
            pairs = [(ranks.get((word[i], word[i + 1]), 1 << 30), i) for i in range(len(word) - 1)]
            rank, i = min(pairs)
            if rank == 1 << 30:
                break
            word = word[:i] + [word[i] + word[i + 1]] + word[i + 2:]
        ids.extend(vocab[w] for w in word)
    return ids + [vocab["</s>"]]


def reference_inputs(vocab_size, pad, first, last, seed):
    """Three rows of different lengths, padded with pad; row 0 starts with first, rows end with last."""
    g = torch.Generator().manual_seed(seed)
    lengths = [10, 6, 3]
    t = max(lengths)
    ids = torch.full((len(lengths), t), pad, dtype=torch.long)
    mask = torch.zeros((len(lengths), t), dtype=torch.long)
    for i, n in enumerate(lengths):
        body = torch.randint(5, vocab_size, (n - 2,), generator=g)
        ids[i, 0], ids[i, n - 1] = first, last
        ids[i, 1:n - 1] = body
        mask[i, :n] = 1
    return ids, mask


SENTENCE_MAX_LEN = 16


def sentence_embeddings(model, roberta, pad, tokenize, pooling):
    """PyTorch's sentence vectors of TOKENIZER_SENTENCES, as sentence-transformers computes them with this
    model and pooling: ids cut to SENTENCE_MAX_LEN keeping the closing special token, padded, then the mean
    over real tokens or the first token's state."""
    rows = []
    for t in TOKENIZER_SENTENCES:
        ids = tokenize(t)
        if len(ids) > SENTENCE_MAX_LEN:
            ids = ids[:SENTENCE_MAX_LEN - 1] + ids[-1:]
        rows.append(ids)
    t = max(len(r) for r in rows)
    ids = torch.full((len(rows), t), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), t), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, :len(r)] = torch.tensor(r)
        mask[i, :len(r)] = 1
    with torch.no_grad():
        out = model(ids, mask) if roberta else model(ids, mask, torch.zeros_like(ids))
    if pooling == "cls":
        vec = out[:, 0]
    else:
        m = mask.unsqueeze(-1).float()
        vec = (out * m).sum(1) / m.sum(1).clamp(min=1e-9)
    return [[round(float(x), 7) for x in v] for v in vec.tolist()]


def repository_files(out_dir, roberta, vocab_size, pooling):
    """The configuration files a sentence-transformers repository on the Hub has beside its weights."""
    config = {"architectures": ["RobertaModel" if roberta else "BertModel"], "model_type": "roberta" if roberta else "bert",
              "hidden_size": HIDDEN, "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "intermediate_size": FFN,
              "max_position_embeddings": MAX_POS, "vocab_size": vocab_size, "layer_norm_eps": 1e-12, "hidden_act": "gelu",
              "pad_token_id": 1 if roberta else 0, "type_vocab_size": 1 if roberta else 2}
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
               {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]
    pool = {"word_embedding_dimension": HIDDEN, "pooling_mode_cls_token": pooling == "cls",
            "pooling_mode_mean_tokens": pooling == "mean", "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False}
    os.makedirs(os.path.join(out_dir, "1_Pooling"), exist_ok=True)
    for name, obj in [("config.json", config), ("modules.json", modules), ("1_Pooling/config.json", pool),
                      ("sentence_bert_config.json", {"max_seq_length": SENTENCE_MAX_LEN, "do_lower_case": False})]:
        with open(os.path.join(out_dir, name), "w") as f:
            json.dump(obj, f, indent=1)


def export(model, out_dir, roberta, vocab_size, pad, first, last, tokenizer, seed, tokenize, pooling):
    os.makedirs(out_dir, exist_ok=True)
    model.eval()
    ids, mask = reference_inputs(vocab_size, pad, first, last, seed)
    types = torch.zeros_like(ids)
    if roberta:
        args, names = (ids, mask), ["input_ids", "attention_mask"]
    else:
        args, names = (ids, mask, types), ["input_ids", "attention_mask", "token_type_ids"]
    path = os.path.join(out_dir, "model.onnx")
    torch.onnx.export(model, args, path, input_names=names, output_names=["last_hidden_state"],
                      dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names + ["last_hidden_state"]},
                      opset_version=14, do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))
    with torch.no_grad():
        out = model(*args)
    ref = {
        "input_ids": ids.tolist(), "attention_mask": mask.tolist(),
        "last_hidden_state_shape": list(out.shape),
        "last_hidden_state": [round(float(x), 7) for x in out.flatten().tolist()],
        "torch_version": torch.__version__, "onnx_version": onnx.__version__,
        "tokenization": [{"text": t, "ids": tokenize(t)} for t in TOKENIZER_SENTENCES],
        "sentence_pooling": pooling, "sentence_max_len": SENTENCE_MAX_LEN,
        "sentence_embeddings": sentence_embeddings(model, roberta, pad, tokenize, pooling),
    }
    repository_files(out_dir, roberta, vocab_size, pooling)
    with open(os.path.join(out_dir, "reference.json"), "w") as f:
        json.dump(ref, f)
    with open(os.path.join(out_dir, "tokenizer.json"), "w") as f:
        json.dump(tokenizer, f, ensure_ascii=False, indent=1)
    print(path, os.path.getsize(path), "bytes")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "sv", "neural", "testdata", "onnx")
    torch.manual_seed(1234)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {t: i for i, t in enumerate(specials + WORDS + ["##s", "##ed", "##ing", "##ly"])}
    bert = Encoder(len(vocab), roberta=False)
    export(bert, os.path.join(out, "bert"), False, len(vocab), vocab["[PAD]"], vocab["[CLS]"], vocab["[SEP]"],
           wordpiece_tokenizer_json(vocab), seed=1, tokenize=lambda t: wordpiece_ids(t, vocab), pooling="mean")
    torch.manual_seed(5678)
    tok, bvocab = bpe_tokenizer_json()
    roberta = Encoder(len(bvocab), roberta=True)
    export(roberta, os.path.join(out, "roberta"), True, len(bvocab), 1, 0, 2, tok, seed=2,
           tokenize=lambda t: bpe_ids(t, bvocab, tok["model"]["merges"]), pooling="cls")


if __name__ == "__main__":
    main()
