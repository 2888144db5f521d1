package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

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
