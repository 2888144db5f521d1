package verifier

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// SavePart is one trained or fitted encoder to save in a bundle.
type SavePart struct {
	// Row is its row name ("transformer_ft"); Base the registered encoder
	// that rebuilds it (default: Row without the fine-tuned suffix).
	Row, Base string
	// Encoder is the live encoder (trained, fitted) whose weights are saved.
	Encoder sv.Encoder
	// Settings and Seed are the options it was built with.
	Settings map[string]string
	Seed     int64
	// Weight is its weight in the mixed cosine (0 means 1).
	Weight float64
}

// SaveOptions describe a bundle to write.
type SaveOptions struct {
	// Name is the verifier's row ("transformer_ft", "mixed_ft").
	Name  string
	Parts []SavePart
	// FitTexts are the training texts the Fitter parts were fitted on.
	FitTexts []string
	// FitSources are the Source of each of FitTexts (sv.TrainTextSources),
	// which sv.SourceFitter parts were fitted with (FitSources); empty
	// when the caller has none, else as long as FitTexts.
	FitSources []string
	// DevCosines are the verifier's (mixed) cosines of the dev pairs and
	// DevLabels their labels: the threshold and the calibration come from
	// them.
	DevCosines []float64
	DevLabels  []bool
	// Criterion chooses the threshold (default stats.MaxAccuracy).
	Criterion stats.Criterion
	// Manifest describes the training data (any JSON value).
	Manifest any
	// Domain is the training text's Domain (FitDomain, CorpusDomain);
	// nil writes a bundle that cannot tell text outside it.
	Domain *Domain
	// Demonstration, when set, labels the bundle a demonstration
	// (Spec.Demonstration says why).
	Demonstration string
	// Speakers are the training speakers' profiles (SpeakerProfiles);
	// nil writes a bundle that names no nearest training speakers.
	Speakers *Speakers
	// Calibration, when not nil, is the bundle's calibration of scores
	// computed as saved (ScoringAsSaved) instead of the Platt fit on the
	// dev pairs, with CalibrationSource and CalibrationNote saying what it
	// was fitted on (Spec); the dev pairs still give Threshold and Dev.
	Calibration       *Calibration
	CalibrationSource string
	CalibrationNote   string
	// CalibrationAdapted, when not nil, is the calibration of scores
	// computed with the bundle adapted to the scored texts
	// (Spec.CalibrationAdapted), with its source and note.
	CalibrationAdapted       *Calibration
	CalibrationAdaptedSource string
	CalibrationAdaptedNote   string
}

// exporter is implemented by GoMLX encoders (sv/neural.Encoder): their
// weights and vocabulary go into the bundle.
type exporter interface {
	ExportBundle(dir, prefix string, settings map[string]string) (files, out map[string]string, err error)
}

