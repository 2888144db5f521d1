package internal_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/roleprint/roleprint"

// groups puts every package of the module into a layer group, by the
// longest matching path prefix (relative to the module root). A package
// that matches none fails the test, so a new top-level folder must be
// placed here.
var groups = []struct{ prefix, group string }{
	{"internal", "internal"},
	{"stats", "stats"},
	{"data", "data"},
	{"llm", "llm"},
	{"speech/frontend", "frontend"},
	{"speech/spkemb", "frontend"},
	{"speech", "speech"},
	{"sv/encoder", "encoder"},
	{"sv/table2", "table2"},
	{"sv/evaluate", "table2"},
	{"sv", "sv"},
	{"persona/llmverify", "llmverify"},
	{"persona", "persona"},
	{"plots/paperfig", "paperfig"},
	{"plots", "plots"},
	{"report", "report"},
	{"kernel", "kernel"},
	{"cmd", "cmd"},
	{"scripts", "cmd"},
}

// below lists, per group, the groups its packages may import (besides
// their own). The layers, bottom up:
//
//	internal, stats, sv/encoder  leaves: nothing of ours (internal: only itself)
//	data                         the schema, importers, pairs, catalog, assets
//	speech                       the signal-processing core: nothing of ours but the leaves
//	llm                          chat, transcription and speech over OpenAI-compatible
//	                             endpoints: retries, cache, redaction, limits
//	speech/frontend | sv         side by side: neither imports the other; sv imports no persona;
//	                             the front end (files, ffmpeg, ASR/TTS, corpora, and speech/spkemb's
//	                             speaker models from the Hub cache) is over speech, data and llm
//	sv/table2                    the Table 2 runner, over the sv core; no other sv package
//	                             imports it: a model package (sv/baseline, sv/neural,
//	                             sv/uselite, sv/verifier) describes its rows with sv.Row and
//	                             sv.RegisterRow, which the runner reads, so models never
//	                             depend on the experiment that runs them; sv/evaluate (a frozen
//	                             verifier on new corpora) sits beside it, over sv/verifier
//	persona                      may use speech, its front end and the small sv/encoder, not sv itself
//	persona/llmverify            a persona package kept apart: it uses the sv/encoder Progress, not sv
//	plots                        a leaf of figures (internal only)
//	plots/paperfig               adapts result types to figures: above sv/speech/persona
//	report                       tables and report pages; imported by kernel, so below it
//	kernel                       notebooks and display, over report and plots
//	cmd, scripts                 the CLI and tools, over everything; nothing imports a
//	                             package under cmd/ (library code lives in the library)
//
// report sits between plots and kernel because kernel (papertable.go,
// show.go) imports it and report imports plots/paperfig; nothing else
// imports report except cmd.
var below = map[string][]string{
	"internal":  {},
	"stats":     {},
	"encoder":   {},
	"data":      {"internal", "stats"},
	"speech":    {"internal", "stats"},
	"llm":       {"internal", "stats", "data"},
	"frontend":  {"internal", "stats", "data", "llm", "speech"},
	"sv":        {"internal", "stats", "data", "encoder"},
	"table2":    {"internal", "stats", "data", "encoder", "sv"},
	"persona":   {"internal", "stats", "data", "llm", "speech", "frontend", "encoder"},
	"llmverify": {"internal", "stats", "data", "llm", "speech", "frontend", "encoder", "persona"},
	"plots":     {"internal"},
	"paperfig":  {"internal", "stats", "data", "llm", "speech", "frontend", "encoder", "sv", "table2", "persona", "llmverify", "plots"},
	"report":    {"internal", "stats", "data", "llm", "speech", "frontend", "encoder", "sv", "table2", "persona", "llmverify", "plots", "paperfig"},
	"kernel":    {"internal", "stats", "data", "llm", "speech", "frontend", "encoder", "sv", "table2", "persona", "llmverify", "plots", "paperfig", "report"},
	"cmd":       {"internal", "stats", "data", "llm", "speech", "frontend", "encoder", "sv", "table2", "persona", "llmverify", "plots", "paperfig", "report", "kernel"},
}

// forbidden are single imports the groups allow but the layering does
// not: a data-side API (data/corpus) serves kernel, so kernel does not
// reach for the importers itself.
var forbidden = map[string][]string{
	"kernel": {"data/importers"},
}

func groupOf(rel string) (string, bool) {
	best, group := -1, ""
	for _, g := range groups {
		if (rel == g.prefix || strings.HasPrefix(rel, g.prefix+"/")) && len(g.prefix) > best {
			best, group = len(g.prefix), g.group
		}
	}
	return group, best >= 0
}

