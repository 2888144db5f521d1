package stats

import "math"

// Cosine returns the cosine similarity of a and b (float32 embeddings or
// float64 feature vectors), accumulated in float64 and clamped to [−1, 1].
// It is 0 when either vector is all zeros (no direction to compare), and it
// panics when the lengths differ (a programming error, as in gonum's
// floats package).
func Cosine[T float32 | float64](a, b []T) float64 {
	if len(a) != len(b) {
		panic("stats: Cosine of vectors of different lengths")
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	c := dot / (math.Sqrt(na) * math.Sqrt(nb))
	// Rounding can push |c| a hair above 1.
	return math.Max(-1, math.Min(1, c))
}

// Normalize scales v in place to unit L2 norm and returns it; an all-zero
// vector is returned unchanged.
func Normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	s := 1 / math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) * s)
	}
	return v
}
