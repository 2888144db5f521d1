#!/usr/bin/python3
"""Make the tiny random-weight safetensors fixtures of sv/neural's GoMLX BERT-family and LUAR tests.

Writes, under sv/neural/testdata/safetensors/ (or the folder given as argument), one Hugging Face
repository layout per model, with the parameter names the `transformers` classes use:

  bert/     BertModel (keys embeddings.*, encoder.layer.N.*, pooler.*), float32 weights, WordPiece
            tokenizer.json, sentence-transformers files with mean pooling (all-MiniLM's layout)
  roberta/  RobertaForMaskedLM (keys roberta.*, lm_head.*: FacebookAI/roberta-large's layout),
            float16 weights, byte-level BPE tokenizer.json, positions from padding_idx + 1,
            sentence-transformers files with CLS pooling
  mpnet/    MPNetModel (keys embeddings.*, encoder.layer.N.attention.attn.{q,k,v,o}.*,
            encoder.relative_attention_bias.weight), float32, WordPiece tokenizer.json with <s> … </s>
            (all-mpnet-base-v2's layout), mean pooling; reference.json adds the relative-position buckets of
            every offset a 512-token input has
  luar/     LUAR as published (64 wide, one head of LUAR's backbone's head width 64) on the Hub (rrivera1849/LUAR-MUD, LUAR-CRUD; the model.py the repositories
            ship): a RobertaModel under transformer.*, a parameter-free scaled dot-product self-attention
            across an episode's utterance vectors, max pooling over the episode and linear.* to the
            embedding size; config.json as the published one ("model_type": "LUAR", "embedding_size"),
            which holds no RoBERTa hyperparameters; bfloat16 weights
  */reference.json
            the tokenizer sentences and PyTorch's vectors for them: sentence vectors (bert, roberta),
            and for luar the vectors of a few episodes of those sentences

The models are written in plain PyTorch (Debian packages no `transformers`), module for module as
transformers' BertModel / RobertaModel compute them (post-LayerNorm blocks, exact GELU, additive
attention mask), and the safetensors files are written by hand in the format's layout (8-byte
little-endian header length, JSON header, raw little-endian data), since Debian has no `safetensors`
package either. Half-precision fixtures are computed by PyTorch with the weights rounded to that
precision, so the Go side must convert F16/BF16 exactly to match. Weights are random (seeded);
the files are small (tens of KB each).

Run with Debian's Python: apt-get install -y python3-torch python3-onnx, then
  /usr/bin/python3 scripts/make-safetensors-fixtures.py
"""
import importlib.util
import json
import math
import os
import struct
import sys

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("onnxfix", os.path.join(HERE, "make-onnx-fixtures.py"))
onnxfix = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(onnxfix)

HIDDEN, LAYERS, HEADS, FFN, MAX_POS = 32, 2, 2, 64, 40
LUAR_EMBEDDING = 16  # the published 512, scaled down
LUAR_HEAD_WIDTH = 64  # paraphrase-distilroberta-base-v1: 768 wide, 12 heads
SENTENCE_MAX_LEN = 16


