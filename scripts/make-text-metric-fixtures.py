#!/usr/bin/python3
"""Make the tiny random-weight fixtures of the contextual text metrics (BERTScore with a Hub model,
SpeechRole's embedding dedup, VoxRole's alignment check) and PyTorch's results on them.

Writes, under sv/neural/testdata/onnx/ (or the folder given as argument):

  roberta-layers/   RoBERTa-style encoder (byte-level BPE) whose ONNX export has, besides
                    last_hidden_state, every layer's token states as outputs hidden_states.0 (the
                    embeddings) … hidden_states.2 (the last layer), as a Hugging Face model run with
                    output_hidden_states=True and exported under those names gives them.
                    reference.json: PyTorch's hidden states of a few sentences and BERTScore P/R/F of
                    candidate/reference pairs at layers 1 and 2, with and without idf, raw and rescaled
                    with baseline.tsv (a made-up baseline in bert_score's LAYER,P,R,F format).
  st-en/            an English sentence-transformers model (WordPiece, mean pooling, Normalize), the
                    stand-in of all-MiniLM-L6-v2 and all-mpnet-base-v2.
  st-zh/            a Chinese one (WordPiece over CJK characters, [CLS] pooling, Normalize), the
                    stand-in of bge-small-zh-v1.5.
                    reference.json of both: PyTorch's sentence vectors of DEDUP_DIALOGUES (each dialogue
                    as the `speaker: text` lines RolePrint embeds) and of ALIGN_PAIRS.

BERTScore follows bert_score (Zhang et al. 2020, github.com/Tiiiger/bert_score, utils.py):
sentences encoded with add_prefix_space for RoBERTa, token states of the chosen layer
(hidden_states[layer]), L2-normalised; precision = weighted mean over candidate tokens of the best
cosine with a reference token, recall the other way; weights are idf = log((M+1)/(df+1)) over the
references (or 1), with [CLS]/[SEP] (<s>/</s>) weighted 0 but still matchable; F = 2PR/(P+R);
rescaled = (x - b)/(1 - b) for P, R and F with the baseline's row of the layer. The maximum runs
over the pair's own tokens (bert_score's batches also see padding's zero cosine, which matters only
when every cosine of a token is negative).

Uses the model classes and tokenizers of make-onnx-fixtures.py. Run with Debian's Python
(apt-get install -y python3-torch python3-onnx):
  /usr/bin/python3 scripts/make-text-metric-fixtures.py
"""
import importlib.util
import json
import math
import os
import sys

import onnx
import torch

_spec = importlib.util.spec_from_file_location("mof", os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-onnx-fixtures.py"))
mof = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mof)


class LayersEncoder(mof.Encoder):
    """mof.Encoder returning every layer's token states after the last one."""

    def forward(self, input_ids, attention_mask):
        m = input_ids.ne(self.pad).int()
        pos = (torch.cumsum(m, dim=1).type_as(m) * m).long() + self.pad
        x = self.words(input_ids) + self.positions(pos) + self.types(torch.zeros_like(input_ids))
        x = self.ln(x)
        states = [x]
        bias = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
            states.append(x)
        return tuple([x] + states)


BERTSCORE_PAIRS = [
    ("the theory of pizza", "oh the theory of pizza"),
    ("hello you", "hello you"),
    ("you and the boss", "the pizza and you"),
    ("oh hello there", "thanks, hello!"),
    ("pizza pizza pizza", "the theory"),
]
BASELINE = [(0, 0.30, 0.31, 0.305), (1, 0.52, 0.50, 0.51), (2, 0.61, 0.62, 0.615)]


def bertscore(states_c, ids_c, states_r, ids_r, w_c, w_r):
    c = states_c / states_c.norm(dim=-1, keepdim=True)
    r = states_r / states_r.norm(dim=-1, keepdim=True)
    sim = c @ r.T
    wp = torch.tensor([w_c(i) for i in ids_c], dtype=torch.float64)
    wr = torch.tensor([w_r(i) for i in ids_r], dtype=torch.float64)
    p = float((sim.max(dim=1).values.double() * wp / wp.sum()).sum())
    rr = float((sim.max(dim=0).values.double() * wr / wr.sum()).sum())
    f = 2 * p * rr / (p + rr) if p + rr != 0 else 0.0
    return p, rr, f


