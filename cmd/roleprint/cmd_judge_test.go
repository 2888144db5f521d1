package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/persona/judge"
	"github.com/roleprint/roleprint/speech"
)

// The judge reads the speech package's profile tag lines: every
// combination of levels, Unknown included, parses back to the same tags.
func TestJudgeParsesSpeechProfileTags(t *testing.T) {
	levels := []speech.Level{speech.Unknown, speech.Low, speech.Medium, speech.High}
	name := func(l speech.Level) string {
		if l == speech.Unknown {
			return ""
		}
		return l.String()
	}
	for _, p := range levels {
		for _, en := range levels {
			for _, r := range levels {
				prof := speech.Profile{Character: "X", F0MeanHz: 181.5, IntensityMeanDB: 66.25, SpeakingRateSylS: 3.5, Pitch: p, Energy: en, Rate: r}
				if p == speech.Unknown {
					prof.F0MeanHz = math.NaN()
				}
				got, err := judge.ParseTags(prof.Tags())
				want := judge.AcousticTags{Pitch: name(p), Energy: name(en), Rate: name(r)}
				if err != nil || got != want {
					t.Fatalf("%q → %+v, %v; want %+v", prof.Tags(), got, err, want)
				}
			}
		}
	}
}

// `judge --protocol voxrole --audio-corpus` computes the characters'
// acoustic profiles from their recordings and fills the instances whose
// profile is empty; a profile given in the instance stays.
func TestJudgeVoxRoleProfilesFromAudio(t *testing.T) {
	dir := t.TempDir()
	abs, err := filepath.Abs(filepath.Join(speechFixtures, "espeak"))
	if err != nil {
		t.Fatal(err)
	}
	clips := map[string][]string{
		"Fiona": {"voice-en-f2-p70-a.wav", "voice-en-f2-p70-b.wav"},
		"Mark":  {"voice-enus-m1-p30-a.wav", "voice-enus-m1-p30-b.wav"},
		"Kate":  {"voice-gb-klatt-p90-a.wav", "voice-gb-klatt-p90-b.wav"},
		"Ron":   {"rate-en-m3-p50-s140.wav", "rate-en-m3-p50-s180.wav"},
	}
	var utts []data.Utterance
	for c, files := range clips {
		for i, f := range files {
			utts = append(utts, data.Utterance{Source: "fx", ConversationID: "c", Turn: int32(len(utts)), Speaker: c,
				Text: "line " + string(rune('a'+i)), AudioPath: filepath.Join(abs, f)})
		}
	}
	corpus := filepath.Join(dir, "audio.parquet")
	if err := data.WriteUtterances(corpus, utts); err != nil {
		t.Fatal(err)
	}
	vr := filepath.Join(dir, "vox.jsonl")
	os.WriteFile(vr, []byte(`{"id": "f", "role": "Fiona", "response": "Hello!", "response_tags": {"pitch": "High"}}
{"id": "r", "role": "Ron", "response": "Hi.", "response_tags": "pitch=high", "profile": {"pitch": "High"}}
{"id": "z", "role": "Zed", "response": "Yo.", "response_tags": {"pitch": "Low"}}
`), 0o644)
	code, stdout, stderr := runPersonaCLI(t, "judge", "--protocol", "voxrole", "--audio-corpus", corpus, "--per-instance", "--json", vr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Profiles map[string]string `json:"acoustic_profiles"`
		Filled   int               `json:"profiles_filled"`
		Systems  []struct {
			Instances []struct {
				ID     string             `json:"id"`
				Scores map[string]float64 `json:"scores"`
			} `json:"instances"`
		} `json:"systems"`
	}
	decodeOne(t, stdout, &got)
	if len(got.Profiles) != 4 || !strings.HasPrefix(got.Profiles["Fiona"], "Pitch: High") || !strings.HasPrefix(got.Profiles["Ron"], "Pitch: Low") {
		t.Fatalf("profiles %v", got.Profiles)
	}
	if got.Filled != 1 || len(got.Systems) != 1 || len(got.Systems[0].Instances) != 3 {
		t.Fatalf("filled %d, systems %+v", got.Filled, got.Systems)
	}
	acoustic := map[string]float64{}
	for _, in := range got.Systems[0].Instances {
		if v, ok := in.Scores["acoustic"]; ok {
			acoustic[in.ID] = v
		}
	}
	// Fiona's filled profile (High) matches her response's tag; Ron keeps
	// the given High (his recordings say Low); Zed has no audio and no
	// profile, so no acoustic score.
	if acoustic["f"] != 5 || acoustic["r"] != 5 || len(acoustic) != 2 {
		t.Fatalf("acoustic scores %v", acoustic)
	}
	if !strings.Contains(stderr, "no audio for Zed") {
		t.Fatalf("missing-audio note absent: %s", stderr)
	}
	if code, _, stderr := runPersonaCLI(t, "judge", "--protocol", "speechrole", "--audio-corpus", corpus, vr); code != 2 {
		t.Fatalf("speechrole with --audio-corpus: exit %d: %s", code, stderr)
	}
}

