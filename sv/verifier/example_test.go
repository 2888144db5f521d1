package verifier_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // tfidf
	"github.com/roleprint/roleprint/sv/verifier"
)

// tfidfBundle saves and loads the bundle both examples use: TF-IDF fitted
// on the embedded corpus's training texts, its threshold chosen on the dev
// pairs, with a profile per training speaker (`roleprint reproduce`
// writes one from its best fine-tuned row). It returns the verifier, the
// corpus, its training sets and a cleanup.
func tfidfBundle(ctx context.Context) (*verifier.Verifier, []data.Utterance, []verifier.SpeakerSet, func()) {
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
	parts := []verifier.SavePart{{Row: "tfidf", Encoder: enc, Seed: 1}}
	train := verifier.TrainSpeakerSets(c)
	speakers, err := verifier.SpeakerProfiles(ctx, parts, train, 0)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "verifier-example")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := verifier.Save(dir, verifier.SaveOptions{Name: "tfidf", FitTexts: fit, DevCosines: cos, DevLabels: labels,
		Parts: parts, Speakers: speakers}); err != nil {
		log.Fatal(err)
	}
	v, err := verifier.Load(ctx, dir, verifier.LoadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	return v, utts, train, func() { v.Close(); os.RemoveAll(dir) }
}

// Verify two sets of utterances: does set b sound like the speaker of set
// a? A saved bundle (tfidfBundle) is loaded and asked.
func ExampleVerifier_Verify() {
	ctx := context.Background()
	v, utts, _, done := tfidfBundle(ctx)
	defer done()
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

// Whom does a set of lines sound like among the speakers a verifier was
// trained on? A bundle keeps one profile per training speaker
// (SpeakerProfiles; `roleprint reproduce` and `roleprint train` store
// them), and Nearest ranks them. Here lines of Brutus that no training
// set holds find Brutus first.
func ExampleVerifier_Nearest() {
	ctx := context.Background()
	v, utts, train, done := tfidfBundle(ctx)
	defer done()

	seen := map[string]bool{} // every training line
	for _, s := range train {
		for _, t := range s.Texts {
			seen[t] = true
		}
	}
	var unseen []string // Brutus's lines no training set holds
	for _, u := range utts {
		if u.Speaker == "Brutus" && !seen[u.Text] && len(unseen) < 40 {
			unseen = append(unseen, u.Text)
		}
	}
	near, err := v.Nearest(ctx, unseen, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("profiles:", v.Speakers.Len(), "training speakers of", v.Speakers.Speakers[0].Corpus)
	fmt.Println("nearest to", len(unseen), "unseen lines of Brutus:", near[0].Speaker)
	fmt.Println("ranked:", near[0].Similarity > near[1].Similarity && near[1].Similarity >= near[2].Similarity)
	// Output:
	// profiles: 107 training speakers of shakespeare
	// nearest to 40 unseen lines of Brutus: Brutus
	// ranked: true
}
