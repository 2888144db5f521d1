package table2

import (
	"github.com/roleprint/roleprint/internal/fsx"

	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
)

// Inputs are the utterances a Table 2 run is resolved for (Resolve) and
// how they were read: what the manifest records as the run's inputs.
type Inputs struct {
	// Name names the corpora in notes ("shakespeare (embedded)", the
	// files' paths).
	Name string `json:"name"`
	// Utterances are every input's utterances, in order.
	Utterances []data.Utterance `json:"-"`
	// Files describe the inputs with their sizes and SHA-256.
	Files []InputFile `json:"files"`
	// Embedded is true for the embedded Shakespeare corpus: its pairs use
	// EmbeddedPairConfig and its run the embedded budget.
	Embedded bool `json:"embedded"`
	// LoadSeconds is the time reading the inputs took (part of the run's
	// estimate).
	LoadSeconds float64 `json:"load_s"`
}

// LoadInputs reads utterance Parquet files (data.ReadUtterances), or the
// embedded Shakespeare corpus when paths is empty, and describes each
// input by its size and SHA-256. A file that cannot be read is an error
// naming it.
func LoadInputs(paths []string) (Inputs, error) {
	start := time.Now()
	if len(paths) == 0 {
		utts, err := corpus.Default()
		if err != nil {
			return Inputs{}, err
		}
		in := InputFile{Path: "embedded:" + corpus.DefaultName, Bytes: int64(len(corpus.DefaultParquet())), Rows: len(utts)}
		if m, err := corpus.DefaultManifest(); err == nil {
			in.SHA256 = m.SHA256
		}
		return Inputs{Name: corpus.DefaultName + " (embedded)", Utterances: utts, Files: []InputFile{in}, Embedded: true,
			LoadSeconds: time.Since(start).Seconds()}, nil
	}
	var in Inputs
	for _, p := range paths {
		utts, err := data.ReadUtterances(p)
		if err != nil {
			return Inputs{}, err
		}
		f, err := describeFile(p)
		if err != nil {
			return Inputs{}, err
		}
		f.Rows = len(utts)
		in.Files = append(in.Files, f)
		in.Utterances = append(in.Utterances, utts...)
	}
	in.Name = strings.Join(paths, ", ")
	in.LoadSeconds = time.Since(start).Seconds()
	return in, nil
}

// describeFile returns a file's absolute path, size and SHA-256.
func describeFile(path string) (InputFile, error) {
	f, _, err := fsx.OpenRegular(path, 0) // hashed as a stream: no size limit
	if err != nil {
		return InputFile{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return InputFile{}, fmt.Errorf("read %s: %w", path, err)
	}
	abs, _ := filepath.Abs(path)
	return InputFile{Path: abs, Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
