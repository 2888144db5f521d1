package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/verifier"
)

func init() {
	register(&command{
		Name:    "verify",
		Summary: "same speaker? score two utterance files (one utterance per line) with a saved verifier bundle",
		Run:     runVerify,
	})
}

// verifyOutput is the --json object of `roleprint verify`.
type verifyOutput struct {
	Verifier    string `json:"verifier"`
	Name        string `json:"name"`
	A           string `json:"a"`
	B           string `json:"b"`
	UtterancesA int    `json:"utterances_a"`
	UtterancesB int    `json:"utterances_b"`
	// Result's keys follow in its order: score, cosine (absent for an
	// s-norm bundle), probability, threshold, score_threshold, same,
	// scoring (as_saved: verify scores with the bundle as saved),
	// calibration_source and calibration_scoring (what the calibration
	// that gave probability was fitted on), in_domain (null when the
	// bundle records no domain), domain_a, domain_b.
	verifier.Result
	Corpora []string `json:"corpora"`
	// NearestA and NearestB are the training speakers nearest to each set
	// (verifier.Verifier.Nearest; null when the bundle records none).
	NearestA []verifier.Neighbor `json:"nearest_a"`
	NearestB []verifier.Neighbor `json:"nearest_b"`
	// SpeakersSpace says what their similarity is ("" without them).
	SpeakersSpace string `json:"nearest_space"`
	// Demonstration is the bundle's demonstration label ("" for a
	// verifier of a corpus file).
	Demonstration string `json:"demonstration"`
}

// runVerify loads the bundle of --verifier and scores the two utterance
// sets A.txt and B.txt: the verifier's score, its calibrated same-speaker
// probability, the verdict on that probability, and the --nearest training
// speakers nearest to each set.
func runVerify(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "verify", "A.txt B.txt")
	dir := fs.String("verifier", "", "verifier bundle folder (OUT/verifier of roleprint reproduce or roleprint train; required)")
	backend := fs.String("backend", "", "compute backend for GoMLX parts (go, onnx, xla:cuda); default: automatic")
	nearest := fs.Int("nearest", 3, "how many nearest training speakers to name for each file (0: none)")
	asJSON := fs.Bool("json", false, "print one JSON object {verifier, name, a, b, utterances_a, utterances_b, score, cosine (when the score is one), probability, threshold (on the probability), score_threshold, same, scoring, calibration_source, calibration_scoring, in_domain, domain_a, domain_b, corpora, nearest_a, nearest_b, nearest_space, demonstration}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		return usagef("--verifier DIR is required")
	}
	if *nearest < 0 {
		return usagef("--nearest %d: want 0 or more", *nearest)
	}
	if fs.NArg() != 2 {
		return usagef("expected two utterance files A.txt B.txt (one utterance per line; - for stdin), got %d", fs.NArg())
	}
	a, err := embedReadLines(fs.Arg(0), e)
	if err != nil {
		return err
	}
	b, err := embedReadLines(fs.Arg(1), e)
	if err != nil {
		return err
	}
	for i, set := range [][]string{a, b} {
		if len(set) == 0 {
			return fmt.Errorf("%s: no utterances (expected one utterance per line)", fs.Arg(i))
		}
	}
	v, err := verifier.Load(ctx, *dir, verifier.LoadOptions{Backend: *backend, Logf: e.Logf})
	if err != nil {
		return err
	}
	defer v.Close()
	r, err := v.Verify(ctx, a, b)
	if err != nil {
		return err
	}
	out := verifyOutput{Verifier: *dir, Name: v.Spec.Name, A: fs.Arg(0), B: fs.Arg(1), UtterancesA: len(a), UtterancesB: len(b),
		Result: r, Corpora: []string{}, Demonstration: v.Spec.Demonstration}
	if v.Domain != nil {
		out.Corpora = v.Domain.CorpusNames()
	}
	if *nearest > 0 {
		if out.NearestA, out.NearestB, err = verifyNearest(ctx, e, v, a, b, *nearest); err != nil {
			return err
		}
		if out.NearestA != nil {
			out.SpeakersSpace = v.Speakers.Space
		}
	}
	warnVerifierScope(e, "verify", v, []string{fs.Arg(0), fs.Arg(1)}, []*verifier.DomainCheck{r.A, r.B})
	if mc := v.Spec.CalibrationFor(r.Scoring); !mc.Matches() {
		e.Logf("verify: note: %s", mc.Note)
	}
	if *asJSON {
		return e.JSON(out)
	}
	verdict, cmp := "different speakers", "<"
	if r.Same {
		verdict, cmp = "same speaker", "≥"
	}
	scope := ""
	if r.InDomain != nil && !*r.InDomain {
		scope = "; outside the verifier's training text: not to be trusted"
	}
	fmt.Fprintf(e.Stdout(), "%s: P(same) %.3f %s %.2f (score %.4f as saved, calibrated on %s; %s, %d vs %d utterances%s)\n",
		verdict, r.Probability, cmp, r.Threshold, r.Score, calibrationLabel(r.CalibrationSource, r.CalibrationScoring), v.Spec.Name, len(a), len(b), scope)
	for i, n := range [][]verifier.Neighbor{out.NearestA, out.NearestB} {
		if n != nil {
			fmt.Fprintf(e.Stdout(), "nearest training speakers of %s: %s\n", fs.Arg(i), neighborList(n))
		}
	}
	if out.NearestA != nil {
		fmt.Fprintf(e.Stdout(), "(similarity: %s)\n", v.Speakers.Space)
	}
	return nil
}