// The offline ablation leaves out target lines of roles that speak in one
// conversation only (the retrieval agent has nothing to answer them with)
// instead of failing, and says so.
func TestJudgeAblationSkipsUnanswerableRoles(t *testing.T) {
	dir := t.TempDir()
	scr := filepath.Join(dir, "s.txt")
	var b strings.Builder
	for sc := 0; sc < 2; sc++ {
		b.WriteString("Scene: room " + string(rune('A'+sc)) + "\n")
		for i := 0; i < 6; i++ {
			b.WriteString("Ada: we need more coffee number " + string(rune('a'+i)) + "\n")
			b.WriteString("Bob: pizza is the answer " + string(rune('a'+i)) + "\n")
			if sc == 0 {
				b.WriteString("Cy: I am only here once " + string(rune('a'+i)) + "\n")
			}
		}
	}
	os.WriteFile(scr, []byte(b.String()), 0o644)
	code, stdout, stderr := runPersonaCLI(t, "judge", "--protocol", "ablation", "--roles", "Ada,Bob,Cy", "--k", "2,4", "--per-role", "3", "--json", scr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		N       int       `json:"n"`
		Overall []float64 `json:"overall"`
	}
	decodeOne(t, stdout, &got)
	if got.N != 6 || len(got.Overall) != 2 || !strings.Contains(stderr, "lines of Cy left out") {
		t.Fatalf("n %d overall %v; stderr %s", got.N, got.Overall, stderr)
	}
	if code, _, stderr := runPersonaCLI(t, "judge", "--protocol", "ablation", "--roles", "Cy", "--k", "2", scr); code != 1 || !strings.Contains(stderr, "one conversation only") {
		t.Fatalf("only unanswerable roles: exit %d: %s", code, stderr)
	}
}

// Flag help names each flag's value by its type: a `backquoted` word in a
// usage string would silently become the value's name instead
// ("-personas persona distill").
func TestPersonaCommandsFlagHelp(t *testing.T) {
	types := map[string]bool{"string": true, "int": true, "uint": true, "float": true, "duration": true, "value": true}
	for _, cmd := range [][]string{{"judge"}, {"metrics"}, {"align"}, {"persona", "distill"}, {"speech", "features"}, {"speech", "profile"},
		{"speech", "reference"}, {"speech", "validate"}, {"speech", "bench"}} {
		_, _, stderr := runPersonaCLI(t, append(cmd, "--help")...)
		if !strings.Contains(stderr, "flags:") {
			t.Fatalf("%v --help printed no flags:\n%s", cmd, stderr)
		}
		for _, line := range strings.Split(stderr, "\n") {
			f := strings.Fields(line)
			if strings.HasPrefix(line, "  -") && len(f) > 1 && !types[f[1]] {
				t.Errorf("%v: flag help line %q names its value %q", cmd, line, strings.Join(f[1:], " "))
			}
		}
	}
}
