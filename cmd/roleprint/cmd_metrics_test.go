package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/persona/textmetrics"
)

// Agreement rows name their file: two files with the same dimension
// names must stay apart in the JSON.
func TestMetricsAgreementRowsNameTheirFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "judge-a.csv"), filepath.Join(dir, "judge-b.csv")
	os.WriteFile(a, []byte("human,judge\n1,1\n2,2\n3,3\n"), 0o644)
	os.WriteFile(b, []byte("human,judge\n1,3\n2,2\n3,1\n"), 0o644)
	code, stdout, stderr := runPersonaCLI(t, "metrics", "--kind", "agreement", "--json", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Agreement []struct {
			File      string  `json:"file"`
			Dimension string  `json:"dimension"`
			Spearman  float64 `json:"spearman"`
		} `json:"agreement"`
	}
	decodeOne(t, stdout, &got)
	if len(got.Agreement) != 2 || got.Agreement[0].File != "judge-a" || got.Agreement[1].File != "judge-b" ||
		got.Agreement[0].Spearman != 1 || got.Agreement[1].Spearman != -1 {
		t.Fatalf("agreement rows %+v", got.Agreement)
	}
}

// METEOR's synonym stage follows NLTK ≥ 3.6 by default and says so; the
// flag switches to classic surface synonyms (NLTK 3.8 prints 0.6944 for
// its documentation example, NLTK 3.5 printed 0.7398).
func TestMetricsMeteorSynonymMode(t *testing.T) {
	if _, err := textmetrics.LoadWordNet(""); err != nil {
		t.Skipf("WordNet not installed (%v)", err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "nltk.jsonl")
	os.WriteFile(p, []byte(`{"candidate": "It is a guide to action which ensures that the military always obeys the commands of the party", "reference": "It is a guide to action that ensures that the military will forever heed Party commands"}`+"\n"), 0o644)
	type out struct {
		Systems []struct {
			Meteor float64 `json:"meteor"`
		} `json:"systems"`
		Synonyms string `json:"meteor_synonyms"`
	}
	for _, c := range []struct {
		flag, mode string
		want       float64
	}{{"", "stems", 0.6944}, {"--meteor-surface-synonyms", "surface", 0.7398}} {
		args := []string{"metrics", "--json"}
		if c.flag != "" {
			args = append(args, c.flag)
		}
		code, stdout, stderr := runPersonaCLI(t, append(args, p)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var got out
		decodeOne(t, stdout, &got)
		if got.Synonyms != c.mode || len(got.Systems) != 1 || math.Abs(got.Systems[0].Meteor-c.want) > 5e-5 {
			t.Fatalf("%s: %+v, want meteor %.4f (%s)", c.flag, got, c.want, c.mode)
		}
	}
}

// --group-by system compares the systems' mean scores (SpeechRole Table
// 3); without it the extra column is reported, not silently dropped.
func TestMetricsAgreementGroupBy(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ratings.csv")
	os.WriteFile(p, []byte("system,dimension,human,judge\nA,IA,4,3\nA,IA,2,3\nB,IA,5,4\nB,IA,5,5\nC,IA,1,2\nC,IA,2,1\n"), 0o644)
	type out struct {
		Agreement []struct {
			Groups     int        `json:"groups"`
			Spearman   float64    `json:"spearman"`
			SpearmanCI []*float64 `json:"spearman_ci"`
			Bootstrap  struct {
				Replicates int `json:"replicates"`
			} `json:"bootstrap"`
		} `json:"agreement"`
		GroupBy string   `json:"group_by"`
		Ignored []string `json:"ignored_columns"`
	}
	code, stdout, stderr := runPersonaCLI(t, "metrics", "--kind", "agreement", "--group-by", "system", "--bootstrap", "200", "--json", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var g out
	decodeOne(t, stdout, &g)
	if len(g.Agreement) != 1 || g.Agreement[0].Groups != 3 || g.Agreement[0].Spearman != 1 || g.GroupBy != "system" ||
		g.Agreement[0].Bootstrap.Replicates != 200 || len(g.Agreement[0].SpearmanCI) != 2 || g.Agreement[0].SpearmanCI[0] == nil {
		t.Fatalf("grouped %+v", g)
	}
	code, stdout, stderr = runPersonaCLI(t, "metrics", "--kind", "agreement", "--json", p)
	var i out
	decodeOne(t, stdout, &i)
	if code != 0 || i.Agreement[0].Groups != 0 || !(i.Agreement[0].Spearman < 1) || len(i.Ignored) != 1 || i.Ignored[0] != "system" {
		t.Fatalf("per item (exit %d, %s): %+v", code, stderr, i)
	}
	if code, _, stderr = runPersonaCLI(t, "metrics", "--kind", "agreement", "--group-by", "model", p); code == 0 {
		t.Errorf("missing --group-by column accepted: %s", stderr)
	}
}
