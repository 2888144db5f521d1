package main

import (
	"context"
	"reflect"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv/table2"
)

// TestReproReuseFirstIsARebuild checks that handing the runner round 1's
// corpus, built to measure the workload, changes nothing: the pair
// builder gives a deep-equal corpus for the same seed (so every AUC stays
// bit for bit), round 1 gets that corpus once, and every other call builds
// its own.
func TestReproReuseFirstIsARebuild(t *testing.T) {
	utts, err := data.ReadUtterances(reproFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg := pairs.DefaultPairConfig()
	kv, _ := options.Parse("unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true")
	if err := options.Apply(&cfg, kv); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	source := table2.PairsFrom(utts, cfg)
	first, err := source(ctx, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, err := source(ctx, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Fatal("two builds of round 1 with one seed differ: reusing the first would change the run")
	}
	src := reproReuseFirst(source, first, 7)
	got, err := src(ctx, 1, 7)
	if err != nil || got != first {
		t.Fatalf("round 1: got %p (err %v), want the measured corpus %p", got, err, first)
	}
	if got, _ = src(ctx, 1, 7); got == first || !reflect.DeepEqual(got, first) {
		t.Errorf("a second round-1 call must build a fresh, equal corpus")
	}
	r2, err := src(ctx, 2, 8)
	want, _ := source(ctx, 2, 8)
	if err != nil || !reflect.DeepEqual(r2, want) {
		t.Errorf("round 2 is not built by the source (err %v)", err)
	}
}
