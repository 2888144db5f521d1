package pairs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
)

// Pair directory layout (see docs/pairs.md):
//
//	sets.parquet                 UtteranceSet rows, by set_id
//	train.parquet, dev.parquet   Pair rows
//	<exposure>-<level>.parquet   Pair rows of each test set (TestKey.String())
//	manifest.json                PairInfo plus the file list, written last
const (
	PairManifestFile = "manifest.json"
	PairSetsFile     = "sets.parquet"
)

// PairManifest is the content of manifest.json: how the corpus was built
// and which files hold it with their row counts.
type PairManifest struct {
	PairInfo
	// Files lists every Parquet file of the directory.
	Files []PairFile `json:"files"`
}

// PairFile is one file of a pair directory.
type PairFile struct {
	// Name is "sets", "train", "dev" or a TestKey's String().
	Name string `json:"name"`
	// Path is relative to the directory.
	Path string `json:"path"`
	Rows int    `json:"rows"`
	// Positives and Negatives count the labels (pair files only).
	Positives int `json:"positives,omitempty"`
	Negatives int `json:"negatives,omitempty"`
}

// pairSplitNames lists the pair files in manifest order.
func pairSplitNames() []string {
	names := []string{"train", "dev"}
	for _, e := range Exposures {
		for _, l := range Levels {
			names = append(names, TestKey{e, l}.String())
		}
	}
	return names
}

func (c *PairCorpus) split(name string) []Pair {
	switch name {
	case "train":
		return c.Train
	case "dev":
		return c.Dev
	}
	for _, e := range Exposures {
		for _, l := range Levels {
			if k := (TestKey{e, l}); k.String() == name {
				return c.Tests[k]
			}
		}
	}
	return nil
}

// WritePairDir stores c in dir (created when missing): sets.parquet, one
// Parquet file per split and manifest.json. Every file is first written to
// a staging folder inside dir; only when all of them are complete (and no
// destination is in the way) does the directory change: its old
// manifest.json is removed, the files are renamed into place and the new
// manifest is written last. A write that fails leaves an earlier pair
// directory as it was; one interrupted while renaming leaves no manifest,
// so ReadPairDir refuses the directory. Every pair must refer to sets of
// c.Sets.
func WritePairDir(dir string, c *PairCorpus) error {
	if c == nil {
		return fmt.Errorf("write pairs %s: nil corpus", dir)
	}
	for _, name := range pairSplitNames() {
		for i, p := range c.split(name) {
			if err := checkPair(p, func(id string) bool { return c.Sets[id] != nil }); err != nil {
				return fmt.Errorf("write pairs %s: %s pair %d: %w", dir, name, i, err)
			}
		}
	}
	ids := make([]string, 0, len(c.Sets))
	for id := range c.Sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	sets := make([]UtteranceSet, len(ids))
	for i, id := range ids {
		sets[i] = *c.Sets[id]
		if sets[i].ID != id {
			return fmt.Errorf("write pairs %s: set stored under %q has set_id %q", dir, id, sets[i].ID)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write pairs %s: %w", dir, err)
	}
	stage, err := os.MkdirTemp(dir, ".staging-")
	if err != nil {
		return fmt.Errorf("write pairs %s: %w", dir, err)
	}
	defer os.RemoveAll(stage)

	m := PairManifest{}
	if info := PairCorpusInfo(c); info != nil {
		m.PairInfo = *info
		m.Splits = slices.Clone(info.Splits)
	} else {
		m.PairInfo = PairInfo{Format: PairFormat, Version: PairFormatVersion, Seed: c.Seed}
	}
	if err := data.WriteParquet(filepath.Join(stage, PairSetsFile), sets); err != nil {
		return fmt.Errorf("write pairs: %w", err)
	}
	m.Files = append(m.Files, PairFile{Name: "sets", Path: PairSetsFile, Rows: len(sets)})
	for _, name := range pairSplitNames() {
		pairs := c.split(name)
		f := PairFile{Name: name, Path: name + ".parquet", Rows: len(pairs)}
		for _, p := range pairs {
			if p.Label == 1 {
				f.Positives++
			} else {
				f.Negatives++
			}
		}
		if err := data.WriteParquet(filepath.Join(stage, f.Path), pairs); err != nil {
			return fmt.Errorf("write pairs: %w", err)
		}
		m.Files = append(m.Files, f)
		m.syncSplit(f)
	}
	js, err := json.MarshalIndent(&m, "", "  ")
	if err != nil {
		return fmt.Errorf("write pairs %s: manifest: %w", dir, err)
	}

	// Everything is written: check the destinations, then move in.
	for _, f := range m.Files {
		if st, err := os.Lstat(filepath.Join(dir, f.Path)); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("write pairs %s: %s is in the way (not a regular file); nothing was changed", dir, filepath.Join(dir, f.Path))
		}
	}
	if err := os.Remove(filepath.Join(dir, PairManifestFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write pairs %s: remove old manifest: %w", dir, err)
	}
	for _, f := range m.Files {
		if err := os.Rename(filepath.Join(stage, f.Path), filepath.Join(dir, f.Path)); err != nil {
			return fmt.Errorf("write pairs %s: %w", dir, err)
		}
	}
	return fsx.WriteFile(filepath.Join(dir, PairManifestFile), append(js, '\n'), 0o600)
}

// syncSplit makes the manifest's split counts match the written file, so a
// corpus edited after BuildPairs is still described truthfully.
func (m *PairManifest) syncSplit(f PairFile) {
	for i := range m.Splits {
		if m.Splits[i].Name == f.Name {
			m.Splits[i].Pairs, m.Splits[i].Positives, m.Splits[i].Negatives = f.Rows, f.Positives, f.Negatives
			return
		}
	}
	s := SplitInfo{Name: f.Name, Pairs: f.Rows, Positives: f.Positives, Negatives: f.Negatives}
	for _, e := range Exposures {
		for _, l := range Levels {
			if (TestKey{e, l}).String() == f.Name {
				s.Exposure, s.Level = e, l
			}
		}
	}
	m.Splits = append(m.Splits, s)
}

// checkPair validates one pair against the known set IDs.
func checkPair(p Pair, known func(string) bool) error {
	switch {
	case p.ID == "":
		return fmt.Errorf("empty pair_id")
	case p.Label != 0 && p.Label != 1:
		return fmt.Errorf("pair %s: label %d, want 0 or 1", p.ID, p.Label)
	case p.A == p.B:
		return fmt.Errorf("pair %s pairs set %q with itself", p.ID, p.A)
	case !known(p.A):
		return fmt.Errorf("pair %s: set_a %q is not in %s", p.ID, p.A, PairSetsFile)
	case !known(p.B):
		return fmt.Errorf("pair %s: set_b %q is not in %s", p.ID, p.B, PairSetsFile)
	case p.Level != "" && !slices.Contains(Levels, p.Level):
		return fmt.Errorf("pair %s: level %q, want empty or one of %v", p.ID, p.Level, Levels)
	}
	return nil
}

// ReadPairManifest reads a pair directory's manifest.json.
func ReadPairManifest(dir string) (*PairManifest, error) {
	path := filepath.Join(dir, PairManifestFile)
	js, err := fsx.ReadFile(path, fsx.MaxInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read pairs %s: no %s: not a pair directory, or its writing was interrupted (the manifest is written last); rebuild it with `roleprint pairs`", dir, PairManifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("read pairs: %w", err)
	}
	var m PairManifest
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, fmt.Errorf("read pairs %s: %w", path, err)
	}
	if m.Format != PairFormat {
		return nil, fmt.Errorf("read pairs %s: format %q, want %q", path, m.Format, PairFormat)
	}
	if m.Version < 1 || m.Version > PairFormatVersion {
		return nil, fmt.Errorf("read pairs %s: version %d, this RolePrint reads versions 1 to %d", path, m.Version, PairFormatVersion)
	}
	return &m, nil
}

