package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/corpus"
)

// TestVerifierBundleEndToEnd trains a tiny model on the embedded corpus,
// then uses OUT/verifier with verify, embed and score.
func TestVerifierBundleEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := neuralRun("train", "--out", out, "--backend", "go", "--max-steps", "2", "--batch-pairs", "4",
		"--max-utterances", "2", "--eval", "none", "--set", tinyNeural, "--json")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	var tr struct {
		Verifier string `json:"verifier"`
	}
	if err := json.Unmarshal([]byte(stdout), &tr); err != nil || tr.Verifier != filepath.Join(out, "verifier") {
		t.Fatalf("train output verifier %q (%v)", tr.Verifier, err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("Bazinga! I am a physicist.\nThe theory is quite elegant.\n"), 0o644)
	os.WriteFile(b, []byte("Oh my God, could this BE any worse?\n"), 0o644)

	code, stdout, stderr = neuralRun("verify", "--verifier", tr.Verifier, "--backend", "go", "--json", a, b)
	if code != 0 {
		t.Fatalf("verify: exit %d: %s", code, stderr)
	}
	var v struct {
		Name        string   `json:"name"`
		Score       float64  `json:"score"`
		Cosine      *float64 `json:"cosine"`
		Probability float64  `json:"probability"`
		Threshold   float64  `json:"threshold"`
		Same        *bool    `json:"same"`
		InDomain    *bool    `json:"in_domain"`
		Corpora     []string `json:"corpora"`
		UtterancesA int      `json:"utterances_a"`
		UtterancesB int      `json:"utterances_b"`
		NearestA    []struct {
			Speaker, Corpus string
			Similarity      *float64
		} `json:"nearest_a"`
		NearestB []json.RawMessage `json:"nearest_b"`
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	// train's bundle keeps its training speakers: three named per file.
	if len(v.NearestA) != 3 || len(v.NearestB) != 3 || v.NearestA[0].Speaker == "" || v.NearestA[0].Corpus != "shakespeare" ||
		v.NearestA[0].Similarity == nil || *v.NearestA[0].Similarity < -1-1e-6 || *v.NearestA[0].Similarity > 1+1e-6 {
		t.Fatalf("verify nearest_a %+v, nearest_b %d entries", v.NearestA, len(v.NearestB))
	}
	if v.Name != "transformer_ft" || v.Same == nil || *v.Same != (v.Probability >= v.Threshold) || v.Threshold != 0.5 ||
		!(v.Probability > 0 && v.Probability < 1) || v.UtterancesA != 2 || v.UtterancesB != 1 ||
		v.Cosine == nil || *v.Cosine != v.Score || math.Abs(v.Score) > 1+1e-6 {
		t.Fatalf("verify output %+v", v)
	}
	// Trained on Shakespeare, it knows modern lines are outside its text.
	if v.InDomain == nil || *v.InDomain || len(v.Corpora) != 1 || v.Corpora[0] != "shakespeare" ||
		!strings.Contains(stderr, "a.txt is outside the text the verifier was trained on (shakespeare)") {
		t.Fatalf("verify of modern lines: in_domain %v, corpora %v; stderr %s", v.InDomain, v.Corpora, stderr)
	}
	checkThreeVerdicts(t, tr.Verifier, dir)

	checkEval(t, tr.Verifier)

	// The same set against itself: cosine 1, so at least as likely as a and b.
	code, stdout, _ = neuralRun("verify", "--verifier", tr.Verifier, "--backend", "go", "--json", a, a)
	var self struct {
		Score, Probability float64
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &self) != nil || math.Abs(self.Score-1) > 1e-5 || self.Probability < v.Probability {
		t.Fatalf("verify a a: exit %d, %s", code, stdout)
	}

	// embed --verifier gives the vectors of the trained checkpoint, bit for bit.
	code, viaBundle, stderr := neuralRun("embed", "--verifier", tr.Verifier, "--backend", "go", a)
	if code != 0 {
		t.Fatalf("embed --verifier: exit %d: %s", code, stderr)
	}
	code, viaCkpt, stderr := neuralRun("embed", "--encoder", "transformer", "--backend", "go", "--set", tinyNeural+";weights="+out, a)
	if code != 0 {
		t.Fatalf("embed --set weights: exit %d: %s", code, stderr)
	}
	if viaBundle != viaCkpt || len(strings.Fields(viaBundle)) != 2*16 {
		t.Fatalf("bundle vectors differ from the checkpoint's:\n%s\nvs\n%s", viaBundle, viaCkpt)
	}

	// score --verifier runs role-play scoring with it.
	realPath, genPath := writeScoreFixtures(t)
	code, stdout, stderr = scoreCLI("score", "--real", realPath, "--generated", genPath, "--verifier", tr.Verifier, "--backend", "go",
		"--bootstrap", "0", "--json")
	if code != 0 || !strings.Contains(stdout, "transformer_ft") {
		t.Fatalf("score --verifier: exit %d: %s\n%s", code, stderr, stdout)
	}
	var sd struct {
		InDomain *bool `json:"in_domain"`
		Domain   []struct {
			Side   string `json:"side"`
			Chunks int    `json:"chunks"`
		} `json:"domain"`
	}
	if err := json.Unmarshal([]byte(stdout), &sd); err != nil || sd.InDomain == nil || len(sd.Domain) != 2 ||
		sd.Domain[0].Side != "real" || sd.Domain[0].Chunks == 0 || sd.Domain[1].Chunks == 0 {
		t.Fatalf("score --verifier: in_domain %v, domain %+v (%v)", sd.InDomain, sd.Domain, err)
	}

	// Without --encoder, score uses reproduce-out/verifier when it exists.
	work := t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "reproduce-out", "verifier"), os.DirFS(tr.Verifier)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	code, stdout, stderr = scoreCLI("score", "--real", realPath, "--generated", genPath, "--backend", "go", "--bootstrap", "0", "--json")
	if code != 0 || !strings.Contains(stdout, "transformer_ft") || !strings.Contains(stderr, "reproduce-out/verifier") {
		t.Fatalf("score with the default bundle: exit %d: %s\n%s", code, stderr, stdout)
	}

	// A missing weights file is an error naming it.
	files, _ := filepath.Glob(filepath.Join(tr.Verifier, "*.rpck"))
	if len(files) != 1 {
		t.Fatalf("bundle weights files: %v", files)
	}
	os.Remove(files[0])
	code, _, stderr = neuralRun("verify", "--verifier", tr.Verifier, a, b)
	if code != 1 || !strings.Contains(stderr, filepath.Base(files[0])+" is missing") {
		t.Fatalf("missing weights: exit %d: %s", code, stderr)
	}
	if code, _, stderr = neuralRun("verify", a, b); code != 2 || !strings.Contains(stderr, "--verifier DIR is required") {
		t.Fatalf("no --verifier: exit %d: %s", code, stderr)
	}
}

