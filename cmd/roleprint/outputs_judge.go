package main

import (
	"flag"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/report"
)

// judgeOutputs are the judge job's paper-output flags: --paper-out turns them on.
type judgeOutputs struct {
	out   *string
	flags *outputFlags
}

func addJudgeOutputFlags(fs *flag.FlagSet) *judgeOutputs {
	return &judgeOutputs{
		out:   fs.String("paper-out", "", "write the judge figure (scores per dimension and system; ablation: score by context length) and its LaTeX table into this folder"),
		flags: addOutputFlags(fs, false),
	}
}

// write writes the judge run's figure and table into --paper-out
// (nothing without it).
func (j *judgeOutputs) write(e *env, out *judgeJSON) error {
	if *j.out == "" {
		return nil
	}
	w, err := j.flags.writer(e, *j.out)
	if err != nil {
		return err
	}
	if out.Protocol == "ablation" {
		w.TryFigure("context-ablation", "Mean judge score by context length.",
			func() (plots.Figure, error) { return report.AblationLines(out.Agent, out.Ks, out.Overall) }, report.OneColumn, 0.7)
		if err := w.Table(report.AblationTable(out.Agent, out.Ks, out.Overall)); err != nil {
			return err
		}
	} else {
		var systems []report.JudgeSystem
		for _, s := range out.Systems {
			systems = append(systems, report.JudgeSystem{System: s.System, N: s.N, Scores: s.Scores, Overall: s.Overall})
		}
		w.TryFigure(out.Protocol+"-judge", "Judge scores per dimension and system.",
			func() (plots.Figure, error) { return report.JudgeBars(out.Dimensions, systems) }, report.TwoColumn, 0.4)
		if err := w.Table(report.JudgeTable(out.Protocol, out.Judge, out.Dimensions, systems, true)); err != nil {
			return err
		}
	}
	files, err := j.flags.finish(w, nil)
	if err == nil {
		e.Logf("judge: wrote %s", joinFiles(*j.out, files))
	}
	return err
}