// Save writes a bundle to dir (replacing one already there, through a
// temporary folder and a rename) and returns its Spec.
func Save(dir string, o SaveOptions) (*Spec, error) {
	if len(o.Parts) == 0 {
		return nil, fmt.Errorf("verifier %s: no parts to save", dir)
	}
	if len(o.DevCosines) != len(o.DevLabels) || len(o.DevCosines) == 0 {
		return nil, fmt.Errorf("verifier %s: %d dev cosines for %d dev labels: the threshold and calibration need dev pairs", dir, len(o.DevCosines), len(o.DevLabels))
	}
	if len(o.FitSources) > 0 && len(o.FitSources) != len(o.FitTexts) {
		return nil, fmt.Errorf("verifier %s: %d fit sources for %d fit texts: want one source per text, or none", dir, len(o.FitSources), len(o.FitTexts))
	}
	crit := o.Criterion
	if crit == "" {
		crit = stats.MaxAccuracy
	}
	cal, err := FitPlatt(o.DevCosines, o.DevLabels)
	if err != nil {
		return nil, fmt.Errorf("verifier %s: calibration: %w", dir, err)
	}
	calSource, calNote := CalibrationDev, ""
	if o.Calibration != nil {
		if o.CalibrationSource == "" {
			return nil, fmt.Errorf("verifier %s: a given calibration needs its source", dir)
		}
		cal, calSource, calNote = *o.Calibration, o.CalibrationSource, o.CalibrationNote
	}
	if o.CalibrationAdapted != nil && o.CalibrationAdaptedSource == "" {
		return nil, fmt.Errorf("verifier %s: a given adapted calibration needs its source", dir)
	}
	th, conf := stats.BestThreshold(o.DevCosines, o.DevLabels, crit)
	spec := &Spec{Format: Format, FormatVersion: FormatVersion, Name: o.Name, Created: time.Now().UTC(),
		Threshold: th, Criterion: string(crit), Calibration: cal, CalibrationSource: calSource, CalibrationNote: calNote, CalibrationScoring: ScoringAsSaved,
		CalibrationAdapted: o.CalibrationAdapted, CalibrationAdaptedSource: o.CalibrationAdaptedSource, CalibrationAdaptedNote: o.CalibrationAdaptedNote, Manifest: ManifestFile, Demonstration: o.Demonstration,
		Dev: DevStats{Pairs: len(o.DevLabels), AUC: stats.AUC(o.DevCosines, o.DevLabels), Accuracy: conf.Accuracy()}}
	for _, l := range o.DevLabels {
		if l {
			spec.Dev.Positive++
		}
	}
	for _, p := range o.Parts {
		if _, ok := p.Encoder.(sv.PairScorer); ok {
			spec.Scores = ScoresParts
		}
	}
	if err := replaceable(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), ".tmp-"+filepath.Base(dir)+"-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // no-op after the rename
	needFit := false
	for i, p := range o.Parts {
		base := p.Base
		if base == "" {
			base, _ = sv.SplitFineTuned(p.Row)
		}
		w := p.Weight
		if w == 0 {
			w = 1
		}
		part := Part{Row: p.Row, Encoder: base, Settings: maps.Clone(p.Settings), Seed: p.Seed, Weight: w}
		if _, ft := sv.SplitFineTuned(p.Row); ft {
			ex, ok := p.Encoder.(exporter)
			if !ok {
				return nil, fmt.Errorf("verifier: part %s (%T) cannot export its trained weights", p.Row, p.Encoder)
			}
			prefix := fmt.Sprintf("part%d-%s", i+1, safeName(p.Row))
			if part.Files, part.Settings, err = ex.ExportBundle(tmp, prefix, p.Settings); err != nil {
				return nil, fmt.Errorf("verifier: part %s: %w", p.Row, err)
			}
		}
		if _, ok := p.Encoder.(sv.Fitter); ok && len(o.FitTexts) > 0 {
			part.Fit, needFit = true, true
		}
		spec.Parts = append(spec.Parts, part)
	}
	if needFit {
		spec.FitTexts = FitFile
		if err := writeLines(filepath.Join(tmp, FitFile), o.FitTexts); err != nil {
			return nil, err
		}
		if len(o.FitSources) > 0 {
			spec.FitSourcesFile = FitSourcesFile
			if err := writeLines(filepath.Join(tmp, FitSourcesFile), o.FitSources); err != nil {
				return nil, err
			}
		}
	}
	if err := writeJSON(filepath.Join(tmp, ManifestFile), o.Manifest); err != nil {
		return nil, err
	}
	if o.Domain != nil {
		if err := o.Domain.valid(); err != nil {
			return nil, fmt.Errorf("verifier %s: %w", dir, err)
		}
		spec.DomainFile = DomainFile
		if err := writeJSON(filepath.Join(tmp, DomainFile), o.Domain); err != nil {
			return nil, err
		}
	}
	if o.Speakers != nil {
		if err := o.Speakers.write(tmp); err != nil {
			return nil, fmt.Errorf("verifier %s: speakers: %w", dir, err)
		}
		spec.SpeakersFile = SpeakersFile
	}
	if err := writeJSON(filepath.Join(tmp, SpecFile), spec); err != nil {
		return nil, err
	}
	if err := shareable(tmp); err != nil {
		return nil, fmt.Errorf("verifier %s: %w", dir, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	return spec, nil
}

// shareable gives the temporary folder (MkdirTemp: 0700) and the files
// in it (some written through CreateTemp: 0600) the modes of a folder
// written in place, 0755 and 0644: a bundle is meant to be handed on.
func shareable(root string) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	})
}

// replaceable refuses to replace a folder that holds files but no bundle.
func replaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return nil // absent (or unreadable: the rename reports it) or empty
	}
	if _, err := os.Stat(filepath.Join(dir, SpecFile)); err == nil {
		return nil
	}
	return fmt.Errorf("verifier %s: the folder holds files but no %s; not replacing it", dir, SpecFile)
}

// safeName keeps letters, digits, '-' and '_' of a row name for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// writeLines writes one line per string, with the strings' own line
// breaks turned into spaces (readLines reads them back).
func writeLines(path string, lines []string) error {
	var b strings.Builder
	r := strings.NewReplacer("\r", " ", "\n", " ")
	for _, t := range lines {
		b.WriteString(r.Replace(t))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
