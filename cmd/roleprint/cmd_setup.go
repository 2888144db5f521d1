package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/assets"
)

func init() {
	register(&command{
		Name:    "setup",
		Summary: "install pretrained assets (GloVe, USE-Lite, ONNX Runtime) into the user cache, or Hub models (--model)",
		Run:     runSetup,
	})
}

// runSetup installs the named setup steps, or all of them. Steps already in
// place are skipped unless --force is given.
func runSetup(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "setup", "[STEP...]")
	force := fs.Bool("force", false, "reinstall steps that are already installed")
	list := fs.Bool("list", false, "list the steps and whether each is installed, then stop")
	var models modelList
	fs.Var(&models, "model", "fetch a Hugging Face Hub model into the Hugging Face cache: ORG/NAME[@REVISION] or a paper row ("+
		strings.Join(paperRowNames(), ", ")+"); repeatable or comma-separated (HF_ENDPOINT, HF_TOKEN, HF_HUB_CACHE apply)")
	asJSON := fs.Bool("json", false, "with --model: print one JSON object {models: [...]}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(models) > 0 {
		if fs.NArg() > 0 || *list {
			return usagef("--model fetches models only; run the setup steps (%s) in a separate call", strings.Join(fs.Args(), " "))
		}
		return setupModels(ctx, e, models, *asJSON)
	}
	all := assets.Steps()
	byName := map[string]assets.Step{}
	var names []string
	for _, s := range all {
		byName[s.Name] = s
		names = append(names, s.Name)
	}
	if *list {
		dir, _ := assets.CacheDir()
		fmt.Fprintf(e.Stdout(), "cache: %s\n", dir)
		for _, s := range all {
			state := "missing"
			if s.Installed() {
				state = "installed"
			}
			fmt.Fprintf(e.Stdout(), "  %-12s %-9s %s\n", s.Name, state, s.Describe)
		}
		return nil
	}
	todo := all
	if fs.NArg() > 0 {
		todo = nil
		for _, n := range fs.Args() {
			s, ok := byName[n]
			if !ok {
				return usagef("unknown setup step %q (known: %s)", n, strings.Join(names, ", "))
			}
			todo = append(todo, s)
		}
	}
	for _, s := range todo {
		if !*force && s.Installed() {
			e.Logf("setup %s: already installed", s.Name)
			continue
		}
		e.Logf("setup %s: %s", s.Name, s.Describe)
		if err := s.Run(ctx, e.Logf); err != nil {
			return fmt.Errorf("setup %s: %w", s.Name, err)
		}
		e.Logf("setup %s: done", s.Name)
	}
	return nil
}
