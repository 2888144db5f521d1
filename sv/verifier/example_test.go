package verifier_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // tfidf
	"github.com/roleprint/roleprint/sv/verifier"
)

// Verify two sets of utterances: does set b sound like the speaker of set
// a? A bundle (here TF-IDF fitted on the embedded corpus's training
// texts, its threshold chosen on the dev pairs; `roleprint reproduce`
// writes one from its best fine-tuned row) is saved, loaded, and asked.
func ExampleVerifier_Verify() {
	ctx := context.Background()
	utts, err := corpus.Default()
	if err != nil {
		log.Fatal(err)
	}
	c, err := pairs.BuildPairs(utts, pairs.DefaultPairConfig())
	if err != nil {
		log.Fatal(err)
	}
	enc, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fit := sv.TrainTexts(c, 0)
	if err := enc.(sv.Fitter).Fit(ctx, fit); err != nil {
		log.Fatal(err)
	}
	cos, labels, err := verifier.DevCosines(ctx, enc, c)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "verifier-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if _, err := verifier.Save(dir, verifier.SaveOptions{Name: "tfidf", FitTexts: fit, DevCosines: cos, DevLabels: labels,
		Parts: []verifier.SavePart{{Row: "tfidf", Encoder: enc, Seed: 1}}}); err != nil {
		log.Fatal(err)
	}
	v, err := verifier.Load(ctx, dir, verifier.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	byWho := map[string][]string{}
	for _, u := range utts {
		byWho[u.Speaker] = append(byWho[u.Speaker], u.Text)
	}
	hamlet := byWho["Hamlet"]
	same, err := v.Verify(ctx, hamlet[:40], hamlet[40:80])
	if err != nil {
		log.Fatal(err)
	}
	other, err := v.Verify(ctx, hamlet[:40], byWho["Falstaff"][:40])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("Hamlet vs Hamlet, same speaker:", same.Same)
	fmt.Println("Hamlet vs Falstaff, same speaker:", other.Same)
	fmt.Println("more similar to himself:", same.Score > other.Score)
	// Output:
	// Hamlet vs Hamlet, same speaker: true
	// Hamlet vs Falstaff, same speaker: false
	// more similar to himself: true
}
