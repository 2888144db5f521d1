package table2

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"sort"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/sv"
)

// checkpointFormat and checkpointVersion identify a (round, encoder)
// checkpoint file.
// Version 2 added the cosine scores of PairScorer encoders (for the mixed
// row); version 1 files are recomputed.
const (
	checkpointFormat  = "roleprint-table2-checkpoint"
	checkpointVersion = 2
)

// checkpointFile is what a (round, encoder) checkpoint holds: the result
// and the pair scores it came from (metrics are recomputed from the scores
// on load, so a changed threshold criterion does not invalidate it).
type checkpointFile struct {
	Format  string       `json:"format"`
	Version int          `json:"version"`
	Key     string       `json:"key"`
	Result  EncoderRound `json:"result"`
	Scores  pairScores   `json:"scores"`
}

// corpusKey fingerprints a pair corpus: every pair of every split and the
// texts of every set, so a checkpoint is reused only on the same data.
func corpusKey(c *pairs.PairCorpus) string {
	h := sha256.New()
	str := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	pairList := func(name string, ps []pairs.Pair) {
		str(name)
		for _, p := range ps {
			str(p.ID)
			str(p.A)
			str(p.B)
			h.Write([]byte{byte(p.Label)})
		}
	}
	pairList("train", c.Train)
	pairList("dev", c.Dev)
	for _, k := range allTestKeys() {
		pairList(k.String(), c.Tests[k])
	}
	ids := make([]string, 0, len(c.Sets))
	for id := range c.Sets {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s := c.Sets[id]
		str(id)
		str(s.Speaker)
		for _, t := range s.Texts {
			str(t)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// encoderKey adds the encoder's name, options and the cap on its fitting
// texts (Config.FitMaxTexts, which changes what a Fitter learns) to
// a corpus key.
func encoderKey(corpus, name string, o sv.EncoderOptions, fitMax int) string {
	h := sha256.New()
	put := func(h hash.Hash, s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	put(h, corpus)
	put(h, name)
	put(h, o.Backend)
	put(h, fmt.Sprint(o.Seed, o.BatchSize, fitMax))
	keys := make([]string, 0, len(o.Settings))
	for k := range o.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		put(h, k)
		put(h, o.Settings[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadCheckpoint reads path; ok is false when it is absent or was made
// for other data or settings (it is then recomputed and overwritten).
func loadCheckpoint(path, key string) (er *EncoderRound, ok bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	var f checkpointFile
	if err := json.Unmarshal(b, &f); err != nil || f.Format != checkpointFormat {
		// A torn or foreign file: recompute rather than fail.
		return nil, false, nil
	}
	if f.Version != checkpointVersion || f.Key != key || f.Scores.Tests == nil {
		return nil, false, nil
	}
	r := f.Result
	r.Resumed = true
	r.scores = &f.Scores
	return &r, true, nil
}

// saveCheckpoint writes er and its scores to path atomically.
func saveCheckpoint(path, key string, er *EncoderRound) error {
	f := checkpointFile{Format: checkpointFormat, Version: checkpointVersion, Key: key, Result: *er, Scores: *er.scores}
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return fsx.WriteFileAll(path, b, 0o644)
}