type listedPackage struct {
	ImportPath string
	Imports    []string
	Error      *struct{ Err string }
}

// listPackages runs go list over the module: every package with its
// non-test imports.
func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH")
	}
	cmd := exec.Command(goTool, "list", "-e", "-json=ImportPath,Imports,Error", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bufio.NewReader(bytes.NewReader(out)))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; expected the whole module", len(pkgs))
	}
	return pkgs
}

// importsCmd reports whether package rel imports irel under cmd/ from
// another command's folder or from outside cmd/: what a command needs
// from another belongs in the library.
func importsCmd(rel, irel string) bool {
	top := func(p string) string {
		parts := strings.SplitN(p, "/", 3)
		if len(parts) < 2 {
			return p
		}
		return parts[0] + "/" + parts[1]
	}
	return strings.HasPrefix(irel, "cmd/") && top(rel) != top(irel)
}

// violations returns one line per import that goes against the table.
func violations(pkgs []listedPackage) []string {
	var bad []string
	for _, p := range pkgs {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue
		}
		from, ok := groupOf(rel)
		if !ok {
			bad = append(bad, rel+": in no layer group (add its folder to groups in internal/layers_test.go)")
			continue
		}
		for _, imp := range p.Imports {
			irel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			to, ok := groupOf(irel)
			switch {
			case !ok:
				bad = append(bad, rel+" imports "+irel+", which is in no layer group")
			case importsCmd(rel, irel):
				bad = append(bad, rel+" ("+from+") imports "+irel+": nothing imports a package under cmd/")
			case to != from && !slices.Contains(below[from], to):
				bad = append(bad, rel+" ("+from+") imports "+irel+" ("+to+"): not a layer below")
			case slices.Contains(forbidden[from], irel):
				bad = append(bad, rel+" ("+from+") imports "+irel+": forbidden (see forbidden)")
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestImportDirections fails when a package imports a package of a higher
// (or sideways) layer: data → stats/sv/speech/persona → plots → report →
// kernel → cmd, with the finer rules of below and forbidden.
func TestImportDirections(t *testing.T) {
	pkgs := listPackages(t)
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
	t.Logf("%d packages checked", len(pkgs))
}

// TestViolationsCatchesUpwardImports checks the checker on made-up
// packages: imports from sv into llm, from the speech core into llm,
// persona or its own front end, from the front end into persona, from
// stats into data, from kernel into data/importers, from a model package
// into the Table 2 runner and from a tool into the CLI are reported;
// allowed ones are not.
func TestViolationsCatchesUpwardImports(t *testing.T) {
	m := func(s string) string { return module + "/" + s }
	pkgs := []listedPackage{
		{ImportPath: m("sv"), Imports: []string{m("llm"), m("stats"), "fmt"}},
		{ImportPath: m("speech"), Imports: []string{m("persona/judge"), m("llm"), m("speech/frontend"), m("stats")}},
		{ImportPath: m("speech/frontend"), Imports: []string{m("speech"), m("llm"), m("persona")}},
		{ImportPath: m("data"), Imports: []string{m("cmd/roleprint")}},
		{ImportPath: m("stats"), Imports: []string{m("data")}},
		{ImportPath: m("kernel"), Imports: []string{m("data/importers"), m("report")}},
		{ImportPath: m("persona/textmetrics"), Imports: []string{m("sv"), m("sv/encoder")}},
		{ImportPath: m("newtop"), Imports: nil},
		{ImportPath: m("sv/neural"), Imports: []string{m("sv/table2"), m("sv")}},
		{ImportPath: m("scripts/tool"), Imports: []string{m("cmd/roleprint"), m("kernel")}},
		{ImportPath: m("cmd/roleprint"), Imports: []string{m("sv/table2"), m("kernel")}},
	}
	got := violations(pkgs)
	want := []string{
		"data (data) imports cmd/roleprint: nothing imports a package under cmd/",
		"kernel (kernel) imports data/importers: forbidden (see forbidden)",
		"newtop: in no layer group (add its folder to groups in internal/layers_test.go)",
		"persona/textmetrics (persona) imports sv (sv): not a layer below",
		"scripts/tool (cmd) imports cmd/roleprint: nothing imports a package under cmd/",
		"speech (speech) imports llm (llm): not a layer below",
		"speech (speech) imports persona/judge (persona): not a layer below",
		"speech (speech) imports speech/frontend (frontend): not a layer below",
		"speech/frontend (frontend) imports persona (persona): not a layer below",
		"stats (stats) imports data (data): not a layer below",
		"sv (sv) imports llm (llm): not a layer below",
		"sv/neural (sv) imports sv/table2 (table2): not a layer below",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
