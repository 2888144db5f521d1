package frontend

import (
	"encoding/json"
	"fmt"
	"github.com/roleprint/roleprint/speech"
	"math"
	"path/filepath"
	"sort"

	"github.com/roleprint/roleprint/stats"

	"github.com/roleprint/roleprint/internal/fsx"
)

// PraatReference is what scripts/praat-measure.praat writes: Praat's own
// measurements of a list of WAV files, the yardstick of this package.
type PraatReference struct {
	// PraatVersion is the Praat that measured ("6.3.07").
	PraatVersion string `json:"praat_version"`
	// Files holds one entry per WAV file.
	Files []PraatFile `json:"files"`
	// Dir is the folder relative file names are resolved against (the
	// reference file's folder); not part of the JSON.
	Dir string `json:"-"`
}

// PraatFile is Praat's measurement of one file.
type PraatFile struct {
	// File is the WAV path as given to the script; DurationS and
	// SampleRate describe it as Praat read it.
	File       string  `json:"file"`
	DurationS  float64 `json:"duration_s"`
	SampleRate float64 `json:"sample_rate"`
	// Pitch is "To Pitch (ac)" with the standard settings: frame count,
	// first frame centre, time step, voiced frames, the summary statistics
	// (null when undefined) and, with frames, every frame's F0.
	Pitch struct {
		Frames   int      `json:"frames"`
		T1       float64  `json:"t1"`
		Step     float64  `json:"step"`
		Voiced   int      `json:"voiced"`
		MeanHz   *float64 `json:"mean_hz"`
		MedianHz *float64 `json:"median_hz"`
		StdHz    *float64 `json:"std_hz"`
		MeanST   *float64 `json:"mean_st"`
		MedianST *float64 `json:"median_st"`
		StdST    *float64 `json:"std_st"`
		// F0Hz has one value per frame, 0 where voiceless.
		F0Hz []float64 `json:"f0_hz"`
	} `json:"pitch"`
	// PitchAccurate is the "very accurate" (Gaussian window) track, when
	// the reference has frames.
	PitchAccurate *struct {
		Frames int       `json:"frames"`
		T1     float64   `json:"t1"`
		Step   float64   `json:"step"`
		F0Hz   []float64 `json:"f0_hz"`
	} `json:"pitch_accurate,omitempty"`
	// Intensity is "To Intensity: 100, 0, yes" with its energy and dB
	// means and, with frames, every frame's value.
	Intensity struct {
		Frames       int       `json:"frames"`
		T1           float64   `json:"t1"`
		Step         float64   `json:"step"`
		MeanEnergyDB float64   `json:"mean_energy_db"`
		MeanDB       float64   `json:"mean_db"`
		DB           []float64 `json:"db"`
	} `json:"intensity"`
	// Syllables is the de Jong & Wempe nucleus count with its threshold,
	// phonation and pause time, speech span and nucleus times.
	Syllables struct {
		Count       int       `json:"count"`
		ThresholdDB float64   `json:"threshold_db"`
		PhonationS  float64   `json:"phonation_s"`
		PauseS      float64   `json:"pause_s"`
		SpanS       float64   `json:"span_s"`
		NucleiS     []float64 `json:"nuclei_s"`
	} `json:"syllables"`
}

// Path returns the file's path, resolved against the reference's folder.
func (r *PraatReference) Path(f PraatFile) string {
	if filepath.IsAbs(f.File) || r.Dir == "" {
		return f.File
	}
	return filepath.Join(r.Dir, f.File)
}

// LoadPraatReference reads a reference JSON written by
// scripts/praat-measure.praat.
func LoadPraatReference(path string) (*PraatReference, error) {
	b, err := fsx.ReadFile(path, fsx.MaxInput)
	if err != nil {
		return nil, fmt.Errorf("praat reference: %w", err)
	}
	var r PraatReference
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("praat reference %s: %w (expected the JSON of scripts/praat-measure.praat)", path, err)
	}
	if len(r.Files) == 0 {
		return nil, fmt.Errorf("praat reference %s: no files", path)
	}
	r.Dir = filepath.Dir(path)
	return &r, nil
}

