package neural

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sugarme/tokenizer"
	tkmodel "github.com/sugarme/tokenizer/model"
	"github.com/sugarme/tokenizer/model/wordpiece"
	"github.com/sugarme/tokenizer/pretokenizer"
	"github.com/sugarme/tokenizer/pretrained"

	"github.com/roleprint/roleprint/internal/fsx"
)

// bertVocab is Google's bert-base-uncased WordPiece vocabulary (Apache-2.0,
// see vocab/README.md), the default vocabulary of the from-scratch encoder.
//
//go:embed vocab/bert-base-uncased-vocab.txt
var bertVocab []byte

// DefaultVocabName names the embedded vocabulary in manifests.
const DefaultVocabName = "bert-base-uncased"

// WordPiece is a BERT WordPiece tokenizer (github.com/sugarme/tokenizer):
// BERT normalisation (lower-casing and accent stripping when uncased), BERT
// pre-tokenisation, greedy longest-match WordPiece, and [CLS] … [SEP]
// around every utterance.
type WordPiece struct {
	name               string
	mu                 sync.Mutex // sugarme's Tokenizer is not documented as concurrency-safe
	tk                 *tokenizer.Tokenizer
	norm               textNormalizer // applied by prepare, not by tk (see normalize.go)
	size               int
	cls, sep, pad, unk int32
	vocab              []string
}

var (
	defaultTokOnce sync.Once
	defaultTok     *WordPiece
	defaultTokErr  error
)

// DefaultTokenizer returns the shared bert-base-uncased WordPiece tokenizer
// embedded in the binary (vocab/bert-base-uncased-vocab.txt).
func DefaultTokenizer() (*WordPiece, error) {
	defaultTokOnce.Do(func() {
		defaultTok, defaultTokErr = NewWordPiece(bytes.NewReader(bertVocab), "wordpiece:"+DefaultVocabName, true)
	})
	return defaultTok, defaultTokErr
}

// NewWordPiece reads a vocab.txt (one token per line; the id is the line
// number from 0) and builds a WordPiece tokenizer called name. The
// vocabulary must hold [CLS], [SEP], [PAD] and [UNK]; lowercase selects the
// uncased BERT normaliser.
func NewWordPiece(r io.Reader, name string, lowercase bool) (*WordPiece, error) {
	vocab := map[string]int{}
	var list []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	line := 0
	for sc.Scan() {
		tok := strings.TrimRight(sc.Text(), "\r")
		if _, dup := vocab[tok]; !dup {
			vocab[tok] = line
		}
		list = append(list, tok)
		line++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("wordpiece vocabulary %s: %w", name, err)
	}
	w := &WordPiece{name: name, size: line, vocab: list}
	for tok, dst := range map[string]*int32{"[CLS]": &w.cls, "[SEP]": &w.sep, "[PAD]": &w.pad, "[UNK]": &w.unk} {
		id, ok := vocab[tok]
		if !ok {
			return nil, fmt.Errorf("wordpiece vocabulary %s: no %s token (line with exactly %q expected)", name, tok, tok)
		}
		*dst = int32(id)
	}
	mv := make(tkmodel.Vocab, len(vocab))
	for k, v := range vocab {
		mv[k] = v
	}
	wp := wordpiece.NewWordPieceBuilder().Vocab(&mv).UnkToken("[UNK]").Build()
	tk := tokenizer.NewTokenizer(wp)
	// BERT normalisation (NFD before the accent stripping, as Hugging
	// Face's BertNormalizer does), run by prepare.
	w.norm = bertNormalizer(true, true, lowercase, lowercase)
	tk.WithPreTokenizer(pretokenizer.NewBertPreTokenizer())
	w.tk = tk
	return w, nil
}

// Name implements Tokenizer.
func (w *WordPiece) Name() string { return w.name }

// VocabSize implements Tokenizer.
func (w *WordPiece) VocabSize() int { return w.size }

// PadID implements Tokenizer: the id of [PAD].
func (w *WordPiece) PadID() int32 { return w.pad }

// prepare returns the text the sugarme tokenizer is given: valid UTF-8
// (invalid bytes become U+FFFD; text read through the reading layer is
// valid already), normalised by norm (nil: none). See normalize.go for
// why the normalisation runs here and not inside the tokenizer.
func prepare(norm textNormalizer, text string) string {
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	if norm == nil {
		return text
	}
	return norm(text)
}

// Encode implements Tokenizer: [CLS] pieces… [SEP], the pieces cut so that
// the whole fits in maxLen ids. Any string is accepted: bytes that are not
// UTF-8 read as U+FFFD ([UNK] with the BERT vocabularies).
func (w *WordPiece) Encode(text string, maxLen int) []int32 {
	maxLen = max(maxLen, 2)
	text = prepare(w.norm, text)
	w.mu.Lock()
	enc, err := w.tk.EncodeSingle(text, false)
	w.mu.Unlock()
	out := make([]int32, 0, maxLen)
	out = append(out, w.cls)
	if err == nil {
		for _, id := range enc.Ids {
			if len(out) == maxLen-1 {
				break
			}
			out = append(out, int32(id))
		}
	} else if len(out) < maxLen-1 {
		// sugarme only fails on malformed input; keep the utterance as [UNK].
		out = append(out, w.unk)
	}
	return append(out, w.sep)
}

