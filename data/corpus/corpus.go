package corpus

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

//go:generate go run ./internal/gen

// DefaultName names the embedded corpus in reports and manifests.
const DefaultName = "shakespeare"

// DefaultFormat and DefaultSharedCorpus say how the embedded corpus is
// made: the shakespeare-html importer over ../shared/corpora/shakespeare-mit.
const (
	DefaultFormat       = "shakespeare-html"
	DefaultSharedCorpus = "shakespeare-mit"
)

// FileName is the embedded Parquet file's name, and ManifestName that of
// its manifest, in this package's folder.
const (
	FileName     = "shakespeare.parquet"
	ManifestName = "shakespeare.json"
)

//go:embed shakespeare.parquet
var defaultParquet []byte

//go:embed shakespeare.json
var defaultManifest []byte

// Manifest describes the embedded corpus: what made it and what it holds.
type Manifest struct {
	// Name is DefaultName.
	Name string `json:"name"`
	// Format is the importer that produced it.
	Format string `json:"format"`
	// Source says where the input came from.
	Source string `json:"source"`
	// License of the text.
	License string `json:"license"`
	// Counts are the importer's counts.
	Counts importers.Counts `json:"counts"`
	// Rows is the number of utterances in the file.
	Rows int `json:"rows"`
	// SHA256 is Fingerprint of the utterances.
	SHA256 string `json:"sha256"`
	// Regenerate is the command that rebuilds the file.
	Regenerate string `json:"regenerate"`
}

var loadDefault = sync.OnceValues(func() ([]data.Utterance, error) {
	utts, err := parquet.Read[data.Utterance](bytes.NewReader(defaultParquet), int64(len(defaultParquet)))
	if err != nil {
		return nil, fmt.Errorf("embedded corpus %s: %w", DefaultName, err)
	}
	for i := range utts {
		if err := utts[i].Validate(); err != nil {
			return nil, fmt.Errorf("embedded corpus %s: row %d: %w", DefaultName, i, err)
		}
	}
	return utts, nil
})

// Default returns the embedded Shakespeare corpus: every speech of the 37
// plays, source "shakespeare/<play>", one scene per conversation (see the
// shakespeare-html importer). The caller owns the returned slice.
func Default() ([]data.Utterance, error) {
	utts, err := loadDefault()
	if err != nil {
		return nil, err
	}
	return slices.Clone(utts), nil
}

// MustDefault is Default for notebooks: it panics on error.
func MustDefault() []data.Utterance {
	utts, err := Default()
	if err != nil {
		panic(err)
	}
	return utts
}

// DefaultManifest returns the embedded corpus's manifest.
func DefaultManifest() (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(defaultManifest, &m); err != nil {
		return m, fmt.Errorf("embedded corpus manifest: %w", err)
	}
	return m, nil
}

// DefaultParquet returns the embedded Parquet file's bytes (to copy the
// corpus to disk, or to check its size).
func DefaultParquet() []byte { return slices.Clone(defaultParquet) }

// Build imports the Shakespeare pages under dir (the shared
// shakespeare-mit folder) exactly as the embedded corpus was made, and
// returns the import result with its manifest.
func Build(ctx context.Context, dir string) (*importers.Result, Manifest, error) {
	res, err := importers.Import(ctx, DefaultFormat, []string{dir}, importers.Options{})
	if err != nil {
		return nil, Manifest{}, err
	}
	m := Manifest{
		Name:       DefaultName,
		Format:     DefaultFormat,
		Source:     "TheMITTech/shakespeare @ 6b82db85 (../shared/corpora/shakespeare-mit)",
		License:    "public domain (\"placed in the public domain\", index.html of the MIT edition)",
		Counts:     res.Counts,
		Rows:       len(res.Utterances),
		SHA256:     Fingerprint(res.Utterances),
		Regenerate: "go generate ./data/corpus",
	}
	return res, m, nil
}
