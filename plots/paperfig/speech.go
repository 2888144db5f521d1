package paperfig

import (
	"fmt"
	"math"
	"sort"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/speech"
)

// Track is one named pitch track: speech.NamedPitch, so that
// speech.PitchFiles' result is the figures' input as it is.
type Track = speech.NamedPitch

// PitchContours draws F0 tracks over time, in semitones re 100 Hz (or Hz
// when hz is true), with gaps at voiceless frames.
func PitchContours(hz bool, tracks ...Track) (*plots.Lines, error) {
	var series []plots.LineSeries
	for _, tr := range tracks {
		if tr.Pitch == nil || len(tr.Pitch.F0) == 0 {
			return nil, fmt.Errorf("paperfig: pitch track %q is empty", tr.Name)
		}
		xy := make(trackXY, len(tr.Pitch.F0))
		for i, f := range tr.Pitch.F0 {
			y := math.NaN()
			if tr.Pitch.Voiced(i) {
				y = f
				if !hz {
					y = speech.HzToSemitones(f)
				}
			}
			xy[i] = [2]float64{tr.Pitch.Time(i), y}
		}
		series = append(series, plots.LineSeries{Name: tr.Name, XY: xy})
	}
	l, err := plots.NewLines(series...)
	if err != nil {
		return nil, err
	}
	l.Markers = false
	l.XLabel = "Time (s)"
	l.YLabel = "F0 (semitones re 100 Hz)"
	if hz {
		l.YLabel = "F0 (Hz)"
	}
	return l, nil
}

type trackXY [][2]float64

func (t trackXY) Len() int                    { return len(t) }
func (t trackXY) XY(i int) (float64, float64) { return t[i][0], t[i][1] }

// PitchBoxes draws the distribution of voiced F0 frames (semitones re 100
// Hz) of each named track as box plots, ordered by name.
func PitchBoxes(tracks ...Track) (*plots.Boxes, error) {
	sorted := append([]Track(nil), tracks...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var g plots.GroupSlice
	for _, tr := range sorted {
		var vs []float64
		if tr.Pitch != nil {
			for i, f := range tr.Pitch.F0 {
				if tr.Pitch.Voiced(i) {
					vs = append(vs, speech.HzToSemitones(f))
				}
			}
		}
		g = append(g, plots.Group{Name: tr.Name, Values: vs})
	}
	b, err := plots.NewBoxes(g)
	if err != nil {
		return nil, fmt.Errorf("paperfig: %w", err)
	}
	b.YLabel = "Voiced F0 (semitones re 100 Hz)"
	return b, nil
}