// hamletLines returns n of Hamlet's lines of the embedded corpus.
func hamletLines(t *testing.T, n int) []string {
	t.Helper()
	utts, err := corpus.Default()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, u := range utts {
		if u.Speaker == "Hamlet" && len(out) < n && len(strings.Fields(u.Text)) >= 8 {
			out = append(out, u.Text)
		}
	}
	if len(out) < n {
		t.Fatalf("%d lines of Hamlet in the embedded corpus, want %d", len(out), n)
	}
	return out
}

// checkThreeVerdicts makes the bundle in verifierDir (trained on the
// embedded Shakespeare) verify a sitcom physicist against his neighbour,
// against counselling clients and against Hamlet: no verdict contradicts
// its probability, and none says "same speaker" without flagging the text
// as outside the domain. The files go into dir.
func checkThreeVerdicts(t *testing.T, verifierDir, dir string) {
	t.Helper()
	sheldon := filepath.Join(dir, "sheldon.txt")
	os.WriteFile(sheldon, []byte(`Okay, that is my spot on the couch and it is not negotiable.
I'm not crazy, my mother had me tested.
The physics of the problem are trivial, even for an engineer.
You're sitting in my seat, and this conversation is over.
I need to update my blog about the new comic book store.
Leonard, the internet is down and I have an online game scheduled.
Technically, a string theory paper is not a hobby.
Please don't touch my laptop, it's calibrated for optimal typing.
Our roommate agreement clearly covers the thermostat settings.
I'm a theoretical physicist; I don't do laundry on a Tuesday.
Could you drive me to the dentist, the bus has germs.
That's not sarcasm, that's my actual opinion of your haircut.
`), 0o644)
	penny := filepath.Join(dir, "penny.txt")
	os.WriteFile(penny, []byte(`Hey guys, I'm gonna grab a drink after my shift.
Oh my God, that's so sweet, sweetie.
Yeah, whatever, I'm going to bed.
I've got an audition tomorrow for a commercial.
Can I borrow your wifi password again?
My car's making that weird noise, it's totally fine.
Okay, so the restaurant's hiring and the tips are pretty good.
Don't look at me like that, I totally paid my rent.
We should order pizza and watch a movie tonight.
Seriously, who eats cereal for dinner?
I'm just saying, your date was kind of a jerk.
Ugh, my phone's dead and I have a callback.
`), 0o644)
	clients := filepath.Join(dir, "clients.txt")
	os.WriteFile(clients, []byte(`I guess I've been drinking more since I lost my job.
My doctor says my blood pressure is too high.
I wanna quit smoking but it's really stressful at work.
Honestly I don't think I have a problem with alcohol.
My wife keeps nagging me about the weekends.
I tried the nicotine patches but they gave me a rash.
It's hard to exercise when you're working two shifts.
I mean, everybody at the office goes out for drinks on Friday.
My kids are worried, and that's kind of why I'm here.
I've cut down to maybe five cigarettes a day.
The counselor at school said I should talk to somebody.
I feel like I'm okay most days, just anxious sometimes.
`), 0o644)
	hamlet := filepath.Join(dir, "hamlet.txt")
	os.WriteFile(hamlet, []byte(strings.Join(hamletLines(t, 12), "\n")+"\n"), 0o644)
	for _, other := range []string{penny, clients, hamlet} {
		code, stdout, stderr := neuralRun("verify", "--verifier", verifierDir, "--backend", "go", "--json", sheldon, other)
		var r struct {
			Probability, Threshold float64
			Same                   bool
			InDomain               *bool `json:"in_domain"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &r) != nil {
			t.Fatalf("verify sheldon %s: exit %d: %s\n%s", filepath.Base(other), code, stderr, stdout)
		}
		if r.Same != (r.Probability >= r.Threshold) || r.InDomain == nil || (r.Same && *r.InDomain) || *r.InDomain {
			t.Fatalf("verify sheldon %s: %s", filepath.Base(other), stdout)
		}
	}

}
