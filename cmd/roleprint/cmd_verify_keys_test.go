package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// TestVerifyOutputKeys pins the keys of `roleprint verify --json` and
// their order, with in_domain present as null when the bundle records no
// domain (domain_a and domain_b are absent then), nearest_a and nearest_b
// as null when it records no training speakers, and nearest_space and
// demonstration present (empty) without speakers or label.
func TestVerifyOutputKeys(t *testing.T) {
	cos := 0.5
	out := verifyOutput{Verifier: "v", Name: "n", A: "a.txt", B: "b.txt", Corpora: []string{}}
	out.Cosine = &cos
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token() // {
	var keys []string
	var inDomain json.RawMessage
	for dec.More() {
		tok, _ := dec.Token()
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if tok == "in_domain" {
			inDomain = v
		}
		if (tok == "nearest_a" || tok == "nearest_b") && string(v) != "null" {
			t.Errorf("%s %s, want null", tok, v)
		}
	}
	want := []string{"verifier", "name", "a", "b", "utterances_a", "utterances_b", "score", "cosine", "probability",
		"threshold", "score_threshold", "same", "scoring", "calibration_source", "calibration_scoring", "in_domain", "corpora", "nearest_a", "nearest_b",
		"nearest_space", "demonstration"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	if string(inDomain) != "null" {
		t.Errorf("in_domain %s, want null", inDomain)
	}
}
