package main

import (
	"flag"

	"github.com/roleprint/roleprint/data/corpusstats"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/report"
)

// pairsWriteOutputs writes the pairs job's Table 5 figure and
// table5.tex/.md into its --out folder beside the pair files.
func pairsWriteOutputs(e *env, o *outputFlags, st pairs.PairStatistics, dir string) error {
	w, err := o.writer(e, dir)
	if err != nil {
		return err
	}
	if err := report.WritePairs(w, st, true); err != nil {
		return err
	}
	_, err = o.finish(w, nil)
	return err
}

// statsOutputs are the stats job's paper-output flags: --out turns them on.
type statsOutputs struct {
	out   *string
	flags *outputFlags
}

func addStatsOutputFlags(fs *flag.FlagSet) *statsOutputs {
	return &statsOutputs{
		out:   fs.String("out", "", "write the Table 4 figure (utterances, turns per conversation by dataset) and table4.tex/.md into this folder"),
		flags: addOutputFlags(fs, false),
	}
}

// write writes Table 4's figure and table into --out (nothing without it).
func (s *statsOutputs) write(e *env, st *corpusstats.Stats) error {
	if *s.out == "" {
		return nil
	}
	w, err := s.flags.writer(e, *s.out)
	if err != nil {
		return err
	}
	if err := report.WriteStats(w, st, true); err != nil {
		return err
	}
	files, err := s.flags.finish(w, nil)
	if err == nil {
		e.Logf("stats: wrote %s", joinFiles(*s.out, files))
	}
	return err
}
