package main

import (
	"flag"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/report"
)

// llmVerifyOutputs are llm-verify's paper-output flags: --out turns them on.
type llmVerifyOutputs struct {
	out   *string
	flags *outputFlags
}

// addLLMVerifyOutputFlags registers --out, --figures (unused: Table 1 has
// no figure) and --latex on llm-verify's flags.
func addLLMVerifyOutputFlags(fs *flag.FlagSet) *llmVerifyOutputs {
	return &llmVerifyOutputs{
		out:   fs.String("out", "", "write Table 1 as table1.tex and table1.md (the paper's rows of the test level in italics) into this folder"),
		flags: addOutputFlags(fs, false),
	}
}

// write writes Table 1 into --out (nothing when --out is not set); the
// paper's rows are those of the level named by testKey
// ("unseen-unseen-harder" → Harder; Base when it names none).
func (o *llmVerifyOutputs) write(e *env, model string, out *llmVerifyOutput, testKey string) error {
	if *o.out == "" {
		if *o.flags.latex != "" {
			return usagef("--latex needs --out (the folder the tables are written to)")
		}
		return nil
	}
	w, err := o.flags.writer(e, *o.out)
	if err != nil {
		return err
	}
	level := pairs.Base
	for _, l := range pairs.Levels {
		if strings.HasSuffix(testKey, "-"+string(l)) {
			level = l
		}
	}
	if err := w.Table(report.Table1(model, out.Results, level, o.flags.paperRows())); err != nil {
		return err
	}
	files, err := o.flags.finish(w, nil)
	if err != nil {
		return err
	}
	e.Logf("llm-verify: wrote %s to %s", strings.Join(files, ", "), *o.out)
	return nil
}
