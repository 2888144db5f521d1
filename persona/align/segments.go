package align

// SegmentOptions tune Segments. Zero fields take the defaults.
type SegmentOptions struct {
	// MinTurns is the fewest lines a segment has. Default 3 (VoxRole).
	MinTurns int
	// MaxGap is the longest silence, in seconds, between consecutive
	// lines of one segment. Default 10.
	MaxGap float64
}

// Segment is a run of consecutive valid lines between exactly two
// speakers.
type Segment struct {
	Scene    string    `json:"scene,omitempty"`
	Speakers [2]string `json:"speakers"`
	// Lines are indices into Alignment.Lines.
	Lines []int   `json:"lines"`
	Turns int     `json:"turns"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Segments extracts the maximal runs of consecutive valid lines of one
// scene spoken by exactly two speakers, each speaking at least once, with
// at least MinTurns lines and no gap longer than MaxGap. An invalid line,
// a third speaker, a scene change or a long gap ends a run; a run ended
// by a third speaker restarts from the last two speakers' tail, so an
// A-B-A-B-C-B-C exchange yields A-B-A-B and B-C-B-C.
func Segments(a *Alignment, opts SegmentOptions) []Segment {
	if opts.MinTurns <= 0 {
		opts.MinTurns = 3
	}
	if opts.MaxGap <= 0 {
		opts.MaxGap = 10
	}
	var out []Segment
	var run []int
	flush := func() {
		if len(run) < opts.MinTurns {
			return
		}
		sp := speakers(a, run)
		if len(sp) != 2 {
			return
		}
		f, l := a.Lines[run[0]], a.Lines[run[len(run)-1]]
		out = append(out, Segment{Scene: f.Scene, Speakers: [2]string{sp[0], sp[1]}, Lines: append([]int(nil), run...),
			Turns: len(run), Start: *f.Start, End: *l.End})
	}
	for i := range a.Lines {
		l := a.Lines[i]
		if !l.Valid || l.Start == nil {
			flush()
			run = nil
			continue
		}
		if len(run) > 0 {
			p := a.Lines[run[len(run)-1]]
			if p.Scene != l.Scene || *l.Start-*p.End > opts.MaxGap {
				flush()
				run = nil
			}
		}
		run = append(run, i)
		if len(speakers(a, run)) > 2 {
			// Keep the longest tail of the run with two speakers.
			head := run[:len(run)-1]
			flush2 := run
			run = head
			flush()
			run = flush2
			k := len(run) - 1
			for k > 0 && len(speakers(a, run[k-1:])) <= 2 {
				k--
			}
			run = append([]int(nil), run[k:]...)
		}
	}
	flush()
	return out
}

// speakers returns the distinct speakers of the lines in order.
func speakers(a *Alignment, idx []int) []string {
	var out []string
	for _, i := range idx {
		s := a.Lines[i].Speaker
		found := false
		for _, o := range out {
			if o == s {
				found = true
				break
			}
		}
		if !found {
			out = append(out, s)
		}
	}
	return out
}