class SelfAttention(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.query = nn.Linear(HIDDEN, HIDDEN)
        self.key = nn.Linear(HIDDEN, HIDDEN)
        self.value = nn.Linear(HIDDEN, HIDDEN)


class Dense(nn.Module):
    def __init__(self, n_in, n_out, eps=None):
        super().__init__()
        self.dense = nn.Linear(n_in, n_out)
        if eps is not None:
            self.LayerNorm = nn.LayerNorm(n_out, eps=eps)


class Attention(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.self = SelfAttention(eps)
        self.output = Dense(HIDDEN, HIDDEN, eps)


class Layer(nn.Module):
    """transformers' BertLayer: post-LayerNorm self-attention and feed-forward."""

    def __init__(self, eps):
        super().__init__()
        self.attention = Attention(eps)
        self.intermediate = Dense(HIDDEN, FFN)
        self.output = Dense(FFN, HIDDEN, eps)

    def forward(self, x, bias):
        b, t, _ = x.shape
        hd = HIDDEN // HEADS
        a = self.attention.self

        def split(y):
            return y.view(b, t, HEADS, hd).transpose(1, 2)

        q, k, v = split(a.query(x)), split(a.key(x)), split(a.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd) + bias
        ctx = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(b, t, HIDDEN)
        o = self.attention.output
        x = o.LayerNorm(o.dense(ctx) + x)
        h = nn.functional.gelu(self.intermediate.dense(x))  # exact (erf) GELU, hidden_act "gelu"
        return self.output.LayerNorm(self.output.dense(h) + x)


class Embeddings(nn.Module):
    def __init__(self, vocab, pad, types, eps):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, HIDDEN, padding_idx=pad)
        self.position_embeddings = nn.Embedding(MAX_POS, HIDDEN)
        self.token_type_embeddings = nn.Embedding(types, HIDDEN)
        self.LayerNorm = nn.LayerNorm(HIDDEN, eps=eps)


class Encoder(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.layer = nn.ModuleList([Layer(eps) for _ in range(LAYERS)])


class Model(nn.Module):
    """BertModel / RobertaModel: last_hidden_state of input_ids and attention_mask."""

    def __init__(self, vocab, roberta, pooler):
        super().__init__()
        self.roberta = roberta
        self.pad = 1 if roberta else 0
        eps = 1e-5 if roberta else 1e-12
        self.embeddings = Embeddings(vocab, self.pad, 1 if roberta else 2, eps)
        self.encoder = Encoder(eps)
        if pooler:
            self.pooler = Dense(HIDDEN, HIDDEN)  # in the checkpoint, unused by sentence embeddings

    def forward(self, ids, mask):
        t = ids.shape[1]
        if self.roberta:
            m = ids.ne(self.pad).int()
            pos = (torch.cumsum(m, dim=1).type_as(m) * m).long() + self.pad
        else:
            pos = torch.arange(t).unsqueeze(0).expand_as(ids)
        e = self.embeddings
        x = e.word_embeddings(ids) + e.position_embeddings(pos) + e.token_type_embeddings(torch.zeros_like(ids))
        x = e.LayerNorm(x)
        bias = (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        for layer in self.encoder.layer:
            x = layer(x, bias)
        return x


class MPNetSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v, self.o = (nn.Linear(HIDDEN, HIDDEN) for _ in range(4))


class MPNetAttention(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.attn = MPNetSelfAttention()
        self.LayerNorm = nn.LayerNorm(HIDDEN, eps=eps)


class MPNetLayer(nn.Module):
    """transformers' MPNetLayer: BERT's block with q/k/v/o names and the relative position bias added to the
    attention scores."""

    def __init__(self, eps):
        super().__init__()
        self.attention = MPNetAttention(eps)
        self.intermediate = Dense(HIDDEN, FFN)
        self.output = Dense(FFN, HIDDEN, eps)

    def forward(self, x, bias, position_bias):
        b, t, _ = x.shape
        hd = HIDDEN // HEADS
        a = self.attention.attn

        def split(y):
            return y.view(b, t, HEADS, hd).transpose(1, 2)

        q, k, v = split(a.q(x)), split(a.k(x)), split(a.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd) + position_bias + bias
        ctx = torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(b, t, HIDDEN)
        x = self.attention.LayerNorm(a.o(ctx) + x)
        h = nn.functional.gelu(self.intermediate.dense(x))
        return self.output.LayerNorm(self.output.dense(h) + x)


def relative_position_bucket(relative_position, num_buckets=32, max_distance=128):
    """MPNet's (T5's bidirectional) bucketing of key position − query position, as transformers computes it."""
    ret = 0
    n = -relative_position
    num_buckets //= 2
    ret += (n < 0).to(torch.long) * num_buckets
    n = torch.abs(n)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)).to(torch.long)
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return ret + torch.where(is_small, n, val_if_large)


class MPNetEncoder(nn.Module):
    def __init__(self, eps, buckets):
        super().__init__()
        self.layer = nn.ModuleList([MPNetLayer(eps) for _ in range(LAYERS)])
        self.relative_attention_bias = nn.Embedding(buckets, HEADS)
        self.buckets = buckets

    def position_bias(self, t):
        pos = torch.arange(t, dtype=torch.long)
        rp = relative_position_bucket(pos[None, :] - pos[:, None], num_buckets=self.buckets)
        return self.relative_attention_bias(rp).permute([2, 0, 1]).unsqueeze(0)


class MPNetEmbeddings(nn.Module):
    def __init__(self, vocab, eps):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, HIDDEN, padding_idx=1)
        self.position_embeddings = nn.Embedding(MAX_POS, HIDDEN, padding_idx=1)
        self.LayerNorm = nn.LayerNorm(HIDDEN, eps=eps)


class MPNet(nn.Module):
    """MPNetModel: RoBERTa-style positions, no token types, relative position bias shared by the layers."""

    def __init__(self, vocab, buckets):
        super().__init__()
        self.embeddings = MPNetEmbeddings(vocab, 1e-5)
        self.encoder = MPNetEncoder(1e-5, buckets)
        self.pooler = Dense(HIDDEN, HIDDEN)

    def forward(self, ids, mask):
        m = ids.ne(1).int()
        pos = (torch.cumsum(m, dim=1).type_as(m) * m).long() + 1
        e = self.embeddings
        x = e.LayerNorm(e.word_embeddings(ids) + e.position_embeddings(pos))
        bias = (1.0 - mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        pb = self.encoder.position_bias(ids.shape[1])
        for layer in self.encoder.layer:
            x = layer(x, bias, pb)
        return x


class MaskedLM(nn.Module):
    """RobertaForMaskedLM's parameter layout: roberta.* and lm_head.*."""

    def __init__(self, vocab):
        super().__init__()
        self.roberta = Model(vocab, True, pooler=False)
        self.lm_head = Dense(HIDDEN, HIDDEN, 1e-5)
        self.lm_head.decoder = nn.Linear(HIDDEN, vocab)


class LUAR(nn.Module):
    """The published LUAR: transformer.* (RobertaModel), a parameter-free self-attention, linear.*."""

    def __init__(self, vocab):
        super().__init__()
        self.transformer = Model(vocab, True, pooler=True)
        self.linear = nn.Linear(HIDDEN, LUAR_EMBEDDING)

    def forward(self, ids, mask):
        """ids, mask: [E, L], one episode (B = 1) as get_episode_embeddings computes it."""
        out = self.transformer(ids, mask)
        m = mask.unsqueeze(-1).float()
        comments = ((out * m).sum(1) / m.sum(1).clamp(min=1e-9)).unsqueeze(0)  # [1, E, H]
        scores = torch.matmul(comments, comments.transpose(-2, -1)) / math.sqrt(comments.size(-1))
        episode = torch.matmul(torch.softmax(scores, dim=-1), comments)
        return self.linear(episode.max(dim=1).values)[0]


def round_weights(model, dtype):
    """Round every parameter to dtype (and back to float32): PyTorch then computes with the values the
    half-precision file holds."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.to(dtype).to(torch.float32))


ST_DTYPES = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16"}


def write_safetensors(path, state, dtype):
    """The safetensors layout: u64 header length, JSON header (space-padded to 8 bytes), tensor data."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name in sorted(state):
        t = state[name].detach().to(dtype).contiguous()
        raw = t.view(torch.int16).numpy().tobytes() if dtype == torch.bfloat16 else t.numpy().tobytes()
        header[name] = {"dtype": ST_DTYPES[dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def batch(rows, pad):
    t = max(len(r) for r in rows)
    ids = torch.full((len(rows), t), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), t), dtype=torch.long)
    for i, r in enumerate(rows):
        ids[i, :len(r)] = torch.tensor(r)
        mask[i, :len(r)] = 1
    return ids, mask


def cut(ids, n):
    """sentence-transformers' truncation: at most n ids, the closing special token kept."""
    return ids if len(ids) <= n else ids[:n - 1] + ids[-1:]


def sentence_vectors(model, pad, tokenize, pooling):
    ids, mask = batch([cut(tokenize(t), SENTENCE_MAX_LEN) for t in onnxfix.TOKENIZER_SENTENCES], pad)
    with torch.no_grad():
        out = model(ids, mask)
    if pooling == "cls":
        vec = out[:, 0]
    else:
        m = mask.unsqueeze(-1).float()
        vec = (out * m).sum(1) / m.sum(1).clamp(min=1e-9)
    return [[round(float(x), 7) for x in v] for v in vec.tolist()]


def sentence_transformers_files(out_dir, pooling):
    onnxfix.repository_files(out_dir, False, 0, pooling)  # modules.json, 1_Pooling, sentence_bert_config.json
    os.remove(os.path.join(out_dir, "config.json"))       # written below with the model's own values


def write_json(path, obj, indent=1):
    with open(path, "w") as f:
        json.dump(obj, f, indent=indent, ensure_ascii=False)


def transformer_config(arch, roberta, vocab):
    return {"architectures": [arch], "model_type": "roberta" if roberta else "bert", "hidden_size": HIDDEN,
            "num_hidden_layers": LAYERS, "num_attention_heads": HEADS, "intermediate_size": FFN,
            "max_position_embeddings": MAX_POS, "vocab_size": vocab, "layer_norm_eps": 1e-5 if roberta else 1e-12,
            "hidden_act": "gelu", "pad_token_id": 1 if roberta else 0, "type_vocab_size": 1 if roberta else 2,
            "position_embedding_type": "absolute"}


def make_bert(out):
    torch.manual_seed(4321)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {t: i for i, t in enumerate(specials + onnxfix.WORDS + ["##s", "##ed", "##ing", "##ly"])}
    model = Model(len(vocab), False, pooler=True).eval()
    d = os.path.join(out, "bert")
    os.makedirs(d, exist_ok=True)
    write_safetensors(os.path.join(d, "model.safetensors"), model.state_dict(), torch.float32)
    write_json(os.path.join(d, "tokenizer.json"), onnxfix.wordpiece_tokenizer_json(vocab))
    sentence_transformers_files(d, "mean")
    write_json(os.path.join(d, "config.json"), transformer_config("BertModel", False, len(vocab)))
    tokenize = lambda t: onnxfix.wordpiece_ids(t, vocab)
    write_json(os.path.join(d, "reference.json"), reference(model, 0, tokenize, "mean", torch.float32), None)


def make_roberta(out):
    torch.manual_seed(8765)
    tok, bvocab = onnxfix.bpe_tokenizer_json()
    lm = MaskedLM(len(bvocab)).eval()
    round_weights(lm, torch.float16)
    d = os.path.join(out, "roberta")
    os.makedirs(d, exist_ok=True)
    write_safetensors(os.path.join(d, "model.safetensors"), lm.state_dict(), torch.float16)
    write_json(os.path.join(d, "tokenizer.json"), tok)
    sentence_transformers_files(d, "cls")
    write_json(os.path.join(d, "config.json"), transformer_config("RobertaForMaskedLM", True, len(bvocab)))
    tokenize = lambda t: onnxfix.bpe_ids(t, bvocab, tok["model"]["merges"])
    write_json(os.path.join(d, "reference.json"), reference(lm.roberta, 1, tokenize, "cls", torch.float16), None)


# Episodes of the tokenizer sentences and one longer than LUAR's 32-token truncation (indices) whose
# LUAR vectors the reference holds.
LUAR_TEXTS = onnxfix.TOKENIZER_SENTENCES + ["You and the boss? Okay... sure. Oh, the theory of pizza!"]
EPISODES = [[0, 1, 2], [3, 4], [2], [4, 0, 5, 1, 3], [5]]
LUAR_MAX_LEN = 32  # the published training's truncation, RolePrint's default for LUAR


def make_luar(out):
    # The published config.json has no RoBERTa hyperparameters: the loader reads the widths from the
    # tensors and takes the heads from the published backbone's head width (768 / 12 heads = 64), so the
    # tiny LUAR keeps that width: one head of 64.
    global HIDDEN, HEADS, FFN
    HIDDEN, FFN = 64, 128
    HEADS = HIDDEN // LUAR_HEAD_WIDTH
    torch.manual_seed(2468)
    tok, bvocab = onnxfix.bpe_tokenizer_json()
    model = LUAR(len(bvocab)).eval()
    round_weights(model, torch.bfloat16)
    d = os.path.join(out, "luar")
    os.makedirs(d, exist_ok=True)
    write_safetensors(os.path.join(d, "model.safetensors"), model.state_dict(), torch.bfloat16)
    write_json(os.path.join(d, "tokenizer.json"), tok)
    # The published config.json: LUARConfig's fields and the custom-code map, no RoBERTa hyperparameters
    # (model.py builds the transformer from sentence-transformers/paraphrase-distilroberta-base-v1).
    write_json(os.path.join(d, "config.json"), {
        "architectures": ["LUAR"], "auto_map": {"AutoConfig": "config.LUARConfig", "AutoModel": "model.LUAR"},
        "embedding_size": LUAR_EMBEDDING, "k_bucket_size": 1024, "model_type": "LUAR", "q_bucket_size": 512,
        "torch_dtype": "float32", "use_memory_efficient_attention": False})
    tokenize = lambda t: onnxfix.bpe_ids(t, bvocab, tok["model"]["merges"])
    texts = LUAR_TEXTS
    assert len(tokenize(texts[5])) > LUAR_MAX_LEN
    vecs = []
    for ep in EPISODES:
        ids, mask = batch([cut(tokenize(texts[i]), LUAR_MAX_LEN) for i in ep], 1)
        with torch.no_grad():
            vecs.append([round(float(x), 7) for x in model(ids, mask).tolist()])
    ref = {"tokenization": [{"text": t, "ids": tokenize(t)} for t in texts], "max_len": LUAR_MAX_LEN,
           "episodes": [[texts[i] for i in ep] for ep in EPISODES], "episode_embeddings": vecs,
           "weights_dtype": "bfloat16", "torch_version": torch.__version__}
    write_json(os.path.join(d, "reference.json"), ref, None)


def MPNET_ALIASES(vocab):
    """BERT's special-token names for MPNet's, for the WordPiece helpers of make-onnx-fixtures.py."""
    return {"[PAD]": vocab["<pad>"], "[UNK]": vocab["<unk>"], "[CLS]": vocab["<s>"], "[SEP]": vocab["</s>"], "[MASK]": vocab["<mask>"]}


def mpnet_tokenizer_json(vocab):
    """all-mpnet-base-v2's tokenizer layout: BERT normalisation and WordPiece, <s> … </s> (RobertaProcessing)."""
    tok = onnxfix.wordpiece_tokenizer_json({**vocab, **MPNET_ALIASES(vocab)})
    tok["model"]["vocab"] = vocab
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tok["added_tokens"] = [{"id": vocab[t], "content": t, "single_word": False, "lstrip": t == "<mask>", "rstrip": False,
                            "normalized": False, "special": True} for t in specials]
    tok["post_processor"] = {"type": "RobertaProcessing", "sep": ["</s>", vocab["</s>"]], "cls": ["<s>", vocab["<s>"]],
                             "trim_offsets": True, "add_prefix_space": False}
    tok["model"]["unk_token"] = "<unk>"
    return tok


def make_mpnet(out):
    torch.manual_seed(1357)
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    vocab = {t: i for i, t in enumerate(specials + onnxfix.WORDS + ["##s", "##ed", "##ing", "##ly"])}
    buckets = 32
    model = MPNet(len(vocab), buckets).eval()
    d = os.path.join(out, "mpnet")
    os.makedirs(d, exist_ok=True)
    write_safetensors(os.path.join(d, "model.safetensors"), model.state_dict(), torch.float32)
    write_json(os.path.join(d, "tokenizer.json"), mpnet_tokenizer_json(vocab))
    sentence_transformers_files(d, "mean")
    write_json(os.path.join(d, "config.json"), {
        "architectures": ["MPNetForMaskedLM"], "model_type": "mpnet", "hidden_size": HIDDEN, "num_hidden_layers": LAYERS,
        "num_attention_heads": HEADS, "intermediate_size": FFN, "max_position_embeddings": MAX_POS, "vocab_size": len(vocab),
        "layer_norm_eps": 1e-5, "hidden_act": "gelu", "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2,
        "relative_attention_num_buckets": buckets})

    def tokenize(t):
        return onnxfix.wordpiece_ids(t, {**vocab, **MPNET_ALIASES(vocab)})
    ref = reference(model, 1, tokenize, "mean", torch.float32)
    # The bucket of every relative position a 512-token input has, for the Go bucketing to match.
    rel = torch.arange(-511, 512)
    ref["relative_positions"] = rel.tolist()
    ref["relative_buckets"] = relative_position_bucket(rel, num_buckets=buckets).tolist()
    write_json(os.path.join(d, "reference.json"), ref, None)


def reference(model, pad, tokenize, pooling, dtype):
    return {"tokenization": [{"text": t, "ids": tokenize(t)} for t in onnxfix.TOKENIZER_SENTENCES],
            "sentence_pooling": pooling, "sentence_max_len": SENTENCE_MAX_LEN,
            "sentence_embeddings": sentence_vectors(model, pad, tokenize, pooling),
            "weights_dtype": str(dtype).replace("torch.", ""), "torch_version": torch.__version__}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "sv", "neural", "testdata", "safetensors")
    make_bert(out)
    make_roberta(out)
    make_mpnet(out)
    make_luar(out)
    for root, _, files in sorted(os.walk(out)):
        for f in sorted(files):
            p = os.path.join(root, f)
            print(os.path.relpath(p, out), os.path.getsize(p), "bytes")


if __name__ == "__main__":
    main()
