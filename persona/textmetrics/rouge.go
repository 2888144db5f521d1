package textmetrics

// PRF is a precision, recall and F-measure triple.
type PRF struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F         float64 `json:"f"`
}

// RougeOptions tune ROUGE-L. The zero value is rouge-score's default.
type RougeOptions struct {
	// Stem applies the Porter stemmer to tokens longer than three letters
	// (rouge-score's use_stemmer). Default false.
	Stem bool
	// Beta weighs recall over precision in F = (1+β²)PR/(R+β²P); 0 means
	// 1 (the F1 rouge-score reports; Lin (2004) suggests a large β).
	Beta float64
}

// LCS returns the length of the longest common subsequence of a and b in
// O(len(a)·len(b)) time and O(min) memory.
func LCS(a, b []string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func (o RougeOptions) tokens(s string) []string {
	w := Words(s)
	if o.Stem {
		for i, t := range w {
			if len(t) > 3 {
				w[i] = Stem(t)
			}
		}
	}
	return w
}

// RougeL scores candidate against one reference: precision LCS/|cand|,
// recall LCS/|ref| and their F-measure. Empty input scores 0.
func RougeL(candidate, reference string, opts RougeOptions) PRF {
	return rougeTokens(opts.tokens(candidate), opts.tokens(reference), opts.Beta)
}

func rougeTokens(c, r []string, beta float64) PRF {
	if len(c) == 0 || len(r) == 0 {
		return PRF{}
	}
	l := float64(LCS(c, r))
	p, rec := l/float64(len(c)), l/float64(len(r))
	return PRF{Precision: p, Recall: rec, F: fmeasure(p, rec, beta)}
}

func fmeasure(p, r, beta float64) float64 {
	if p == 0 || r == 0 {
		return 0
	}
	if beta == 0 {
		beta = 1
	}
	b2 := beta * beta
	return (1 + b2) * p * r / (r + b2*p)
}

// RougeLMulti scores candidate against several references and keeps the
// reference with the best F (rouge-score's multi-reference rule).
func RougeLMulti(candidate string, references []string, opts RougeOptions) PRF {
	c := opts.tokens(candidate)
	var best PRF
	for _, ref := range references {
		if s := rougeTokens(c, opts.tokens(ref), opts.Beta); s.F > best.F {
			best = s
		}
	}
	return best
}
