// Package sentencepiece segments text into SentencePiece unigram pieces
// exactly as the JavaScript tokenizer of Universal Sentence Encoder Lite
// (@tensorflow-models/universal-sentence-encoder 1.3, tokenizer/index.ts)
// does, so Go and TF.js feed the model the same ids.
//
// That tokenizer is a port of SentencePiece's EncodeAsIds with some quirks
// this package reproduces on purpose:
//
//   - the input is NFKC-normalised, every ASCII space becomes "▁" (U+2581)
//     and one "▁" is prepended (other whitespace is kept as is);
//   - a character that starts no vocabulary piece becomes the unknown id 0
//     (score 0), and consecutive unknown ids merge into one;
//   - the Viterbi pass treats a best score of exactly 0 as "unset", and a
//     later candidate with an equal score wins ties;
//   - symbols are UTF-16 code units, not characters: the published
//     JavaScript is compiled to ES5, whose string loop walks code units,
//     so a character outside the Basic Multilingual Plane (an emoji, say)
//     is two symbols (two unknowns merged into one 0 with this vocabulary);
//   - the first six vocabulary entries (unknown, <s>, </s> and three
//     reserved ids) are never produced except the unknown id; a piece
//     listed twice maps to its last id.
//
// Why hand-written: the Go SentencePiece ports read a .model protobuf and
// implement the C++ library, whose results differ from this JavaScript
// tokenizer on the cases above; USE-Lite ships only vocab.json.
package sentencepiece

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Separator is the piece character that stands for a space.
const Separator = "\u2581"

// ReservedCount is how many leading vocabulary entries are control symbols
// that the segmentation never matches.
const ReservedCount = 6

// Piece is one vocabulary entry.
type Piece struct {
	// Text is the piece ("▁the", "ing", ...).
	Text string
	// Score is its log-probability (higher is likelier).
	Score float64
}

// Tokenizer segments text with a fixed vocabulary. It is safe for
// concurrent use.
type Tokenizer struct {
	pieces []Piece
	utf16  []int // JavaScript length of each piece (UTF-16 code units)
	root   *trieNode
}

// trieNode is a node of the piece trie over UTF-16 code units.
type trieNode struct {
	children map[uint16]*trieNode
	end      bool
	id       int
	score    float64
}

// New builds a tokenizer from the vocabulary in id order; entries before
// reserved are not matched (ReservedCount for USE-Lite).
func New(pieces []Piece, reserved int) (*Tokenizer, error) {
	if len(pieces) <= reserved {
		return nil, fmt.Errorf("sentencepiece: vocabulary of %d pieces has nothing after the %d reserved ones", len(pieces), reserved)
	}
	t := &Tokenizer{pieces: pieces, utf16: make([]int, len(pieces)), root: &trieNode{}}
	for i, p := range pieces {
		units := utf16.Encode([]rune(p.Text))
		t.utf16[i] = len(units)
		if i < reserved {
			continue
		}
		if len(units) == 0 {
			return nil, fmt.Errorf("sentencepiece: piece %d is empty", i)
		}
		node := t.root
		for _, u := range units {
			if node.children == nil {
				node.children = map[uint16]*trieNode{}
			}
			next := node.children[u]
			if next == nil {
				next = &trieNode{}
				node.children[u] = next
			}
			node = next
		}
		node.end, node.id, node.score = true, i, p.Score
	}
	return t, nil
}

// ParseVocab reads a vocab.json document: a JSON array of [piece, score]
// pairs in id order.
func ParseVocab(r io.Reader) ([]Piece, error) {
	var raw [][2]json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("sentencepiece: vocabulary is not a JSON array of [piece, score] pairs: %w", err)
	}
	pieces := make([]Piece, len(raw))
	for i, pair := range raw {
		if err := json.Unmarshal(pair[0], &pieces[i].Text); err != nil {
			return nil, fmt.Errorf("sentencepiece: entry %d: piece is not a string: %s", i, pair[0])
		}
		if err := json.Unmarshal(pair[1], &pieces[i].Score); err != nil {
			return nil, fmt.Errorf("sentencepiece: entry %d: score is not a number: %s", i, pair[1])
		}
	}
	return pieces, nil
}

// Load reads a vocab.json file and builds a tokenizer with the USE-Lite
// reserved count.
func Load(path string) (*Tokenizer, error) {
	f, err := fsx.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sentencepiece: %w", err)
	}
	defer f.Close()
	pieces, err := ParseVocab(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return New(pieces, ReservedCount)
}

// VocabSize is the number of ids.
func (t *Tokenizer) VocabSize() int { return len(t.pieces) }

// Piece returns the text of id (the unknown piece for out-of-range ids).
func (t *Tokenizer) Piece(id int) string {
	if id < 0 || id >= len(t.pieces) {
		return t.pieces[0].Text
	}
	return t.pieces[id].Text
}

// Normalize applies the tokenizer's input processing: NFKC, ASCII spaces
// to "▁", and a leading "▁" (none for empty text).
func Normalize(text string) string {
	s := norm.NFKC.String(text)
	if s == "" {
		return s
	}
	return Separator + strings.ReplaceAll(s, " ", Separator)
}

// Encode returns the piece ids of text.
func (t *Tokenizer) Encode(text string) []int {
	symbols := utf16.Encode([]rune(Normalize(text)))
	n := len(symbols)
	// ends[e] lists, by increasing start, the (start, node) candidates
	// ending at e; a nil node is the unknown single character.
	type cand struct {
		start int
		node  *trieNode
	}
	ends := make([][]cand, n+1)
	for i := 0; i < n; i++ {
		found := false
		node := t.root.children[symbols[i]]
		for j := i; node != nil; {
			if node.end {
				ends[j+1] = append(ends[j+1], cand{i, node})
				found = true
			}
			j++
			if j >= n {
				break
			}
			node = node.children[symbols[j]]
		}
		if !found {
			ends[i+1] = append(ends[i+1], cand{i, nil})
		}
	}
	best := make([]float64, n+1)
	words := make([]int, n+1)
	for e := 0; e <= n; e++ {
		// Candidates are visited by increasing start, as JavaScript visits
		// the integer keys of an object; the lattice and the backward pass
		// both count UTF-16 code units.
		for _, c := range ends[e] {
			score, id := 0.0, 0
			if c.node != nil {
				score, id = c.node.score, c.node.id
			}
			s := score + best[c.start]
			if best[e] == 0 || s >= best[e] {
				best[e], words[e] = s, id
			}
		}
	}
	var rev []int
	for it := n; it > 0; {
		id := words[it]
		rev = append(rev, id)
		it -= t.utf16[id]
	}
	out := make([]int, 0, len(rev))
	prevUnk := false
	for i := len(rev) - 1; i >= 0; i-- {
		// JavaScript merges while walking the reversed list, keeping the
		// first unknown of each run in that order; either way a run of
		// unknowns becomes one 0.
		id := rev[i]
		if !(prevUnk && id == 0) {
			out = append(out, id)
		}
		prevUnk = id == 0
	}
	return out
}