// Vocab returns the vocabulary, indexed by id (do not modify it).
func (w *WordPiece) Vocab() []string { return w.vocab }

// Tokens returns the WordPiece strings of text without special tokens
// (for tests and debugging).
func (w *WordPiece) Tokens(text string) ([]string, error) {
	text = prepare(w.norm, text)
	w.mu.Lock()
	defer w.mu.Unlock()
	enc, err := w.tk.EncodeSingle(text, false)
	if err != nil {
		return nil, err
	}
	return enc.Tokens, nil
}

// HFTokenizer is a Hugging Face tokenizer.json (WordPiece or byte-level
// BPE, as exported beside an ONNX model) read with
// github.com/sugarme/tokenizer. Its post-processor adds the model's special
// tokens; Encode truncates keeping the final special token.
type HFTokenizer struct {
	name  string
	mu    sync.Mutex
	tk    *tokenizer.Tokenizer
	norm  textNormalizer // applied by prepare, not by tk (see normalize.go)
	size  int
	pad   int32
	trail int // number of special tokens the post-processor appends at the end
}

// LoadTokenizer reads a tokenizer file: a Hugging Face tokenizer.json, or
// a BERT vocab.txt (uncased unless the file name contains "cased" without
// "uncased").
func LoadTokenizer(path string) (Tokenizer, error) {
	base := strings.ToLower(filepath.Base(path))
	if strings.HasSuffix(base, ".txt") {
		f, err := fsx.Open(path)
		if err != nil {
			return nil, fmt.Errorf("tokenizer: %w", err)
		}
		defer f.Close()
		lower := !(strings.Contains(base, "cased") && !strings.Contains(base, "uncased"))
		return NewWordPiece(f, "wordpiece:"+path, lower)
	}
	// The normaliser is read first, through fsx: a device or FIFO is
	// refused before sugarme opens the path.
	norm, err := fileNormalizer(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w", path, err)
	}
	tk, err := pretrained.FromFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %w (expected a Hugging Face tokenizer.json or a vocab.txt)", path, err)
	}
	// The file's normaliser runs in prepare, before the tokenizer.
	h := &HFTokenizer{name: "hf:" + path, tk: tk, norm: norm, size: tk.GetVocabSize(true)}
	tk.WithNormalizer(nil)
	h.pad = -1
	for _, p := range []string{"[PAD]", "<pad>", "<|padding|>"} {
		if id, ok := tk.TokenToId(p); ok {
			h.pad = int32(id)
			break
		}
	}
	if h.pad < 0 {
		h.pad = 0
	}
	// Count the special tokens appended after the text by encoding a
	// one-word probe with and without them.
	with, err1 := tk.EncodeSingle("a", true)
	without, err2 := tk.EncodeSingle("a", false)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("tokenizer %s: cannot encode a probe text: %v %v", path, err1, err2)
	}
	h.trail = trailingSpecials(with.Ids, without.Ids)
	return h, nil
}

// trailingSpecials returns how many ids follow the last occurrence of the
// plain encoding inside the encoding with special tokens.
func trailingSpecials(with, without []int) int {
	if len(without) == 0 || len(with) < len(without) {
		return 0
	}
	for start := len(with) - len(without); start >= 0; start-- {
		match := true
		for i, id := range without {
			if with[start+i] != id {
				match = false
				break
			}
		}
		if match {
			return len(with) - start - len(without)
		}
	}
	return 0
}

// Name implements Tokenizer.
func (h *HFTokenizer) Name() string { return h.name }

// VocabSize implements Tokenizer (added tokens included).
func (h *HFTokenizer) VocabSize() int { return h.size }

// PadID implements Tokenizer.
func (h *HFTokenizer) PadID() int32 { return h.pad }

// Encode implements Tokenizer. Any string is accepted: bytes that are not
// UTF-8 read as U+FFFD (see prepare).
func (h *HFTokenizer) Encode(text string, maxLen int) []int32 {
	maxLen = max(maxLen, 2)
	text = prepare(h.norm, text)
	h.mu.Lock()
	enc, err := h.tk.EncodeSingle(text, true)
	h.mu.Unlock()
	if err != nil || len(enc.Ids) == 0 {
		return []int32{h.pad}
	}
	ids := enc.Ids
	if len(ids) > maxLen {
		keep := min(h.trail, maxLen-1)
		cut := append(append([]int{}, ids[:maxLen-keep]...), ids[len(ids)-keep:]...)
		ids = cut
	}
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}