def roberta_layers(out_dir):
    torch.manual_seed(4321)
    tok, vocab = mof.bpe_tokenizer_json()
    model = LayersEncoder(len(vocab), roberta=True).eval()
    names = ["input_ids", "attention_mask"]
    outs = ["last_hidden_state"] + ["hidden_states.%d" % i for i in range(mof.LAYERS + 1)]
    ids, mask = mof.reference_inputs(len(vocab), 1, 0, 2, seed=3)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "model.onnx")
    torch.onnx.export(model, (ids, mask), path, input_names=names, output_names=outs,
                      dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names + outs}, opset_version=14, do_constant_folding=True)
    onnx.checker.check_model(onnx.load(path))
    # bert_score encodes RoBERTa sentences with add_prefix_space=True: a space before the text.
    tokenize = lambda t: mof.bpe_ids(" " + t.strip(), vocab, tok["model"]["merges"])
    specials = {vocab["<s>"], vocab["</s>"]}

    def states(text, layer):
        i = torch.tensor([tokenize(text)])
        with torch.no_grad():
            return model(i, torch.ones_like(i))[1 + layer][0]

    sentences = sorted({s for p in BERTSCORE_PAIRS for s in p})
    ref = {"torch_version": torch.__version__, "onnx_version": onnx.__version__, "layers": mof.LAYERS,
           "hidden_states": [{"text": s, "ids": tokenize(s), "layer": 1,
                              "states": [[round(float(x), 7) for x in row] for row in states(s, 1).tolist()]} for s in sentences],
           "pairs": [{"candidate": c, "reference": r} for c, r in BERTSCORE_PAIRS], "bertscore": []}
    refs_ids = [tokenize(r) for _, r in BERTSCORE_PAIRS]
    m = len(refs_ids)
    df = {}
    for r in refs_ids:
        for i in set(r):
            df[i] = df.get(i, 0) + 1
    idf = lambda i: 0.0 if i in specials else math.log((m + 1) / (df.get(i, 0) + 1))
    ones = lambda i: 0.0 if i in specials else 1.0
    for layer in (1, 2):
        base = BASELINE[layer][1:]
        for use_idf in (False, True):
            w = idf if use_idf else ones
            rows = []
            for c, r in BERTSCORE_PAIRS:
                p, rc, f = bertscore(states(c, layer), tokenize(c), states(r, layer), tokenize(r), w, w)
                resc = [(x - b) / (1 - b) for x, b in zip((p, rc, f), base)]
                rows.append({"p": p, "r": rc, "f": f, "p_rescaled": resc[0], "r_rescaled": resc[1], "f_rescaled": resc[2]})
            ref["bertscore"].append({"layer": layer, "idf": use_idf, "scores": rows})
    with open(os.path.join(out_dir, "baseline.tsv"), "w") as f:
        f.write("LAYER,P,R,F\n")
        for row in BASELINE:
            f.write("%d,%s,%s,%s\n" % row)
    config = {"architectures": ["RobertaModel"], "model_type": "roberta", "hidden_size": mof.HIDDEN,
              "num_hidden_layers": mof.LAYERS, "num_attention_heads": mof.HEADS, "intermediate_size": mof.FFN,
              "max_position_embeddings": mof.MAX_POS, "vocab_size": len(vocab), "layer_norm_eps": 1e-12,
              "hidden_act": "gelu", "pad_token_id": 1, "type_vocab_size": 1}
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    with open(os.path.join(out_dir, "tokenizer.json"), "w") as f:
        json.dump(tok, f, ensure_ascii=False, indent=1)
    with open(os.path.join(out_dir, "reference.json"), "w") as f:
        json.dump(ref, f)
    print(path, os.path.getsize(path), "bytes")