// FileAgreement compares RolePrint and Praat on one file.
type FileAgreement struct {
	// File is the WAV file, as named in the reference.
	File string `json:"file"`
	// PitchFrames is the number of frames compared; BothVoiced those both
	// call voiced.
	PitchFrames int `json:"pitch_frames"`
	BothVoiced  int `json:"both_voiced"`
	// VoicingAgreement is the share of frames with the same voicing call.
	VoicingAgreement float64 `json:"voicing_agreement"`
	// MedianAbsDiffST is the median |ΔF0| in semitones over BothVoiced.
	MedianAbsDiffST float64 `json:"median_abs_diff_st"`
	// GrossErrors is the share of BothVoiced frames off by more than 20 %
	// (octave errors and the like).
	GrossErrors float64 `json:"gross_errors"`
	// MeanF0DiffHz is ours minus Praat's mean F0.
	MeanF0DiffHz float64 `json:"mean_f0_diff_hz"`
	// IntensityMeanDiffDB is ours minus Praat's mean intensity (energy).
	IntensityMeanDiffDB float64 `json:"intensity_mean_diff_db"`
	// IntensityMaxFrameDiffDB is the largest |Δ| over intensity frames
	// above Praat's maximum − 50 dB.
	IntensityMaxFrameDiffDB float64 `json:"intensity_max_frame_diff_db"`
	// Syllables and PraatSyllables are the nucleus counts.
	Syllables      int `json:"syllables"`
	PraatSyllables int `json:"praat_syllables"`
	// PauseRatio and PraatPauseRatio are the pause ratios.
	PauseRatio      float64 `json:"pause_ratio"`
	PraatPauseRatio float64 `json:"praat_pause_ratio"`
}

// MarshalJSON writes NaN as null.
func (f FileAgreement) MarshalJSON() ([]byte, error) { return stats.MarshalStruct(f) }

// Agreement summarises a comparison over many files. Pitch figures pool
// the frames of all files.
type Agreement struct {
	// Files is the number of files compared.
	Files int `json:"files"`
	// PitchFrames, BothVoiced, VoicingAgreement, MedianAbsDiffST and
	// GrossErrors are as in FileAgreement, pooled.
	PitchFrames      int     `json:"pitch_frames"`
	BothVoiced       int     `json:"both_voiced"`
	VoicingAgreement float64 `json:"voicing_agreement"`
	MedianAbsDiffST  float64 `json:"median_abs_diff_st"`
	// P95AbsDiffST is the 95th percentile of |ΔF0| in semitones.
	P95AbsDiffST float64 `json:"p95_abs_diff_st"`
	GrossErrors  float64 `json:"gross_errors"`
	// MaxIntensityMeanDiffDB is the largest |Δ mean intensity| of a file.
	MaxIntensityMeanDiffDB float64 `json:"max_intensity_mean_diff_db"`
	// MaxIntensityFrameDiffDB is the largest |Δ| of a loud frame.
	MaxIntensityFrameDiffDB float64 `json:"max_intensity_frame_diff_db"`
	// SyllableExact is the share of files with the same nucleus count;
	// SyllableMeanAbsDiff the mean |Δ count|.
	SyllableExact       float64 `json:"syllable_exact"`
	SyllableMeanAbsDiff float64 `json:"syllable_mean_abs_diff"`
	// MaxPauseRatioDiff is the largest |Δ pause ratio| of a file.
	MaxPauseRatioDiff float64 `json:"max_pause_ratio_diff"`
	// PerFile holds the per-file rows.
	PerFile []FileAgreement `json:"per_file"`
}

// MarshalJSON writes NaN as null.
func (a Agreement) MarshalJSON() ([]byte, error) { return stats.MarshalStruct(a) }

