package sv

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// lenEncoder embeds a text as (its length, 1) and counts the texts it saw.
type lenEncoder struct {
	seen []string
	dim  int
	nan  bool
}

func (l *lenEncoder) Name() string { return "len" }
func (l *lenEncoder) Dim() int     { return 2 }
func (l *lenEncoder) Encode(ctx context.Context, texts []string, p Progress) ([][]float32, error) {
	l.seen = append(l.seen, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = make([]float32, 2+l.dim)
		out[i][0], out[i][1] = float32(len(t)), 1
		if l.nan {
			out[i][0] = float32(math.NaN())
		}
	}
	return out, nil
}

func TestEmbedSetsMeanPoolingOnceEach(t *testing.T) {
	enc := &lenEncoder{}
	sets := []*pairs.UtteranceSet{
		{ID: "a", Texts: []string{"ab", "abcd", "ab"}}, // repeated text counts twice
		{ID: "b", Texts: []string{"abcd", "abcdef"}},
		{ID: "a", Texts: []string{"ignored duplicate"}},
	}
	var last [2]int
	emb, err := EmbedSets(context.Background(), enc, sets, func(d, n int) { last = [2]int{d, n} })
	if err != nil {
		t.Fatal(err)
	}
	if len(enc.seen) != 3 {
		t.Errorf("encoded %q, want each distinct text once", enc.seen)
	}
	if got := emb["a"][0]; math.Abs(float64(got)-8.0/3) > 1e-6 {
		t.Errorf("set a: %v, want mean length 8/3", got)
	}
	if emb["b"][0] != 5 || emb["b"][1] != 1 || len(emb) != 2 {
		t.Errorf("set b: %v (%d sets)", emb["b"], len(emb))
	}
	if last != [2]int{3, 3} {
		t.Errorf("last progress %v, want 3/3", last)
	}
}

func TestEmbedSetsErrors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		enc  Encoder
		sets []*pairs.UtteranceSet
		want string
	}{
		{&lenEncoder{}, []*pairs.UtteranceSet{{ID: "e"}}, `set "e" has no utterances`},
		{&lenEncoder{dim: 1}, []*pairs.UtteranceSet{{ID: "a", Texts: []string{"x"}}}, "want Dim() = 2"},
		{&lenEncoder{nan: true}, []*pairs.UtteranceSet{{ID: "n", Texts: []string{"x"}}}, `set "n": non-finite`},
	}
	for _, c := range cases {
		if _, err := EmbedSets(ctx, c.enc, c.sets, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := EmbedSets(cctx, &lenEncoder{}, []*pairs.UtteranceSet{{ID: "a", Texts: []string{"x"}}}, nil); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestRegistryAndSettings(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	s, err := ParseSettings(" a=1; b = x ,c=")
	if err != nil || s["a"] != "1" || s["b"] != "x" || s["c"] != "" {
		t.Errorf("ParseSettings = %v, %v", s, err)
	}
	if _, err := ParseSettings("novalue"); err == nil {
		t.Error("item without = accepted")
	}
	o := EncoderOptions{Settings: s}
	if n, err := o.Int("a", 7); n != 1 || err != nil {
		t.Errorf("Int = %v, %v", n, err)
	}
	if _, err := o.Int("b", 7); err == nil || !strings.Contains(err.Error(), "b=") {
		t.Errorf("Int of x: err %v", err)
	}
	if f, _ := o.Float("missing", 2.5); f != 2.5 {
		t.Errorf("Float default = %v", f)
	}
	if b, err := o.With("flag", "true").Bool("flag", false); !b || err != nil || o.Settings["flag"] != "" {
		t.Errorf("With/Bool: %v %v (original changed: %q)", b, err, o.Settings["flag"])
	}
	if base, ft := SplitFineTuned("luar_ft"); base != "luar" || !ft {
		t.Errorf("SplitFineTuned = %q %v", base, ft)
	}
	nop := func(EncoderOptions) (Encoder, error) { return nil, nil }
	if IsRegistered("test-twice") {
		t.Error("test-twice registered before RegisterEncoder")
	}
	RegisterEncoder("test-twice", nop)
	if !IsRegistered("test-twice") {
		t.Error("IsRegistered(test-twice) = false after RegisterEncoder")
	}
	RegisterEncoder("test-twice", nop)
}
