package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

func init() {
	register(&command{
		Name:    "config",
		Summary: "list the settings of a Table 2 row or component (key, type, default, doc) and the named presets",
		Run:     runConfig,
	})
}

// Component names of `roleprint config` that are not encoders.
const (
	configPairs  = "pairs"  // pairs.PairConfig (--pair-set, "pairs.KEY")
	configTable2 = "table2" // table2.Config (preset keys without a scope)
)

// configListOutput is `roleprint config --json` without a name.
type configListOutput struct {
	Components []string        `json:"components"`
	NoSettings []string        `json:"no_settings"`
	Presets    []table2.Preset `json:"presets"`
}

// configKeysOutput is `roleprint config NAME --json`.
type configKeysOutput struct {
	Name   string        `json:"name"`
	Preset string        `json:"preset,omitempty"`
	Keys   []options.Key `json:"keys"`
}

// configPresetOutput is `roleprint config --preset NAME --json`.
type configPresetOutput struct {
	Preset   table2.Preset     `json:"preset"`
	Settings map[string]string `json:"settings"`
}

// runConfig prints the settings of one component, one preset, or the list
// of both.
func runConfig(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "config", "[NAME]")
	presetName := fs.String("preset", "", "show this preset's settings; with NAME, NAME's defaults with the preset applied")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("config takes at most one NAME (got %d)", fs.NArg())
	}
	var preset *table2.Preset
	if *presetName != "" {
		p, err := table2.PresetNamed(*presetName)
		if err != nil {
			return usagef("--preset: %v", err)
		}
		preset = &p
	}
	switch {
	case fs.NArg() == 1:
		return configKeys(e, fs.Arg(0), preset, *asJSON)
	case preset != nil:
		kv, err := preset.Resolved()
		if err != nil {
			return err
		}
		if *asJSON {
			return e.JSON(configPresetOutput{Preset: *preset, Settings: kv})
		}
		fmt.Fprintf(e.Stdout(), "preset %s: %s\n", preset.Name, preset.Doc)
		if preset.Base != "" {
			fmt.Fprintf(e.Stdout(), "based on: %s\n", preset.Base)
		}
		if preset.Quick {
			fmt.Fprintln(e.Stdout(), "rows: the --quick selection")
		}
		for _, k := range slices.Sorted(maps.Keys(kv)) {
			fmt.Fprintf(e.Stdout(), "  %s=%s\n", k, kv[k])
		}
		return nil
	}
	out := configListOutput{Components: []string{configTable2, configPairs}, NoSettings: []string{}, Presets: table2.Presets()}
	for _, n := range sv.EncoderNames() {
		if sv.HasOptions(n) {
			out.Components = append(out.Components, n)
		} else {
			out.NoSettings = append(out.NoSettings, n)
		}
	}
	if *asJSON {
		return e.JSON(out)
	}
	fmt.Fprintf(e.Stdout(), "components (roleprint config NAME; x_ft has x's keys): %s\n", strings.Join(out.Components, ", "))
	fmt.Fprintf(e.Stdout(), "encoders without typed settings: %s\n", strings.Join(out.NoSettings, ", "))
	fmt.Fprintln(e.Stdout(), "presets (roleprint reproduce --preset NAME; roleprint config --preset NAME):")
	for _, p := range out.Presets {
		fmt.Fprintf(e.Stdout(), "  %-9s %s\n", p.Name, p.Doc)
	}
	return nil
}

// configKeys prints the keys of component name, with preset's settings
// for it applied to the defaults when preset is not nil.
func configKeys(e *env, name string, preset *table2.Preset, asJSON bool) error {
	var keys []options.Key
	cfg := table2.DefaultConfig()
	pairs := pairs.DefaultPairConfig()
	if preset != nil {
		if _, err := preset.Apply(&cfg, &pairs); err != nil {
			return err
		}
	}
	switch name {
	case configTable2:
		keys = options.Keys(cfg)
	case configPairs:
		keys = options.Keys(pairs)
	default:
		base, _ := sv.SplitFineTuned(name)
		if !slices.Contains(sv.EncoderNames(), base) {
			return usagef("unknown component %q (known: %s, %s)", name, configTable2+", "+configPairs, strings.Join(sv.EncoderNames(), ", "))
		}
		if !sv.HasOptions(name) {
			return usagef("%s has no typed settings (it reads none, or its model reads them itself; see docs/reproduce.md)", name)
		}
		opts := sv.EncoderOptions{}
		if preset != nil {
			opts.Settings = cfg.RowSettingsFor(name)
		}
		v, err := sv.ResolveOptions(name, opts)
		if err != nil {
			return err
		}
		keys = options.Keys(v)
	}
	out := configKeysOutput{Name: name, Keys: keys}
	if preset != nil {
		out.Preset = preset.Name
	}
	if asJSON {
		return e.JSON(out)
	}
	tw := tabwriter.NewWriter(e.Stdout(), 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tTYPE\tDEFAULT\tDOC")
	for _, k := range keys {
		def := k.Default
		if def == "" {
			def = `""`
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", k.Name, k.Type, def, k.Doc)
	}
	return tw.Flush()
}
