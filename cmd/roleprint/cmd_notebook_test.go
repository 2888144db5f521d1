package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/kernel"
)

const nbFixtures = "../../kernel/nbcheck/testdata/"

func runNotebookCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestNotebookCheck(t *testing.T) {
	if code, out, errs := runNotebookCLI(t, "notebook", "check", nbFixtures+"good.ipynb"); code != 0 {
		t.Fatalf("good: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ := runNotebookCLI(t, "notebook", "check", "--json", nbFixtures+"broken.ipynb")
	if code != 1 {
		t.Fatalf("broken: exit %d", code)
	}
	var v struct {
		OK        bool             `json:"ok"`
		Notebooks []map[string]any `json:"notebooks"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.OK || len(v.Notebooks) != 1 {
		t.Fatalf("json %v: %s", err, out)
	}
	if code, _, _ := runNotebookCLI(t, "notebook", "check"); code != 2 {
		t.Errorf("no files: exit %d, want 2", code)
	}
	if code, _, _ := runNotebookCLI(t, "notebook", "frobnicate"); code != 2 {
		t.Errorf("unknown verb: exit %d, want 2", code)
	}
}

func TestNotebookSetupDryRun(t *testing.T) {
	code, out, errs := runNotebookCLI(t, "notebook", "setup", "--dry-run", "--gobin", "/opt/bin")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"go mod download -json github.com/janpfeifer/gonb@" + gonbVersion(),
		"go build -o /opt/bin/gonb .",
		"go install golang.org/x/tools/cmd/goimports@" + defaultGoimportsVersion,
		"/opt/bin/gonb --install --force_deps --raw_error",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if v := gonbVersion(); v != "v0.11.4" {
		t.Errorf("GoNB version %q, want the go.mod pin v0.11.4", v)
	}
}

// TestNotebookRun runs `notebook run` with a stand-in jupyter that "executes"
// a notebook by copying a fixture to the output path nbconvert would write,
// so the command's wiring (arguments, environment, checking) is tested
// without GoNB.
func TestNotebookRun(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		code    int
	}{{"good", 0}, {"broken", 1}} {
		bin := t.TempDir()
		fixture, _ := filepath.Abs(nbFixtures + tc.fixture + ".ipynb")
		envLog := filepath.Join(bin, "env.log")
		script := `#!/bin/sh
# args: nbconvert --to notebook --execute --allow-errors --ExecutePreprocessor.timeout=N --output-dir DIR --output NAME INPUT
dir=""; name=""
while [ $# -gt 0 ]; do
  case "$1" in
    --output-dir) dir="$2"; shift ;;
    --output) name="$2"; shift ;;
  esac
  shift
done
echo "quick=$ROLEPRINT_QUICK out=$ROLEPRINT_OUT" >> ` + envLog + `
cp ` + fixture + ` "$dir/$name.ipynb"
`
		if err := os.WriteFile(filepath.Join(bin, "jupyter"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		nbDir := t.TempDir()
		input := filepath.Join(nbDir, "01-test.ipynb")
		os.WriteFile(input, []byte(`{"cells": [], "metadata": {}, "nbformat": 4}`), 0o644)
		out := t.TempDir()
		code, stdout, stderr := runNotebookCLI(t, "notebook", "run", "--quick", "--json", "--out", out, input)
		if code != tc.code {
			t.Fatalf("%s: exit %d, want %d\n%s%s", tc.fixture, code, tc.code, stdout, stderr)
		}
		var v struct {
			OK        bool `json:"ok"`
			Notebooks []struct {
				Name, Executed string
				OK             bool
			} `json:"notebooks"`
		}
		if err := json.Unmarshal([]byte(stdout), &v); err != nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		if v.OK != (tc.code == 0) || len(v.Notebooks) != 1 || v.Notebooks[0].Name != "01-test" ||
			v.Notebooks[0].Executed != filepath.Join(out, "executed", "01-test.ipynb") {
			t.Errorf("%s: %+v", tc.fixture, v)
		}
		logged, _ := os.ReadFile(envLog)
		if want := "quick=1 out=" + out; !strings.Contains(string(logged), want) {
			t.Errorf("environment passed to jupyter: %q, want %q", logged, want)
		}
	}
}

func TestNotebookList(t *testing.T) {
	code, out, errs := runNotebookCLI(t, "notebook", "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		Notebooks []notebookInfo `json:"notebooks"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Notebooks) < 7 {
		t.Fatalf("%d notebooks: %+v", len(v.Notebooks), v.Notebooks)
	}
	for i, n := range v.Notebooks {
		if !strings.HasPrefix(n.Name, fmt.Sprintf("%02d-", i+1)) || n.Title == "" || n.MinImages < 1 {
			t.Errorf("notebook %d: %+v", i, n)
		}
	}
}

// fakeJupyter writes a stand-in jupyter executable that succeeds for
// `jupyter SUB --version` only for the subcommands given.
func fakeJupyter(t *testing.T, subs ...string) string {
	t.Helper()
	script := "#!/bin/sh\ncase \"$1\" in\n"
	for _, s := range subs {
		script += "  " + s + ") echo 6.4.12; exit 0;;\n"
	}
	script += "esac\necho \"Jupyter command \\`jupyter-$1\\` not found.\" >&2\nexit 1\n"
	p := filepath.Join(t.TempDir(), "jupyter")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNotebookFrontEnd checks that setup recommends only a front end that
// is installed, and names the package to install when none is.
func TestNotebookFrontEnd(t *testing.T) {
	ctx := context.Background()
	if got := notebookFrontEnd(ctx, fakeJupyter(t)); got != "" {
		t.Errorf("nbconvert only: front end %q, want none", got)
	}
	if got := notebookFrontEnd(ctx, fakeJupyter(t, "lab")); got != "jupyter lab notebooks/" {
		t.Errorf("lab only: front end %q", got)
	}
	if got := notebookFrontEnd(ctx, fakeJupyter(t, "lab", "notebook")); got != launchCommand {
		t.Errorf("notebook and lab: front end %q, want %q", got, launchCommand)
	}
	none := frontEndAdvice("")
	if strings.Contains(none, "open the notebooks with") || !strings.Contains(none, "apt-get install -y "+uiPackage) {
		t.Errorf("advice without a front end must name the package, not a launch command: %s", none)
	}
	if adv := frontEndAdvice(launchCommand); !strings.Contains(adv, "`"+launchCommand+"`") {
		t.Errorf("advice with a front end lacks the launch command: %s", adv)
	}
}

// TestReadmeLaunchCommand checks that the README's notebook section
// installs the front end and launches the notebooks with the command
// `notebook setup` recommends, and, where Jupyter is installed (CI installs
// it), that the command exists.
func TestReadmeLaunchCommand(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(kernel.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	for _, want := range []string{uiPackage, "roleprint notebook setup", launchCommand} {
		if !strings.Contains(text, want) {
			t.Errorf("README's notebook commands lack %q", want)
		}
	}
	jupyter, err := exec.LookPath("jupyter")
	if err != nil {
		t.Skip("jupyter is not installed here")
	}
	if got := notebookFrontEnd(context.Background(), jupyter); got != launchCommand {
		t.Errorf("this machine's Jupyter opens the notebooks with %q, the README says %q (install %s)", got, launchCommand, uiPackage)
	}
}