// ReadPairDir reads a directory written by WritePairDir. It fails with the
// file and row at fault when a file is missing, a row count differs from
// the manifest, a set_id repeats, or a pair refers to an unknown set.
func ReadPairDir(dir string) (*PairCorpus, error) {
	m, err := ReadPairManifest(dir)
	if err != nil {
		return nil, err
	}
	files := map[string]PairFile{}
	for _, f := range m.Files {
		files[f.Name] = f
	}
	setsFile, ok := files["sets"]
	if !ok {
		return nil, fmt.Errorf("read pairs %s: %s lists no sets file", dir, PairManifestFile)
	}
	c := &PairCorpus{Sets: map[string]*UtteranceSet{}, Tests: map[TestKey][]Pair{}, Seed: m.Seed}
	path := filepath.Join(dir, setsFile.Path)
	row := 0
	err = data.ScanParquet(path, func(batch []UtteranceSet) error {
		for i := range batch {
			s := batch[i]
			switch {
			case s.ID == "":
				return fmt.Errorf("row %d: empty set_id", row)
			case c.Sets[s.ID] != nil:
				return fmt.Errorf("row %d: duplicate set_id %q", row, s.ID)
			}
			c.Sets[s.ID] = &s
			row++
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read pairs: %w", err)
	}
	if row != setsFile.Rows {
		return nil, fmt.Errorf("read pairs %s: %d rows, %s says %d: files from different builds?", path, row, PairManifestFile, setsFile.Rows)
	}
	known := func(id string) bool { return c.Sets[id] != nil }
	for _, name := range pairSplitNames() {
		f, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("read pairs %s: %s lists no %s file", dir, PairManifestFile, name)
		}
		path := filepath.Join(dir, f.Path)
		var pairs []Pair
		err := data.ScanParquet(path, func(batch []Pair) error {
			for i, p := range batch {
				if err := checkPair(p, known); err != nil {
					return fmt.Errorf("row %d: %w", len(pairs)+i, err)
				}
			}
			pairs = append(pairs, batch...)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read pairs: %w", err)
		}
		if len(pairs) != f.Rows {
			return nil, fmt.Errorf("read pairs %s: %d rows, %s says %d: files from different builds?", path, len(pairs), PairManifestFile, f.Rows)
		}
		switch name {
		case "train":
			c.Train = pairs
		case "dev":
			c.Dev = pairs
		default:
			for _, e := range Exposures {
				for _, l := range Levels {
					if k := (TestKey{e, l}); k.String() == name {
						c.Tests[k] = pairs
					}
				}
			}
		}
	}
	info := m.PairInfo
	setPairCorpusInfo(c, &info)
	return c, nil
}
