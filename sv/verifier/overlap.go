package verifier

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
)

// Overlap limits: a text counts when it has at least overlapMinWords
// words (short lines such as "What?" occur in every corpus), and the
// corpus is refused when more than overlapMaxShare of such texts, and at
// least overlapMinTexts of them, are among the bundle's training texts.
const (
	overlapMinWords = 6
	overlapMaxShare = 0.01
	overlapMinTexts = 5
)

// CheckOverlap refuses utterances that share texts with the training
// data of the bundle in dir. With the bundle's fit texts (fit.txt, as it
// stores them) it compares every utterance of at least six words with
// them and refuses when more than 1 % of those (and at least five) are
// among the bundle's; with the hashes of a sample of its training texts
// (its Domain's TextHashes) it refuses when at least five of the sample,
// and more than 1 % of it, are in the corpus. Errors name the shared
// texts' number, share and first rows. A bundle with neither passes (only
// CheckInputHashes applies).
func CheckOverlap(dir string, utts []data.Utterance) error {
	s, err := ReadSpec(dir)
	if err != nil {
		return err
	}
	d, err := ReadDomain(dir)
	if err != nil {
		return err
	}
	var known map[string]bool
	var hashed map[string]bool
	switch {
	case s.FitTexts != "":
		fit, err := readLines(filepath.Join(dir, s.FitTexts))
		if err != nil {
			return err
		}
		known = make(map[string]bool, len(fit))
		for _, t := range fit {
			known[overlapKey(t)] = true
		}
	case d != nil && len(d.TextHashes) > 0:
		hashed = make(map[string]bool, len(d.TextHashes))
		for _, h := range d.TextHashes {
			hashed[h] = true
		}
	default:
		return nil
	}
	var n, shared int
	var examples []string
	found := map[string]bool{}
	for i, u := range utts {
		k := overlapKey(u.Text)
		if len(strings.Fields(k)) < overlapMinWords {
			continue
		}
		n++
		in := known[k]
		if hashed != nil {
			h := textHash(k)
			in = hashed[h]
			if in && found[h] {
				continue
			}
			found[h] = true
		}
		if in {
			shared++
			if len(examples) < 3 {
				examples = append(examples, fmt.Sprintf("row %d (%s, %s): %q", i+1, u.Source, u.Speaker, clip(u.Text, 60)))
			}
		}
	}
	switch {
	case known != nil && shared >= overlapMinTexts && float64(shared) > overlapMaxShare*float64(n):
		return fmt.Errorf("verifier %s: the corpus shares %d of its %d texts of %d+ words (%.1f%%) with the bundle's training texts (%s): the verifier was trained on this text; evaluate it on corpora it was not trained on (e.g. %s)",
			dir, shared, n, overlapMinWords, 100*float64(shared)/float64(n), s.FitTexts, strings.Join(examples, "; "))
	case hashed != nil && shared >= overlapMinTexts && float64(shared) > overlapMaxShare*float64(len(hashed)):
		return fmt.Errorf("verifier %s: the corpus shares %d of the %d training texts sampled in %s (%.1f%%): the verifier was trained on this text; evaluate it on corpora it was not trained on (e.g. %s)",
			dir, shared, len(hashed), s.DomainFile, 100*float64(shared)/float64(len(hashed)), strings.Join(examples, "; "))
	}
	return nil
}

// textHash is the hex of a text's SHA-256's first 8 bytes.
func textHash(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:8])
}

// overlapKey is a text as fit.txt stores it (line breaks as spaces),
// trimmed.
func overlapKey(t string) string {
	return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(t))
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// CheckInputHashes refuses files whose SHA-256 is that of an input the
// bundle in dir was trained on (its manifest's inputs[].sha256, as
// `roleprint reproduce` records them), naming the file and the input.
func CheckInputHashes(dir string, files []string) error {
	s, err := ReadSpec(dir)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(dir, s.Manifest))
	if err != nil {
		return fmt.Errorf("verifier: %w", err)
	}
	var m struct {
		Inputs []struct {
			Path   string `json:"path"`
			SHA256 string `json:"sha256"`
		} `json:"inputs"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.Inputs) == 0 {
		return nil // a manifest without inputs (`roleprint train`'s): the text check applies
	}
	for _, f := range files {
		h, err := fileSHA256(f)
		if err != nil {
			return err
		}
		for _, in := range m.Inputs {
			if in.SHA256 != "" && strings.EqualFold(in.SHA256, h) {
				return fmt.Errorf("verifier %s: %s is the input %s it was trained on (same SHA-256): the verifier was trained on this text; evaluate it on corpora it was not trained on", dir, f, in.Path)
			}
		}
	}
	return nil
}

// fileSHA256 is the hex SHA-256 of a file's content.
func fileSHA256(path string) (string, error) {
	f, _, err := fsx.OpenRegular(path, 0) // hashed as a stream: no size limit
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
