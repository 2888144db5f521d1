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
// data of the bundle in dir: it compares every utterance of at least six
// words with the bundle's fit texts (fit.txt, as the bundle stores them)
// and is an error naming the shared texts' number, share and first rows
// when more than 1 % of them (and at least five) are among the bundle's.
// A bundle without fit texts passes (only CheckInputHashes applies).
func CheckOverlap(dir string, utts []data.Utterance) error {
	s, err := ReadSpec(dir)
	if err != nil {
		return err
	}
	if s.FitTexts == "" {
		return nil
	}
	fit, err := readLines(filepath.Join(dir, s.FitTexts))
	if err != nil {
		return err
	}
	known := make(map[string]bool, len(fit))
	for _, t := range fit {
		known[overlapKey(t)] = true
	}
	var n, shared int
	var examples []string
	for i, u := range utts {
		if len(strings.Fields(u.Text)) < overlapMinWords {
			continue
		}
		n++
		if known[overlapKey(u.Text)] {
			shared++
			if len(examples) < 3 {
				examples = append(examples, fmt.Sprintf("row %d (%s, %s): %q", i+1, u.Source, u.Speaker, clip(u.Text, 60)))
			}
		}
	}
	if shared >= overlapMinTexts && float64(shared) > overlapMaxShare*float64(n) {
		return fmt.Errorf("eval: the corpus shares %d of its %d texts of %d+ words (%.1f%%) with the training texts of %s (%s): it is not text the verifier was not trained on; e.g. %s",
			shared, n, overlapMinWords, 100*float64(shared)/float64(n), dir, s.FitTexts, strings.Join(examples, "; "))
	}
	return nil
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
				return fmt.Errorf("eval: %s is the input %s the verifier %s was trained on (same SHA-256): evaluate it on corpora it was not trained on", f, in.Path, dir)
			}
		}
	}
	return nil
}

// fileSHA256 is the hex SHA-256 of a file's content.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
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
