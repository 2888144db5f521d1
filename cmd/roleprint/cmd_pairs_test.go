package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// writePairsCorpus writes a synthetic corpus in which four majors speak in
// every conversation and one or two of six minors join, in two corpora
// ("show" and "play", the latter of two sources). The minors of play/b
// have names of their own: a name in two sources of one corpus may be one
// person, and such speakers are never unseen or dev.
func writePairsCorpus(t *testing.T) string {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	majors := []string{"Rachel", "Joey", "Ann", "Bob"}
	minors := []string{"Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}
	var utts []data.Utterance
	for _, src := range []string{"show", "play/a", "play/b"} {
		for c := range 60 {
			names := append([]string(nil), majors...)
			for _, m := range r.Perm(len(minors))[:1+r.IntN(2)] {
				if src == "play/b" {
					names = append(names, minors[m]+" Junior")
				} else {
					names = append(names, minors[m])
				}
			}
			turn := int32(0)
			for line := range 6 {
				for _, n := range names {
					utts = append(utts, data.Utterance{Source: src, ConversationID: fmt.Sprint(c), Turn: turn, Speaker: n,
						Text: fmt.Sprintf("%s says line %d with some twelve words of text in it %d", n, line, r.IntN(9))})
					turn++
				}
			}
		}
	}
	path := filepath.Join(t.TempDir(), "corpus.parquet")
	if err := data.WriteUtterances(path, utts); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestPairsCommandJSON(t *testing.T) {
	corpus := writePairsCorpus(t)
	out := filepath.Join(t.TempDir(), "pairs")
	code, stdout, stderr := runCLI("pairs", "--out", out, "--seed", "3", "--json", corpus)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var res map[string]any
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON object:\n%s", stdout)
	}
	for _, k := range []string{"out", "inputs", "utterances", "seed", "variant", "dataset_by", "speakers_seen",
		"speakers_unseen", "speakers_dev", "sets", "held_conversations", "splits", "datasets", "input", "notes"} {
		if _, ok := res[k]; !ok {
			t.Errorf("JSON lacks key %q", k)
		}
	}
	if res["out"] != out || res["seed"] != 3.0 || res["variant"] != "paper" || res["speakers_unseen"].(float64) < 2 {
		t.Errorf("JSON values: out %v seed %v variant %v unseen %v", res["out"], res["seed"], res["variant"], res["speakers_unseen"])
	}
	splits := res["splits"].([]any)
	if len(splits) != 11 {
		t.Fatalf("%d splits, want 11", len(splits))
	}
	for _, s := range splits {
		m := s.(map[string]any)
		for _, k := range []string{"name", "exposure", "level", "pairs", "positives", "negatives", "speakers", "sets"} {
			if _, ok := m[k]; !ok && k != "exposure" && k != "level" {
				t.Errorf("split %v lacks %q", m["name"], k)
			}
		}
		if m["pairs"].(float64) == 0 || m["positives"] != m["negatives"] {
			t.Errorf("split %v: %v pairs, %v positives, %v negatives", m["name"], m["pairs"], m["positives"], m["negatives"])
		}
		if _, err := os.Stat(filepath.Join(out, m["name"].(string)+".parquet")); err != nil {
			t.Errorf("split file: %v", err)
		}
	}
	c, err := pairs.ReadPairDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if c.Seed != 3 || len(c.Train) != int(splits[0].(map[string]any)["pairs"].(float64)) {
		t.Errorf("pair dir disagrees with the JSON: seed %d, %d train pairs", c.Seed, len(c.Train))
	}

	// The same seed gives the same files; flags reach the config.
	out2 := filepath.Join(t.TempDir(), "pairs")
	if code, _, stderr := runCLI("pairs", "--out", out2, "--seed", "3", "--json", corpus); code != 0 {
		t.Fatal(stderr)
	}
	for _, f := range []string{"manifest.json", "train.parquet", "unseen-unseen-harder.parquet"} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(out2, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs with seed 3", f)
		}
	}
	out3 := filepath.Join(t.TempDir(), "pairs")
	code, _, stderr = runCLI("pairs", "--out", out3, "--max-test", "10", "--exclude-add", "Bob", "--variant", "code", "--dataset-by", "source",
		"--aliases", "show:Ann=Anne", "--alias-add", "show:Cy=Cyrus", corpus)
	if code != 0 {
		t.Fatal(stderr)
	}
	m, err := pairs.ReadPairManifest(out3)
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.MaxTestPairs != 10 || m.Variant != pairs.VariantCode || m.Config.DatasetBy != "source" ||
		m.Config.ExcludeSpeakers[len(m.Config.ExcludeSpeakers)-1] != "Bob" ||
		strings.Join(m.Config.Aliases, ";") != "show:Ann=Anne;show:Cy=Cyrus" {
		t.Errorf("flags not in the recorded config: %+v", m.Config)
	}
	if m.Input.AliasedUtterances <= 60*6 {
		t.Errorf("aliased %d utterances, want Ann's 360 lines in show and Cy's", m.Input.AliasedUtterances)
	}
}

func TestPairsCommandText(t *testing.T) {
	corpus := writePairsCorpus(t)
	out := filepath.Join(t.TempDir(), "pairs")
	code, stdout, stderr := runCLI("pairs", "--out", out, corpus)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| Train |", "| Unseen-Unseen | Harder |", "unseen:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
}

func TestPairsCommandErrors(t *testing.T) {
	corpus := writePairsCorpus(t)
	out := filepath.Join(t.TempDir(), "pairs")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"pairs", corpus}, 2, "--out"},
		{[]string{"pairs", "--out", out, corpus, "--json"}, 2, "after the input files"},
		{[]string{"pairs", "--out", out, "--variant", "mine", corpus}, 2, "variant"},
		{[]string{"pairs", "--out", out, "--train-levels", "base,hardest", corpus}, 2, "hardest"},
		{[]string{"pairs", "--out", out, "/nonexistent/x.parquet"}, 1, "/nonexistent/x.parquet"},
		{[]string{"pairs", "--out", out, "--unseen-per-dataset", "0", corpus}, 1, "unseen-unseen-base: no unseen speakers"},
	}
	for _, tc := range cases {
		code, _, stderr := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args[1:], code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err == nil {
		t.Errorf("a failed run left a manifest in %s", out)
	}
}

func TestPairsCommandDefaultCorpus(t *testing.T) {
	out := filepath.Join(t.TempDir(), "pairs")
	code, stdout, stderr := runCLI("pairs", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Inputs     []string `json:"inputs"`
		Utterances int      `json:"utterances"`
		Splits     []struct {
			Name      string `json:"name"`
			Pairs     int    `json:"pairs"`
			Positives int    `json:"positives"`
		} `json:"splits"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Inputs) != 1 || res.Inputs[0] != "embedded:shakespeare" || res.Utterances < 10000 {
		t.Errorf("inputs %v, %d utterances: want the embedded Shakespeare", res.Inputs, res.Utterances)
	}
	if len(res.Splits) != 11 {
		t.Fatalf("%d splits", len(res.Splits))
	}
	for _, s := range res.Splits {
		if s.Pairs == 0 || 2*s.Positives != s.Pairs {
			t.Errorf("%s: %d pairs, %d positive", s.Name, s.Pairs, s.Positives)
		}
	}
	if !strings.Contains(stderr, "embedded default corpus") {
		t.Errorf("stderr does not say the default corpus was used: %q", stderr)
	}
}
