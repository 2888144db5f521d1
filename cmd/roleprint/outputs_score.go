package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv"

	"github.com/roleprint/roleprint/report"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// scoreOutputs are score's paper-output flags: --out turns them on.
type scoreOutputs struct {
	out     *string
	flags   *outputFlags
	started time.Time
}

// addScoreOutputFlags registers --out, --figures, --latex, --no-html and
// --no-paper-rows on score's flags.
func addScoreOutputFlags(fs *flag.FlagSet) *scoreOutputs {
	return &scoreOutputs{
		out:     fs.String("out", "", "write Figures 1–2, the Table 3 bars, the Simulation Rank heatmap, table3/table6/table7 (.tex, .md) and report.html into this folder"),
		flags:   addOutputFlags(fs, true),
		started: time.Now(),
	}
}

// write writes score's figures, tables and page into --out (nothing when
// --out is not set). rep must still hold its distributions' values.
func (s *scoreOutputs) write(e *env, rep *roleplay.Report, args, rankRoles []string) error {
	if *s.out == "" {
		if *s.flags.latex != "" {
			return usagef("--latex needs --out (the folder the tables are written to)")
		}
		return nil
	}
	w, err := s.flags.writer(e, *s.out)
	if err != nil {
		return err
	}
	if err := report.WriteRoleplay(w, rep, s.flags.paperRows(), rankRoles); err != nil {
		return err
	}
	command := append([]string{"roleprint", "score"}, args...)
	info := newRunInfo(command, s.started, rep.Config)
	info.Outputs = append(w.Files(), report.HTMLFile)
	var models []string
	for _, m := range rep.Models {
		models = append(models, m.Model)
	}
	page := &report.Page{Title: "RolePrint score: role-play agents (Tables 3, 6, 7; Figures 1, 2)", Command: command, Manifest: info,
		Facts: [][2]string{{"Encoder", rep.Encoder}, {"Models", strings.Join(models, ", ")}, {"Seed", fmt.Sprint(rep.Config.Seed)},
			{"Bootstrap", fmt.Sprint(rep.Config.Bootstrap)}, {"Wall time", fmt.Sprintf("%.1f s", info.Seconds)}},
		Notes: rep.Notes}
	files, err := s.flags.finish(w, page)
	if err != nil {
		return err
	}
	e.Logf("score: wrote %s", joinFiles(*s.out, files))
	return nil
}

// chunkedDistributions replaces rep's similarity distributions (Figures 1
// and 2) with those of chunked sets when rep was scored otherwise: under
// the paper's grouping every model role is one set, so no two generated
// sets share a role and Figure 2 would have no same-role pairs; the
// figures compare sets of like size (cfg.SetSize utterances) instead, as
// the notebooks do. The scores themselves are not touched.
func chunkedDistributions(ctx context.Context, e *env, enc sv.Encoder, real, gen []data.Utterance, cfg roleplay.Config, rep *roleplay.Report) error {
	if cfg.Grouping == roleplay.GroupChunks {
		return nil
	}
	cfg.Grouping = roleplay.GroupChunks
	cfg.Bootstrap = 0
	progress, finish := e.progress("score: distributions (sets of " + fmt.Sprint(cfg.SetSize) + ")")
	chunked, err := roleplay.Score(ctx, enc, real, gen, cfg, progress)
	finish()
	if err != nil {
		return fmt.Errorf("score: distributions for Figures 1–2: %w", err)
	}
	rep.Distributions = chunked.Distributions
	rep.Notes = append(rep.Notes, fmt.Sprintf("Figures 1–2 (similarity distributions) use chunked sets of %d utterances: under the %s grouping each model role is one set", cfg.SetSize, rep.Config.Grouping))
	return nil
}
