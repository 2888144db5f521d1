package distill

import (
	"math"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/persona/textmetrics"
)

// stopwords are English function words and interjections that carry no
// topic; contraction fragments ("s", "t", "ll") are included because
// textmetrics.Words splits at apostrophes.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again against all also am an and any are aren as at be
because been before being below between both but by can can't cannot could couldn did didn do does doesn
doing don down during each even ever every few for from further get gets getting go goes going gonna got
gotta had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn
it its itself just know let like ll m me might more most much must my myself no nor not now of off oh ok
okay on once one only or other our ours ourselves out over own re really right s said same say says see
shan she should shouldn so some such t than that the their theirs them themselves then there these they
thing things this those through to too uh um under until up us ve very wanna was wasn way we well were
weren what when where which while who whom why will with won would wouldn yeah yes yet you your yours
yourself yourselves d y hey hi gonna oh ah huh hmm mm uh-huh yep nope just maybe sure thanks thank let's
come came tell told want think thought make made take took look looks mean means go went gone need back`) {
		stopwords[w] = true
	}
}

// contentWords returns the lower-cased words of s that are not stop words
// and have at least three letters.
func contentWords(s string) []string {
	var out []string
	for _, w := range textmetrics.Words(s) {
		if len(w) >= 3 && !stopwords[w] && !isNumber(w) {
			out = append(out, w)
		}
	}
	return out
}

func isNumber(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// docFreq counts in how many documents each term appears.
func docFreq(docs [][]string) map[string]int {
	df := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, t := range d {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	return df
}

// scored is a term with a score.
type scored struct {
	term  string
	score float64
}

// top returns the k best terms by score, ties by term.
func top(s []scored, k int) []string {
	sort.Slice(s, func(i, j int) bool {
		if s[i].score != s[j].score {
			return s[i].score > s[j].score
		}
		return s[i].term < s[j].term
	})
	var out []string
	for _, x := range s {
		if len(out) == k {
			break
		}
		out = append(out, x.term)
	}
	return out
}

// tfidfTop returns the k terms of doc with the highest tf·idf, with
// sublinear tf = 1 + ln(count) (so that a common word repeated in a long
// chunk does not outrank the chunk's own subject) and smoothed idf =
// ln((1+N)/(1+df)) + 1 (as scikit-learn's sublinear_tf, smooth_idf).
func tfidfTop(doc []string, df map[string]int, n, k int) []string {
	tf := map[string]int{}
	for _, t := range doc {
		tf[t]++
	}
	var s []scored
	for t, c := range tf {
		idf := math.Log(float64(1+n)/float64(1+df[t])) + 1
		s = append(s, scored{t, (1 + math.Log(float64(c))) * idf})
	}
	return top(s, k)
}

// logOdds returns the k terms most over-represented in counts a against
// counts b by the z-score of the log-odds ratio with an informative
// Dirichlet prior (Monroe, Colaresi & Quinn 2008, "Fightin' Words"), the
// prior being the pooled counts scaled to total alpha0. Terms seen fewer
// than minCount times in a are skipped.
func logOdds(a, b map[string]int, k, minCount int, alpha0 float64) []string {
	var na, nb float64
	pooled := map[string]float64{}
	for t, c := range a {
		na += float64(c)
		pooled[t] += float64(c)
	}
	for t, c := range b {
		nb += float64(c)
		pooled[t] += float64(c)
	}
	total := na + nb
	if total == 0 {
		return nil
	}
	var s []scored
	for t, ya := range a {
		if ya < minCount {
			continue
		}
		alpha := alpha0 * pooled[t] / total
		yb := float64(b[t])
		fa := float64(ya)
		d := math.Log((fa+alpha)/(na+alpha0-fa-alpha)) - math.Log((yb+alpha)/(nb+alpha0-yb-alpha))
		v := 1/(fa+alpha) + 1/(yb+alpha)
		s = append(s, scored{t, d / math.Sqrt(v)})
	}
	return top(s, k)
}

// counts tallies terms.
func counts(terms []string) map[string]int {
	m := map[string]int{}
	for _, t := range terms {
		m[t]++
	}
	return m
}

// frequent returns the k commonest items with at least min occurrences.
func frequent(m map[string]int, k, min int) []string {
	var s []scored
	for t, c := range m {
		if c >= min {
			s = append(s, scored{t, float64(c)})
		}
	}
	return top(s, k)
}

var (
	firstPerson  = map[string]bool{"i": true, "me": true, "my": true, "mine": true, "myself": true, "we": true, "us": true, "our": true, "ours": true}
	secondPerson = map[string]bool{"you": true, "your": true, "yours": true, "yourself": true, "yourselves": true}
)

// MeasureStyle computes style statistics of lines.
func MeasureStyle(lines []string) StyleStats {
	var st StyleStats
	st.Lines = len(lines)
	if len(lines) == 0 {
		return st
	}
	var all []string
	var q, ex, el, letters int
	var p1, p2 int
	for _, l := range lines {
		if strings.Contains(l, "?") {
			q++
		}
		if strings.Contains(l, "!") {
			ex++
		}
		if strings.Contains(l, "...") || strings.Contains(l, "…") {
			el++
		}
		ws := textmetrics.Words(strings.ReplaceAll(strings.ReplaceAll(l, "’", "'"), "'", ""))
		for _, w := range ws {
			letters += len([]rune(w))
			if firstPerson[w] {
				p1++
			}
			if secondPerson[w] {
				p2++
			}
		}
		all = append(all, ws...)
	}
	n := float64(len(lines))
	st.Words = len(all)
	st.MeanWords = float64(len(all)) / n
	st.QuestionRate = float64(q) / n
	st.ExclamationRate = float64(ex) / n
	st.EllipsisRate = float64(el) / n
	st.MATTR = mattr(all, 100)
	if len(all) > 0 {
		st.MeanWordLength = float64(letters) / float64(len(all))
		st.FirstPerson = float64(p1) / float64(len(all))
		st.SecondPerson = float64(p2) / float64(len(all))
	}
	return st
}

// mattr is the moving-average type-token ratio over windows of w words
// (Covington & McFall 2010); the plain TTR for shorter texts.
func mattr(words []string, w int) float64 {
	if len(words) == 0 {
		return 0
	}
	if len(words) <= w {
		return float64(len(counts(words))) / float64(len(words))
	}
	win := map[string]int{}
	for _, t := range words[:w] {
		win[t]++
	}
	sum := float64(len(win))
	for i := w; i < len(words); i++ {
		old := words[i-w]
		if win[old]--; win[old] == 0 {
			delete(win, old)
		}
		win[words[i]]++
		sum += float64(len(win))
	}
	return sum / float64(len(words)-w+1) / float64(w)
}

// sample returns at most k items of xs, evenly spaced, in order.
func sample[T any](xs []T, k int) []T {
	if k <= 0 || len(xs) <= k {
		return xs
	}
	out := make([]T, 0, k)
	for i := 0; i < k; i++ {
		out = append(out, xs[i*len(xs)/k])
	}
	return out
}

// joinNames writes "A", "A and B", "A, B and C".
func joinNames(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
