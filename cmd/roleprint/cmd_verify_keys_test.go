package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// TestVerifyOutputKeys pins the keys of `roleprint verify --json` and
// their order, with in_domain present as null when the bundle records no
// domain (domain_a, domain_b and demonstration are absent then).
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
	}
	want := []string{"verifier", "name", "a", "b", "utterances_a", "utterances_b", "score", "cosine", "probability",
		"threshold", "score_threshold", "same", "in_domain", "corpora"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	if string(inDomain) != "null" {
		t.Errorf("in_domain %s, want null", inDomain)
	}
}
