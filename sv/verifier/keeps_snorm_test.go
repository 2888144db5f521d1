package verifier

import (
	"context"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// fakePart is an encoder that may adapt and may say whether it s-norms.
type fakePart struct{ sv.Encoder }

type fakeAdapter struct{ fakePart }

func (fakeAdapter) Adapt(context.Context, []string) error { return nil }

type fakeSNorm struct {
	fakeAdapter
	on bool
}

func (f fakeSNorm) ScoresBySNorm() bool { return f.on }

// TestKeepsSNorm keeps the calibration only when every adapted part still
// scores by its s-norm, and some part was adapted.
func TestKeepsSNorm(t *testing.T) {
	for _, c := range []struct {
		name  string
		parts []sv.Encoder
		want  bool
	}{
		{"s-norm part kept, plain part beside", []sv.Encoder{fakeSNorm{on: true}, fakePart{}}, true},
		{"s-norm part fell back to the cosine", []sv.Encoder{fakeSNorm{on: false}, fakePart{}}, false},
		{"an adapted part without s-norm", []sv.Encoder{fakeSNorm{on: true}, fakeAdapter{}}, false},
		{"nothing adapted", []sv.Encoder{fakePart{}}, false},
	} {
		if got := (&mixture{parts: c.parts}).keepsSNorm(); got != c.want {
			t.Errorf("%s: keepsSNorm %v, want %v", c.name, got, c.want)
		}
	}
}