# Dialogues as RolePrint's dedup embeds them: one "speaker: text" line per turn.
DEDUP_DIALOGUES = [
    [("sheldon", "the theory of quantum physics"), ("leonard", "oh no, not again")],
    [("sheldon", "the theory of quantum physics"), ("leonard", "oh no, not again")],
    [("sheldon", "the theory of quantum physics!"), ("leonard", "oh no, not again.")],
    [("penny", "hey, coffee or beer?"), ("leonard", "tea, please")],
    [("howard", "my boss wants the game"), ("raj", "that is so cool")],
    [("李雷", "我们今天去学校吗？"), ("韩梅梅", "好的，我们一起去。")],
    [("李雷", "我们今天去学校吗？"), ("韩梅梅", "好的，我们一起去。")],
    [("李雷", "我们今天去学校吗"), ("韩梅梅", "好的，我们一起去")],
    [("老师", "你们的作业写完了没有？"), ("学生", "还没有，明天交。")],
]
ALIGN_PAIRS = [
    ("hello penny, how are you", "hello penny how are you"),
    ("the theory of quantum physics", "the theory of uh quantum physics"),
    ("i need coffee", "pizza game tonight"),
]
CJK = list("我们今天去学校吗好的一起你作业写完了没有还明交老师学生李雷韩梅是不在这那个人说")


DIALOGUE_MAX_LEN = 38


def dialogue_text(d):
    return "".join("%s: %s\n" % (s, t) for s, t in d)


def wordpiece_cjk_ids(text, vocab):
    """BERT's basic tokenizer puts spaces around CJK ideographs, then WordPiece."""
    spaced = "".join(" %s " % ch if 0x4E00 <= ord(ch) <= 0x9FFF else ch for ch in text)
    # Full-width punctuation (，？。) is punctuation for BERT: split it off too.
    spaced = "".join(" %s " % ch if ch in "，？。！：" else ch for ch in spaced)
    return mof.wordpiece_ids(spaced, vocab)


def sentence_model(out_dir, seed, pooling, extra):
    torch.manual_seed(seed)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {t: i for i, t in enumerate(specials + mof.WORDS + ["##s", "##ed", "##ing", "##ly", ":"] + extra)}
    model = mof.Encoder(len(vocab), roberta=False).eval()
    tokenize = lambda t: wordpiece_cjk_ids(t, vocab)
    mof.export(model, out_dir, False, len(vocab), vocab["[PAD]"], vocab["[CLS]"], vocab["[SEP]"],
               mof.wordpiece_tokenizer_json(vocab), seed=seed, tokenize=tokenize, pooling=pooling)

    # Dialogues are longer than make-onnx-fixtures' 16 tokens: truncate at 38 (positions hold 40).
    with open(os.path.join(out_dir, "sentence_bert_config.json"), "w") as f:
        json.dump({"max_seq_length": DIALOGUE_MAX_LEN, "do_lower_case": False}, f, indent=1)

    def embed(texts):
        rows = []
        for t in texts:
            ids = tokenize(t)
            if len(ids) > DIALOGUE_MAX_LEN:
                ids = ids[:DIALOGUE_MAX_LEN - 1] + ids[-1:]
            i = torch.tensor([ids])
            with torch.no_grad():
                out = model(i, torch.ones_like(i), torch.zeros_like(i))[0]
            rows.append(out[0] if pooling == "cls" else out.mean(0))
        return [[round(float(x), 7) for x in v] for v in rows]

    path = os.path.join(out_dir, "reference.json")
    with open(path) as f:
        ref = json.load(f)
    texts = [dialogue_text(d) for d in DEDUP_DIALOGUES]
    ref["sentence_max_len"] = DIALOGUE_MAX_LEN
    ref["dialogues"] = [[{"speaker": s, "text": t} for s, t in d] for d in DEDUP_DIALOGUES]
    ref["dialogue_texts"] = texts
    ref["dialogue_embeddings"] = embed(texts)
    ref["align_pairs"] = [list(p) for p in ALIGN_PAIRS]
    ref["align_embeddings"] = [embed(list(p)) for p in ALIGN_PAIRS]
    with open(path, "w") as f:
        json.dump(ref, f)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "sv", "neural", "testdata", "onnx")
    roberta_layers(os.path.join(out, "roberta-layers"))
    sentence_model(os.path.join(out, "st-en"), 2468, "mean", [])
    sentence_model(os.path.join(out, "st-zh"), 1357, "cls", sorted(set(CJK)) + ["，", "？", "。"])


if __name__ == "__main__":
    main()
