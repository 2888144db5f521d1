package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
)

// writeEvalFixture writes a modern-English corpus a Shakespeare bundle
// was not trained on: 12 scenes of 3 of 5 speakers, 6 lines of 12 words
// each, every speaker with words of its own.
func writeEvalFixture(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	common := strings.Fields("okay yeah gonna guys so the a and i you it is that like really totally")
	var utts []data.Utterance
	for c := range 12 {
		for line := range 6 {
			for j := range 3 {
				k := (c + j) % 5
				w := make([]string, 12)
				for i := range w {
					if rng.IntN(3) == 0 {
						w[i] = fmt.Sprintf("word%c%d", 'a'+k, rng.IntN(8))
					} else {
						w[i] = common[rng.IntN(len(common))]
					}
				}
				utts = append(utts, data.Utterance{Source: "sitcom", ConversationID: fmt.Sprintf("s%02d", c), Turn: int32(3*line + j),
					Speaker: fmt.Sprintf("Person%c", 'A'+k), Text: strings.Join(w, " ")})
			}
		}
	}
	path := filepath.Join(t.TempDir(), "sitcom.parquet")
	// Recorded as imported in windows of 18 lines (each scene is one), so
	// eval notes what its Harder level means and records the rule.
	info := &data.ImportInfo{Format: "lines", Settings: map[string]string{"scene_lines": "18"}, SceneLines: 18,
		ConversationRule: "windows of 18 kept utterances"}
	if err := data.WriteUtterancesInfo(path, utts, info); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkEval runs `roleprint eval` with the bundle dir (trained on the
// embedded corpus): rows with the documented keys and a comparison with
// tfidf on a modern corpus flagged outside the domain; a refusal of the
// training corpus itself, naming the overlap; and of an --out that is
// the bundle folder.
func checkEval(t *testing.T, dir string) {
	t.Helper()
	fixture := writeEvalFixture(t)
	out := filepath.Join(t.TempDir(), "eval")
	code, stdout, stderr := neuralRun("eval", "--verifier", dir, "--backend", "go", "--seeds", "1,2", "--bootstrap", "100", "--out", out, "--json", fixture)
	if code != 0 {
		t.Fatalf("eval: exit %d: %s", code, stderr)
	}
	var rep struct {
		Rows        []map[string]any `json:"rows"`
		Comparisons []map[string]any `json:"comparisons"`
		Domain      []struct {
			Corpus   string `json:"corpus"`
			InDomain bool   `json:"in_domain"`
		} `json:"domain"`
		Files      []string `json:"files"`
		Seeds      []int64  `json:"seeds"`
		Vs         []string `json:"vs"`
		Replicates int      `json:"bootstrap_replicates"`
		Confidence float64  `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	// The resolved options are recorded: those given and the defaults.
	if rep.Replicates != 100 || rep.Confidence != 0.95 || len(rep.Seeds) != 2 || len(rep.Vs) != 1 || rep.Vs[0] != "tfidf" {
		t.Fatalf("eval JSON records %d replicates, confidence %g, seeds %v, vs %v: want 100, 0.95, [1 2], [tfidf]", rep.Replicates, rep.Confidence, rep.Seeds, rep.Vs)
	}
	if len(rep.Rows) != 4 || len(rep.Comparisons) != 2 || len(rep.Files) != 4 {
		t.Fatalf("eval: %d rows, %d comparisons, files %v: want transformer_ft and tfidf on sitcom hard and harder", len(rep.Rows), len(rep.Comparisons), rep.Files)
	}
	for _, k := range []string{"encoder", "corpus", "level", "auc_mean", "auc_std", "acc_mean", "f1_mean", "eer_mean", "ece", "pairs"} {
		if _, ok := rep.Rows[0][k]; !ok {
			t.Fatalf("eval row without %q: %v", k, rep.Rows[0])
		}
	}
	if len(rep.Domain) != 1 || rep.Domain[0].InDomain || !strings.Contains(stderr, "sets are outside the text the verifier was trained on") {
		t.Fatalf("eval domain %+v; stderr %s", rep.Domain, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "eval.md")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "conversations are windows of 18 utterances") {
		t.Errorf("eval of a windowed corpus: no note on stderr: %s", stderr)
	}
	var man struct {
		Inputs []struct {
			Import *data.ImportInfo `json:"import"`
		} `json:"inputs"`
		Seeds      []int64 `json:"seeds"`
		Replicates int     `json:"bootstrap_replicates"`
		Confidence float64 `json:"confidence"`
		Adapt      string  `json:"adapt"`
	}
	if b, err := os.ReadFile(filepath.Join(out, "manifest.json")); err != nil || json.Unmarshal(b, &man) != nil ||
		len(man.Inputs) != 1 || man.Inputs[0].Import == nil || man.Inputs[0].Import.SceneLines != 18 {
		t.Errorf("manifest inputs %+v (%v): want the import record with scene_lines 18", man.Inputs, err)
	}
	if man.Replicates != 100 || man.Confidence != 0.95 || len(man.Seeds) != 2 || man.Adapt != "auto" {
		t.Errorf("manifest records %d replicates, confidence %g, seeds %v, adapt %q: want 100, 0.95, [1 2], auto", man.Replicates, man.Confidence, man.Seeds, man.Adapt)
	}

	shakespeare := filepath.Join(t.TempDir(), "shakespeare.parquet")
	if err := os.WriteFile(shakespeare, corpus.DefaultParquet(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr = neuralRun("eval", "--verifier", dir, "--backend", "go", shakespeare); code != 1 || !strings.Contains(stderr, "the verifier was trained on this text") {
		t.Fatalf("eval on the training corpus: exit %d: %s", code, stderr)
	}
	if code, _, stderr = neuralRun("eval", "--verifier", dir, "--adapt", "sometimes", fixture); code != 2 || !strings.Contains(stderr, "auto, all, none") {
		t.Fatalf("eval --adapt sometimes: exit %d: %s", code, stderr)
	}
	if code, _, stderr = neuralRun("eval", "--verifier", dir, "--out", dir, fixture); code != 2 || !strings.Contains(stderr, "--out "+dir) ||
		!strings.Contains(stderr, "is the input folder") {
		t.Fatalf("eval --out the bundle: exit %d: %s", code, stderr)
	}
}
