package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/sv"

	"github.com/roleprint/roleprint/report"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// scoreOutputs are score's paper-output flags: --out turns them on.
type scoreOutputs struct {
	out        *string
	flags      *outputFlags
	figureSets string
	started    time.Time
}

// addScoreOutputFlags registers --out, --figure-sets, --figures,
// --figure-size, --dpi, --latex, --no-html and --no-paper-rows on score's
// flags.
func addScoreOutputFlags(fs *flag.FlagSet) *scoreOutputs {
	s := &scoreOutputs{
		out:        fs.String("out", "", "write Figures 1–2, the Table 3 bars, the Simulation Rank heatmap, table3/table6/table7 (.tex, .md), manifest.json and report.html into this folder"),
		figureSets: "scored",
		flags:      addOutputFlags(fs, true),
		started:    time.Now(),
	}
	fs.Func("figure-sets", "sets behind Figures 1–2 and --distributions: scored (default: the sets Table 3 scores, from the one embedding pass) or chunks (chunked sets of --set-size, scored a second time; labelled as such)",
		func(v string) error {
			if v != "scored" && v != "chunks" {
				return fmt.Errorf("want scored or chunks, not %q", v)
			}
			s.figureSets = v
			return nil
		})
	return s
}

// chunked reports whether Figures 1–2 come from chunked sets
// (--figure-sets chunks).
func (s *scoreOutputs) chunked() bool { return s.figureSets == "chunks" }

// write writes score's figures, tables and page into --out (nothing when
// --out is not set). rep must still hold its distributions' values.
func (s *scoreOutputs) write(e *env, rep *roleplay.Report, args, rankRoles []string) error {
	if *s.out == "" {
		if *s.flags.latex != "" {
			return usagef("--latex needs --out (the folder the tables are written to)")
		}
		return nil
	}
	manifest := filepath.Join(*s.out, scoreManifest)
	previous, err := report.ManifestOutputs(manifest, "score")
	if err != nil {
		return err
	}
	w, err := s.flags.writer(e, *s.out)
	if err != nil {
		return err
	}
	if s.chunked() && rep.Config.Grouping != roleplay.GroupChunks {
		w.FigureOptions.DistributionSets = fmt.Sprintf("chunked sets of %d utterances (--figure-sets chunks), not the %s grouping's sets that Table 3 scores", rep.Config.SetSize, rep.Config.Grouping)
	}
	if err := report.WriteRoleplay(w, rep, s.flags.paperRows(), rankRoles); err != nil {
		return err
	}
	command := append([]string{"roleprint", "score"}, args...)
	info := newRunInfo(command, s.started, rep.Config)
	info.Outputs = append(w.Files(), scoreManifest)
	if !*s.flags.noHTML {
		info.Outputs = append(info.Outputs, report.HTMLFile)
	}
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
	js, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return fmt.Errorf("score: encoding %s: %w", scoreManifest, err)
	}
	if err := fsx.WriteFile(manifest, append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("score: %w", err)
	}
	if err := removeStale(e, *s.out, previous, info.Outputs); err != nil {
		return err
	}
	e.Logf("score: wrote %s", joinFiles(*s.out, append(files, scoreManifest)))
	return nil
}

// scoreManifest is the manifest score --out writes: command, versions,
// configuration and the files written (its "outputs"; a rerun into the
// same folder deletes those it no longer writes).
const scoreManifest = "manifest.json"

// chunkedDistributions replaces rep's similarity distributions (Figures 1
// and 2) with those of chunked sets when rep was scored otherwise
// (--figure-sets chunks): under the paper's grouping every model role is
// one set, so no two generated sets share a role and Figure 2 shows only
// pairs of different roles (what Distinction averages); chunked sets of
// like size (cfg.SetSize utterances) give it same-role pairs too, at the
// cost of a second scoring pass. The scores themselves are not touched.
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
