package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv/verifier"
)

// readFitOn reads the texts of `score --fit-on`: a verifier bundle folder
// gives its training texts (verifier.ReadFitTexts: what the bundle's
// parts were fitted on), a .parquet corpus file its utterances, any other
// file one text per line. It returns the texts in the order read (not
// de-duplicated, as a bundle fits them) and a description of where they
// came from for the report.
func readFitOn(paths []string, e *env) ([]string, string, error) {
	var texts []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, "", fmt.Errorf("--fit-on: %w", err)
		}
		var more []string
		switch {
		case st.IsDir():
			more, err = verifier.ReadFitTexts(p)
		case strings.HasSuffix(strings.ToLower(p), ".parquet"):
			var us []data.Utterance
			us, err = data.ReadUtterances(p)
			for _, u := range us {
				more = append(more, u.Text)
			}
		default:
			more, err = embedReadLines(p, e)
		}
		if err != nil {
			return nil, "", fmt.Errorf("--fit-on %s: %w", p, err)
		}
		texts = append(texts, more...)
	}
	if len(texts) == 0 {
		return nil, "", fmt.Errorf("--fit-on %s: no texts", strings.Join(paths, ", "))
	}
	return texts, strings.Join(paths, ", "), nil
}
