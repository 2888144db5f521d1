package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCosineAndNormalize(t *testing.T) {
	if c := Cosine([]float32{1, 0}, []float32{0, 2}); c != 0 {
		t.Errorf("orthogonal: %v", c)
	}
	if c := Cosine([]float32{1, 1}, []float32{-2, -2}); math.Abs(c+1) > 1e-12 {
		t.Errorf("opposite: %v", c)
	}
	if c := Cosine([]float32{0, 0}, []float32{1, 2}); c != 0 {
		t.Errorf("zero vector: %v, want 0", c)
	}
	v := Normalize([]float32{3, 4})
	if math.Abs(float64(v[0])-0.6) > 1e-6 || math.Abs(float64(v[1])-0.8) > 1e-6 {
		t.Errorf("Normalize = %v", v)
	}
}

func TestFloatJSON(t *testing.T) {
	b, _ := json.Marshal([]Float{0.5, Float(math.NaN()), Float(math.Inf(1))})
	if string(b) != "[0.5,null,null]" {
		t.Errorf("marshal = %s", b)
	}
	var back []Float
	if err := json.Unmarshal(b, &back); err != nil || back[0] != 0.5 || !math.IsNaN(float64(back[1])) {
		t.Errorf("unmarshal = %v, %v", back, err)
	}
}

func BenchmarkAUC(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	scores := make([]float64, 10000)
	labels := make([]bool, len(scores))
	for i := range scores {
		labels[i] = i%2 == 0
		scores[i] = rng.Float64()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		AUC(scores, labels)
	}
}
