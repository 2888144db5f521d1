package sv

import (
	"context"
	"testing"
)

// fitRecorder records which of Fit and FitSources was called.
type fitRecorder struct {
	closingEncoder
	called *string
}

func (f fitRecorder) Fit(context.Context, []string) error { *f.called = "Fit"; return nil }

// sourceRecorder is a fitRecorder that is also a SourceFitter.
type sourceRecorder struct{ fitRecorder }

func (f sourceRecorder) FitSources(_ context.Context, _, sources []string) error {
	*f.called = "FitSources:" + sources[0]
	return nil
}

// TestFitWithSources checks that a SourceFitter gets the sources when there
// are some and Fit otherwise, and that a plain Fitter always gets Fit.
func TestFitWithSources(t *testing.T) {
	ctx, texts := context.Background(), []string{"hello there"}
	var called string
	plain := fitRecorder{called: &called}
	src := sourceRecorder{plain}
	for _, c := range []struct {
		f       Fitter
		sources []string
		want    string
	}{
		{plain, []string{"friends"}, "Fit"},
		{plain, nil, "Fit"},
		{src, []string{"friends"}, "FitSources:friends"},
		{src, nil, "Fit"},
	} {
		called = ""
		if err := FitWithSources(ctx, c.f, texts, c.sources); err != nil {
			t.Fatal(err)
		}
		if called != c.want {
			t.Errorf("%T with sources %v: called %s, want %s", c.f, c.sources, called, c.want)
		}
	}
}
