// Command gen rebuilds the embedded default corpus (shakespeare.parquet and
// its manifest shakespeare.json) from ../shared/corpora/shakespeare-mit.
// It runs from data/corpus through `go generate ./data/corpus`.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/internal/fsx"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
)

func main() {
	src := flag.String("src", "", "the shakespeare-mit folder (default: ../shared/corpora/shakespeare-mit beside the project)")
	out := flag.String("out", ".", "folder to write "+corpus.FileName+" and "+corpus.ManifestName+" to")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	if src == "" {
		p, ok := data.SharedCorpus(corpus.DefaultSharedCorpus)
		if !ok {
			return fmt.Errorf("shared corpus %s not found (set -src or %s)", corpus.DefaultSharedCorpus, data.SharedEnv)
		}
		src = p
	}
	res, m, err := corpus.Build(context.Background(), src)
	if err != nil {
		return err
	}
	if err := data.WriteUtterances(filepath.Join(out, corpus.FileName), res.Utterances); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := fsx.WriteFile(filepath.Join(out, corpus.ManifestName), append(b, '\n'), 0o644); err != nil {
		return err
	}
	st, err := os.Stat(filepath.Join(out, corpus.FileName))
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d utterances, %d conversations, %d speakers, %.2f MB, sha256 %s\n",
		corpus.FileName, m.Rows, m.Counts.Conversations, m.Counts.Speakers, float64(st.Size())/1e6, m.SHA256)
	return nil
}
