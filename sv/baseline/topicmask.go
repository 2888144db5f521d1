package baseline

import (
	"context"
	"sort"
	"strings"
	"unicode"
)

// topicMask is Stamatatos's (2017) text distortion, the "multiple
// asterisks" variant: every word that is not among the k most frequent
// words of the training texts has each of its characters replaced by a
// shape (lower-case letter → '*', upper-case → '^', digit → '#'), so that
// character n-grams keep function words, punctuation, capitalisation,
// word lengths and spacing — style — but lose the topic words that make a
// same-conversation negative look like a positive. Words are maximal runs
// of letters, compared case-insensitively; everything else (punctuation,
// white space, symbols) is kept as it is.
type topicMask struct {
	keep map[string]bool
}

// fitTopicMask counts words (lower-cased) over texts and keeps the k most
// frequent, ties broken alphabetically so that the choice is deterministic.
func fitTopicMask(ctx context.Context, texts []string, k int) (*topicMask, error) {
	counts := map[string]int{}
	for i, t := range texts {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		forWords(t, func(w string) { counts[strings.ToLower(w)]++ })
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	if len(words) > k {
		words = words[:k]
	}
	m := &topicMask{keep: make(map[string]bool, len(words))}
	for _, w := range words {
		m.keep[w] = true
	}
	return m, nil
}

// forWords calls fn with every maximal run of letters in t.
func forWords(t string, fn func(w string)) {
	start := -1
	for i, r := range t {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			fn(t[start:i])
			start = -1
		}
	}
	if start >= 0 {
		fn(t[start:])
	}
}

// apply returns t distorted: kept words as they are, other words and all
// digits as shapes.
func (m *topicMask) apply(t string) string {
	var b strings.Builder
	b.Grow(len(t))
	start := -1
	flush := func(end int) {
		w := t[start:end]
		if m.keep[strings.ToLower(w)] {
			b.WriteString(w)
		} else {
			for _, r := range w {
				if unicode.IsUpper(r) {
					b.WriteByte('^')
				} else {
					b.WriteByte('*')
				}
			}
		}
		start = -1
	}
	for i, r := range t {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			flush(i)
		}
		if unicode.IsDigit(r) {
			b.WriteByte('#')
		} else {
			b.WriteRune(r)
		}
	}
	if start >= 0 {
		flush(len(t))
	}
	return b.String()
}

// Words returns the kept words, sorted.
func (m *topicMask) Words() []string {
	out := make([]string, 0, len(m.keep))
	for w := range m.keep {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}
