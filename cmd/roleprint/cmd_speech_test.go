package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/roleprint/roleprint/speech/frontend"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

const speechFixtures = "../../speech/testdata"

func runSpeechCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"speech"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSpeechFeaturesJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(speechFixtures, "espeak", "voice-*-a.wav"))
	if len(files) != 3 {
		t.Fatalf("fixtures: %v", files)
	}
	code, out, errs := runSpeechCLI(t, append([]string{"features", "--json", "-j", "2"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Files []map[string]any `json:"files"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not exactly one JSON object: %v\n%s", err, out)
	}
	if len(got.Files) != 3 {
		t.Fatalf("%d files in output", len(got.Files))
	}
	for i, f := range got.Files {
		if f["file"] != files[i] {
			t.Errorf("item %d is %v, want %s (input order)", i, f["file"], files[i])
		}
		for _, k := range []string{"duration_s", "f0_mean_hz", "f0_median_hz", "f0_std_hz", "voiced_fraction",
			"intensity_mean_db", "speaking_rate_syl_s", "pause_ratio"} {
			if v, ok := f[k].(float64); !ok || v < 0 {
				t.Errorf("%s: %s = %v", files[i], k, f[k])
			}
		}
	}
	// Plain text: a table with one row per file.
	code, out, _ = runSpeechCLI(t, append([]string{"features"}, files...)...)
	if code != 0 || strings.Count(out, "\n") != 4 || !strings.Contains(out, "voice-en-f2-p70-a.wav") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

func TestSpeechUsageAndErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "missing verb"},
		{[]string{"transmogrify"}, 2, `unknown speech verb "transmogrify"`},
		{[]string{"features"}, 2, "no WAV files"},
		{[]string{"features", "a.wav", "--json"}, 2, "flag --json after the input files"},
		{[]string{"features", "cmd_speech.go"}, 1, `cmd_speech.go: not a WAV file`},
		{[]string{"features", "--intensity-averaging", "median", "x.wav"}, 2, "want energy, sones or dB"},
		{[]string{"profile"}, 2, "--in utterances.parquet is required"},
		{[]string{"profile", "--in", "missing.parquet"}, 1, "missing.parquet"},
		{[]string{"validate"}, 2, "one Praat reference"},
	} {
		code, _, errs := runSpeechCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("speech %v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}

func TestSpeechProfileAndReference(t *testing.T) {
	dir := t.TempDir()
	abs, _ := filepath.Abs(filepath.Join(speechFixtures, "espeak"))
	var utts []data.Utterance
	for i, c := range []struct{ speaker, file string }{
		{"HAMLET", "rate-en-m3-p50-s140.wav"}, {"HAMLET", "rate-en-m3-p50-s230.wav"},
		{"OPHELIA", "voice-en-f2-p70-a.wav"}, {"OPHELIA", "voice-en-f2-p70-b.wav"},
		{"GHOST", "voice-enus-m1-p30-a.wav"}, {"GHOST", "voice-enus-m1-p30-b.wav"},
	} {
		utts = append(utts, data.Utterance{Source: "espeak", ConversationID: "c", Turn: int32(i), Speaker: c.speaker,
			Text: "She sells sea shells.", AudioPath: filepath.Join(abs, c.file)})
	}
	in := filepath.Join(dir, "utts.parquet")
	if err := data.WriteUtterances(in, utts); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSpeechCLI(t, "profile", "--json", "--in", in)
	if code != 0 {
		t.Fatalf("profile exit %d: %s", code, errs)
	}
	var prof struct {
		Characters []struct {
			Character string `json:"character"`
			Pitch     string `json:"pitch"`
		} `json:"characters"`
		Tags     map[string]string `json:"tags"`
		Analysed int               `json:"utterances_analysed"`
	}
	if err := json.Unmarshal([]byte(out), &prof); err != nil {
		t.Fatal(err)
	}
	if len(prof.Characters) != 3 || prof.Analysed != 6 || !strings.HasPrefix(prof.Tags["GHOST"], "Pitch: ") {
		t.Fatalf("profile output %s", out)
	}
	levels := map[string]bool{}
	for _, c := range prof.Characters {
		levels[c.Pitch] = true
	}
	if !levels["Low"] || !levels["Medium"] || !levels["High"] {
		t.Errorf("three characters should be Low, Medium and High in pitch: %+v", prof.Characters)
	}
	code, out, errs = runSpeechCLI(t, "reference", "--json", "--in", in)
	if code != 0 || strings.Count(out, `"character"`) != 3 {
		t.Fatalf("reference exit %d: %s %s", code, out, errs)
	}
}

func TestSpeechValidate(t *testing.T) {
	refPath := filepath.Join(speechFixtures, "praat-espeak.json")
	ref, err := frontend.LoadPraatReference(refPath)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSpeechCLI(t, "validate", "--json", refPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a struct {
		Files            int     `json:"files"`
		VoicingAgreement float64 `json:"voicing_agreement"`
		MedianAbsDiffST  float64 `json:"median_abs_diff_st"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Files != len(ref.Files) || a.VoicingAgreement < 0.9 || a.MedianAbsDiffST > 0.5 {
		t.Errorf("agreement %+v", a)
	}
}
