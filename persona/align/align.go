package align

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/encoder"
)

// Word is one transcript word with its time span in seconds.
type Word struct {
	Text  string  `json:"word"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Line is one script line.
type Line struct {
	Speaker string `json:"speaker"`
	Text    string `json:"text"`
	// Scene groups lines; segments never cross scenes.
	Scene string `json:"scene,omitempty"`
}

// Options tune Align. Zero fields take the defaults.
type Options struct {
	// Encoder embeds line texts and transcript spans for validation;
	// default textmetrics.NewHashEncoder(1024).
	Encoder encoder.Encoder
	// Threshold is the cosine a line needs with its transcript span to be
	// valid. Default 0.8 (VoxRole).
	Threshold float64
	// Band is the half-width, in words, of the diagonal band the edit
	// distance is computed in (memory n·(2·Band+1) bytes); it is widened
	// to cover the length difference of the two sequences. Default 400.
	Band int
}

func (o Options) withDefaults() Options {
	if o.Encoder == nil {
		o.Encoder = textmetrics.NewHashEncoder(1024)
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Band <= 0 {
		o.Band = 400
	}
	return o
}

// AlignedLine is a script line with what the alignment found for it.
type AlignedLine struct {
	Index   int    `json:"index"`
	Speaker string `json:"speaker"`
	Text    string `json:"text"`
	Scene   string `json:"scene,omitempty"`
	// FirstWord and LastWord are the transcript word indices spanned
	// (-1 when no word of the line aligned).
	FirstWord int `json:"first_word"`
	LastWord  int `json:"last_word"`
	// Start and End are carried over from the transcript words (nil when
	// unaligned).
	Start *float64 `json:"start,omitempty"`
	End   *float64 `json:"end,omitempty"`
	// Words is the line's word count and Matched how many of them equal
	// their aligned transcript word.
	Words   int `json:"words"`
	Matched int `json:"matched"`
	// Transcript is the text of the transcript span.
	Transcript string `json:"transcript"`
	// Similarity is the encoder cosine of Text and Transcript; Valid
	// says whether it reaches the threshold.
	Similarity float64 `json:"similarity"`
	Valid      bool    `json:"valid"`
}

// Stats summarise an alignment.
type Stats struct {
	ScriptWords     int `json:"script_words"`
	TranscriptWords int `json:"transcript_words"`
	Matches         int `json:"matches"`
	Substitutions   int `json:"substitutions"`
	Deletions       int `json:"deletions"`  // script words with no transcript word
	Insertions      int `json:"insertions"` // transcript words with no script word
	Lines           int `json:"lines"`
	ValidLines      int `json:"valid_lines"`
	// WordErrorRate is (S + D + I) / script words.
	WordErrorRate float64 `json:"word_error_rate"`
}

// Alignment is the result of Align.
type Alignment struct {
	Lines []AlignedLine `json:"lines"`
	// WordMap maps each transcript word to the script line it aligned to
	// (-1 for insertions).
	WordMap []int  `json:"-"`
	Stats   Stats  `json:"stats"`
	Encoder string `json:"encoder"`
}

// Align aligns script lines to transcript words (see the package
// documentation).
func Align(ctx context.Context, lines []Line, words []Word, opts Options) (*Alignment, error) {
	opts = opts.withDefaults()
	// Script tokens with the line they belong to.
	var stoks []string
	var sline []int
	for i, l := range lines {
		for _, w := range textmetrics.Words(l.Text) {
			stoks = append(stoks, w)
			sline = append(sline, i)
		}
	}
	ttoks := make([]string, len(words))
	for i, w := range words {
		t := textmetrics.Words(w.Text)
		ttoks[i] = strings.Join(t, "")
		if i > 0 && w.Start < words[i-1].Start {
			return nil, fmt.Errorf("align: transcript word %d (%q) starts at %.3f s, before word %d at %.3f s: words must be in time order", i, w.Text, w.Start, i-1, words[i-1].Start)
		}
	}
	pairs, err := editAlign(ctx, stoks, ttoks, opts.Band)
	if err != nil {
		return nil, err
	}
	a := &Alignment{Encoder: opts.Encoder.Name(), WordMap: make([]int, len(words))}
	for i := range a.WordMap {
		a.WordMap[i] = -1
	}
	a.Lines = make([]AlignedLine, len(lines))
	for i, l := range lines {
		a.Lines[i] = AlignedLine{Index: i, Speaker: l.Speaker, Text: l.Text, Scene: l.Scene, FirstWord: -1, LastWord: -1}
	}
	st := &a.Stats
	st.ScriptWords, st.TranscriptWords, st.Lines = len(stoks), len(words), len(lines)
	for _, p := range pairs {
		switch {
		case p.s >= 0 && p.t >= 0:
			li := &a.Lines[sline[p.s]]
			if li.FirstWord < 0 {
				li.FirstWord = p.t
			}
			li.LastWord = p.t
			a.WordMap[p.t] = sline[p.s]
			if stoks[p.s] == ttoks[p.t] {
				st.Matches++
				li.Matched++
			} else {
				st.Substitutions++
			}
		case p.s >= 0:
			st.Deletions++
		default:
			st.Insertions++
		}
	}
	for i := range a.Lines {
		a.Lines[i].Words = len(textmetrics.Words(a.Lines[i].Text))
	}
	if st.ScriptWords > 0 {
		st.WordErrorRate = float64(st.Substitutions+st.Deletions+st.Insertions) / float64(st.ScriptWords)
	}
	// Spans, times and validation.
	var texts []string
	for i := range a.Lines {
		l := &a.Lines[i]
		if l.FirstWord < 0 {
			continue
		}
		var sb []string
		for w := l.FirstWord; w <= l.LastWord; w++ {
			sb = append(sb, words[w].Text)
		}
		l.Transcript = strings.Join(sb, " ")
		s, e := words[l.FirstWord].Start, words[l.LastWord].End
		l.Start, l.End = &s, &e
		texts = append(texts, l.Text, l.Transcript)
	}
	vecs, err := opts.Encoder.Encode(ctx, texts, nil)
	if err != nil {
		return nil, fmt.Errorf("align: encode with %s: %w", opts.Encoder.Name(), err)
	}
	k := 0
	for i := range a.Lines {
		l := &a.Lines[i]
		if l.FirstWord < 0 {
			continue
		}
		l.Similarity = stats.Cosine(vecs[k], vecs[k+1])
		k += 2
		l.Valid = l.Similarity >= opts.Threshold
		if l.Valid {
			st.ValidLines++
		}
	}
	return a, nil
}

// pair is one alignment column: script index s and transcript index t,
// either -1 for a deletion or insertion.
type pair struct{ s, t int }

// Backpointer codes.
const (
	opDiag uint8 = iota + 1 // match or substitution
	opDel                   // script word, no transcript word
	opIns                   // transcript word, no script word
)

// editAlign computes a minimum-edit-distance alignment (unit costs for
// substitution, insertion and deletion; ties prefer the diagonal) inside a
// band around the diagonal j ≈ i·m/n, and returns its columns in order.
// Written by hand because the alignment must carry indices through
// (Levenshtein libraries return distances only) and must stay in bounded
// memory for whole episodes.
func editAlign(ctx context.Context, s, t []string, band int) ([]pair, error) {
	n, m := len(s), len(t)
	if n == 0 || m == 0 {
		var out []pair
		for i := range s {
			out = append(out, pair{i, -1})
		}
		for j := range t {
			out = append(out, pair{-1, j})
		}
		return out, nil
	}
	b := band + absInt(n-m)
	w := 2*b + 1
	center := func(i int) int { return int(math.Round(float64(i) * float64(m) / float64(n))) }
	const inf = math.MaxInt32 / 2
	prev := make([]int32, w)
	cur := make([]int32, w)
	bp := make([]uint8, (n+1)*w)
	// Row i covers j in [center(i)-b, center(i)+b]; column k ↔ j = lo(i)+k.
	lo := func(i int) int { return center(i) - b }
	for k := range prev {
		j := lo(0) + k
		switch {
		case j < 0 || j > m:
			prev[k] = inf
		default:
			prev[k] = int32(j)
			if j > 0 {
				bp[k] = opIns
			}
		}
	}
	for i := 1; i <= n; i++ {
		if i%512 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		l0, lp := lo(i), lo(i-1)
		for k := 0; k < w; k++ {
			j := l0 + k
			if j < 0 || j > m {
				cur[k] = inf
				continue
			}
			best, op := int32(inf), uint8(0)
			// diagonal: (i-1, j-1)
			if kp := j - 1 - lp; j >= 1 && kp >= 0 && kp < w && prev[kp] < inf {
				c := prev[kp]
				if s[i-1] != t[j-1] {
					c++
				}
				best, op = c, opDiag
			}
			// deletion: (i-1, j)
			if kp := j - lp; kp >= 0 && kp < w && prev[kp] < inf && prev[kp]+1 < best {
				best, op = prev[kp]+1, opDel
			}
			// insertion: (i, j-1)
			if k >= 1 && cur[k-1] < inf && cur[k-1]+1 < best {
				best, op = cur[k-1]+1, opIns
			}
			cur[k] = best
			bp[i*w+k] = op
		}
		prev, cur = cur, prev
	}
	// Backtrace from (n, m).
	var rev []pair
	i, j := n, m
	for i > 0 || j > 0 {
		k := j - lo(i)
		if k < 0 || k >= w {
			return nil, fmt.Errorf("align: path left the band (half-width %d words); raise Options.Band", b)
		}
		switch bp[i*w+k] {
		case opDiag:
			rev = append(rev, pair{i - 1, j - 1})
			i, j = i-1, j-1
		case opDel:
			rev = append(rev, pair{i - 1, -1})
			i--
		case opIns:
			rev = append(rev, pair{-1, j - 1})
			j--
		default:
			if i == 0 {
				rev = append(rev, pair{-1, j - 1})
				j--
				continue
			}
			return nil, fmt.Errorf("align: no path through the band (half-width %d words); raise Options.Band", b)
		}
	}
	for a, z := 0, len(rev)-1; a < z; a, z = a+1, z-1 {
		rev[a], rev[z] = rev[z], rev[a]
	}
	return rev, nil
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