// CompareWithPraat analyses every file of ref with cfg and compares the
// results with Praat's. Frames are matched by time (nearest frame within
// half a step), so a different analysis rate (cfg.Rate) is allowed.
func CompareWithPraat(ref *PraatReference, cfg speech.Config) (*Agreement, error) {
	agg := &Agreement{Files: len(ref.Files)}
	var diffs []float64
	var agree, gross, sylExact, sylAbs float64
	for _, pf := range ref.Files {
		path := ref.Path(pf)
		s, err := speech.ReadWAV(path)
		if err != nil {
			return nil, err
		}
		if cfg.Rate > 0 && s.Rate != cfg.Rate {
			if s, err = speech.Resample(s, cfg.Rate, speech.ResampleConfig{}); err != nil {
				return nil, err
			}
		}
		fa, fd, err := compareFile(s, pf, cfg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		agg.PerFile = append(agg.PerFile, *fa)
		diffs = append(diffs, fd...)
		agg.PitchFrames += fa.PitchFrames
		agg.BothVoiced += fa.BothVoiced
		agree += fa.VoicingAgreement * float64(fa.PitchFrames)
		gross += fa.GrossErrors * float64(fa.BothVoiced)
		agg.MaxIntensityMeanDiffDB = math.Max(agg.MaxIntensityMeanDiffDB, math.Abs(fa.IntensityMeanDiffDB))
		agg.MaxIntensityFrameDiffDB = math.Max(agg.MaxIntensityFrameDiffDB, fa.IntensityMaxFrameDiffDB)
		if fa.Syllables == fa.PraatSyllables {
			sylExact++
		}
		sylAbs += math.Abs(float64(fa.Syllables - fa.PraatSyllables))
		if d := math.Abs(fa.PauseRatio - fa.PraatPauseRatio); !math.IsNaN(d) {
			agg.MaxPauseRatioDiff = math.Max(agg.MaxPauseRatioDiff, d)
		}
	}
	n := float64(len(ref.Files))
	agg.VoicingAgreement = agree / math.Max(1, float64(agg.PitchFrames))
	agg.GrossErrors = gross / math.Max(1, float64(agg.BothVoiced))
	agg.MedianAbsDiffST = speech.PraatQuantile(diffs, 0.5)
	agg.P95AbsDiffST = speech.PraatQuantile(diffs, 0.95)
	agg.SyllableExact = sylExact / n
	agg.SyllableMeanAbsDiff = sylAbs / n
	return agg, nil
}

// compareFile analyses one sound and compares it with Praat's figures; it
// also returns the |ΔF0| in semitones of every frame both call voiced.
func compareFile(s *speech.Sound, pf PraatFile, cfg speech.Config) (*FileAgreement, []float64, error) {
	if len(pf.Pitch.F0Hz) == 0 || len(pf.Intensity.DB) == 0 {
		return nil, nil, fmt.Errorf("praat reference has no frames (run praat-measure.praat with FRAMES = 1)")
	}
	p, err := speech.ToPitch(s, cfg.Pitch)
	if err != nil {
		return nil, nil, err
	}
	feats, err := speech.Analyze(s, "", cfg)
	if err != nil {
		return nil, nil, err
	}
	in, err := speech.ToIntensity(s, cfg.Intensity)
	if err != nil {
		return nil, nil, err
	}
	fa := &FileAgreement{File: pf.File, Syllables: feats.Syllables, PraatSyllables: pf.Syllables.Count,
		PauseRatio: feats.PauseRatio, PraatPauseRatio: math.NaN()}
	if pf.Syllables.SpanS > 0 {
		fa.PraatPauseRatio = pf.Syllables.PauseS / pf.Syllables.SpanS
	}
	var diffs []float64
	var agree, gross int
	for i, f0 := range pf.Pitch.F0Hz {
		t := pf.Pitch.T1 + float64(i)*pf.Pitch.Step
		j := int(math.Round((t - p.T1) / p.Step))
		if j < 0 || j >= len(p.F0) || math.Abs(p.Time(j)-t) > 0.5*p.Step {
			continue
		}
		fa.PitchFrames++
		ours := p.F0[j]
		if (ours > 0) == (f0 > 0) {
			agree++
		}
		if ours > 0 && f0 > 0 {
			fa.BothVoiced++
			d := math.Abs(12 * math.Log2(ours/f0))
			diffs = append(diffs, d)
			if math.Abs(ours/f0-1) > 0.2 {
				gross++
			}
		}
	}
	fa.VoicingAgreement = float64(agree) / math.Max(1, float64(fa.PitchFrames))
	fa.GrossErrors = float64(gross) / math.Max(1, float64(fa.BothVoiced))
	fa.MedianAbsDiffST = speech.PraatQuantile(diffs, 0.5)
	fa.MeanF0DiffHz = math.NaN()
	if pf.Pitch.MeanHz != nil {
		fa.MeanF0DiffHz = feats.F0MeanHz - *pf.Pitch.MeanHz
	}
	fa.IntensityMeanDiffDB = in.Mean(speech.AverageEnergy) - pf.Intensity.MeanEnergyDB
	top := math.Inf(-1)
	for _, v := range pf.Intensity.DB {
		top = math.Max(top, v)
	}
	for i, v := range pf.Intensity.DB {
		if v < top-50 {
			continue
		}
		t := pf.Intensity.T1 + float64(i)*pf.Intensity.Step
		j := int(math.Round((t - in.T1) / in.Step))
		if j < 0 || j >= len(in.DB) || math.Abs(in.Time(j)-t) > 0.5*in.Step {
			continue
		}
		fa.IntensityMaxFrameDiffDB = math.Max(fa.IntensityMaxFrameDiffDB, math.Abs(in.DB[j]-v))
	}
	sort.Float64s(diffs)
	return fa, diffs, nil
}
