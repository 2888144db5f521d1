package main

import (
	"flag"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/report"
	"github.com/roleprint/roleprint/speech"
)

// speechOutputs are speech profile's paper-output flags: --out turns them on.
type speechOutputs struct {
	out   *string
	flags *outputFlags
}

func addSpeechOutputFlags(fs *flag.FlagSet) *speechOutputs {
	return &speechOutputs{
		out:   fs.String("out", "", "write the acoustic profile figure (pitch, energy, rate with the 20/60/20 bins) and speech-profile.tex/.md into this folder"),
		flags: addOutputFlags(fs, false),
	}
}

// write writes the profile figure and table into --out (nothing without it).
func (s *speechOutputs) write(e *env, profiles []speech.Profile) error {
	if *s.out == "" {
		return nil
	}
	w, err := s.flags.writer(e, *s.out)
	if err != nil {
		return err
	}
	w.TryFigure("speech-profile", "Acoustic profiles: mean F0, intensity and speaking rate per character, in order of mean F0 in every panel; colour and shape: the 20/60/20 bin; dotted: the bins' edges.",
		func() (plots.Figure, error) { return report.ProfileFigure(profiles, 0) }, report.TwoColumn, 0.45)
	if err := w.Table(report.ProfileTable(profiles)); err != nil {
		return err
	}
	files, err := s.flags.finish(w, nil)
	if err != nil {
		return err
	}
	e.Logf("speech profile: wrote %s", joinFiles(*s.out, files))
	return nil
}
