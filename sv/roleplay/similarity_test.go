package roleplay

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// letterEncoder embeds a text as its counts of the letters a, b and c.
type letterEncoder struct{}

func (letterEncoder) Name() string { return "letters" }
func (letterEncoder) Dim() int     { return 3 }
func (letterEncoder) Encode(_ context.Context, texts []string, _ sv.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(strings.Count(t, "a")), float32(strings.Count(t, "b")), float32(strings.Count(t, "c"))}
	}
	return out, nil
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestRoleSimilarity(t *testing.T) {
	rows := map[string][]string{"Sheldon": repeat("a", 16), "Penny": append(repeat("ab", 8), repeat("b", 8)...)}
	cols := map[string][]string{"Sheldon": repeat("a", 24), "Penny": repeat("b", 8)}
	m, err := RoleSimilarity(t.Context(), letterEncoder{}, rows, cols, 4, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Rows, ",") != "Penny,Sheldon" || strings.Join(m.Cols, ",") != "Penny,Sheldon" {
		t.Fatalf("names %v %v", m.Rows, m.Cols)
	}
	// Penny's row sets: two of "ab" (unit vector (1,1)/√2) and two of "b".
	// Mean cosine to Penny's real sets ("b"): (2·(1/√2) + 2·1)/4.
	want := (2/math.Sqrt2 + 2) / 4
	if got := m.Values[0][0]; math.Abs(got-want) > 1e-6 {
		t.Errorf("Penny/Penny %v, want %v", got, want)
	}
	if got := m.Values[1][1]; math.Abs(got-1) > 1e-6 {
		t.Errorf("Sheldon/Sheldon %v, want 1", got)
	}
	if got := m.Values[1][0]; math.Abs(got) > 1e-6 {
		t.Errorf("Sheldon/Penny %v, want 0", got)
	}
	// maxSets caps and spreads the sets; too few lines is an error.
	if _, err := RoleSimilarity(t.Context(), letterEncoder{}, rows, cols, 4, 1, nil); err != nil {
		t.Error(err)
	}
	if _, err := RoleSimilarity(t.Context(), letterEncoder{}, map[string][]string{"X": {"a"}}, cols, 4, 0, nil); err == nil {
		t.Error("role with less than one set accepted")
	}
}