// calibrationLabel says what a calibration was fitted on, in words:
// "held-out corpora, as-saved scores".
func calibrationLabel(source, scoring string) string {
	src := map[string]string{verifier.CalibrationDev: "dev pairs", verifier.CalibrationHeldOut: "held-out corpora"}[source]
	if src == "" {
		src = source
	}
	return src + ", " + strings.ReplaceAll(scoring, "_", "-") + " scores"
}

// verifyNearest returns the k training speakers nearest to a and to b;
// for a bundle that records none it says so once on stderr and returns
// nil lists.
func verifyNearest(ctx context.Context, e *env, v *verifier.Verifier, a, b []string, k int) ([]verifier.Neighbor, []verifier.Neighbor, error) {
	if !v.HasSpeakers() {
		e.Logf("verify: note: %s names no nearest training speakers: %v", v.Dir, verifier.ErrNoSpeakers)
		return nil, nil, nil
	}
	n, err := v.NearestSets(ctx, k, a, b)
	if err != nil {
		return nil, nil, err
	}
	return n[0], n[1], nil
}

// neighborList is "Name (corpus) 0.412, …".
func neighborList(n []verifier.Neighbor) string {
	s := make([]string, len(n))
	for i, x := range n {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}

// warnVerifierScope says on stderr when a bundle is a demonstration, when
// it records no domain, and which of the named inputs (with their domain
// checks; nil when unknown) lie outside the text it was trained on.
func warnVerifierScope(e *env, cmd string, v *verifier.Verifier, names []string, checks []*verifier.DomainCheck) {
	if v.Spec.Demonstration != "" {
		e.Logf("%s: warning: %s is a demonstration bundle: %s", cmd, v.Dir, v.Spec.Demonstration)
	}
	if v.Domain == nil {
		e.Logf("%s: note: %s records no training domain, so nothing says whether the input is like its training text", cmd, v.Dir)
		return
	}
	for i, c := range checks {
		if c != nil && !c.InDomain {
			e.Logf("%s: warning: %s is outside the text the verifier was trained on (%s): %s; its score and P(same) were calibrated on other text",
				cmd, names[i], strings.Join(v.Domain.CorpusNames(), ", "), c)
		}
	}
}

// verifierEncoder loads the bundle in dir for `embed`: its encoder
// (closed with the returned function).
func verifierEncoder(ctx context.Context, e *env, dir, backend string, batch int) (sv.Encoder, func(), error) {
	v, err := loadVerifier(ctx, e, dir, backend, batch)
	if err != nil {
		return nil, nil, err
	}
	return v.Encoder(), func() { _ = v.Close() }, nil
}

// loadVerifier loads the bundle in dir and says on stderr what it is.
func loadVerifier(ctx context.Context, e *env, dir, backend string, batch int) (*verifier.Verifier, error) {
	v, err := verifier.Load(ctx, dir, verifier.LoadOptions{Backend: backend, BatchSize: batch, Logf: e.Logf})
	if err != nil {
		return nil, err
	}
	e.Logf("verifier %s: %s (dev AUC %.4f on %d dev pairs; same speaker at P(same) ≥ %.2f)", dir, v.Spec.Name, v.Spec.Dev.AUC, v.Spec.Dev.Pairs, verifier.DecisionProbability)
	return v, nil
}

// scoreEncoder is `roleprint score`'s encoder: the verifier bundle in dir
// when set (its role-play similarity, Verifier.Similarity), else the
// registered encoder name built with opts.
func scoreEncoder(ctx context.Context, e *env, dir, name string, opts sv.EncoderOptions) (sv.Encoder, func(), error) {
	if dir != "" {
		v, err := loadVerifier(ctx, e, dir, opts.Backend, opts.BatchSize)
		if err != nil {
			return nil, nil, err
		}
		enc := v.Similarity()
		if enc != v.Encoder() {
			e.Logf("verifier %s: its score is not a cosine (a part scores pairs itself, the s-norm), so role-play similarities are its calibrated P(same speaker), in [0, 1]", dir)
		}
		return enc, func() { _ = v.Close() }, nil
	}
	enc, err := sv.NewEncoder(name, opts)
	if err != nil {
		return nil, nil, err
	}
	done := func() {}
	if c, ok := enc.(sv.Closer); ok {
		done = func() { _ = c.Close() }
	}
	return enc, done, nil
}

// defaultVerifierDir is where `roleprint reproduce` (default --out) leaves
// its verifier bundle.
const defaultVerifierDir = "reproduce-out/verifier"

// scoreDefaultVerifier makes trained weights the default of `roleprint
// score`: with neither --encoder nor --verifier it returns
// reproduce-out/verifier when that bundle exists (and says so), else dir.
func scoreDefaultVerifier(e *env, name, dir string) string {
	if name != "" || dir != "" {
		return dir
	}
	if _, err := verifier.ReadSpec(defaultVerifierDir); err != nil {
		return dir
	}
	e.Logf("score: no --encoder given: using the verifier bundle %s (from `roleprint reproduce`)", defaultVerifierDir)
	return defaultVerifierDir
}
