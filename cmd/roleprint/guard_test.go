package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

// guardCase is one writing subcommand run with one of its outputs on one
// of its inputs.
type guardCase struct {
	cmd  string // commandOutputs key
	flag string // the output flag tested
	// args builds the command line from in, an existing input file whose
	// content must survive, and dir, a folder holding it (for folder
	// outputs in is dir/<a file the command writes there>).
	args func(in, dir string) []string
	// file is in's name inside dir.
	file string
	// other is the output the refusal names instead of the flag's
	// value, when two outputs collide (bench has no file inputs).
	other bool
}

// guardCases covers every output flag of commandOutputs: each command
// reads an input that the flag would replace.
var guardCases = []guardCase{
	{cmd: "align", flag: "out", file: "script.txt", args: func(in, _ string) []string { return []string{"align", "--out", in, in} }},
	{cmd: "align", flag: "save-transcript", file: "script.txt", args: func(in, _ string) []string {
		return []string{"align", "--save-transcript", in, in}
	}},
	{cmd: "bench", flag: "cpuprofile", file: "prof", other: true, args: func(in, _ string) []string {
		return []string{"bench", "embed", "--memprofile", in, "--cpuprofile", in}
	}},
	{cmd: "bench", flag: "memprofile", file: "prof", other: true, args: func(in, _ string) []string {
		return []string{"bench", "embed", "--cpuprofile", in, "--memprofile", in}
	}},
	{cmd: "import", flag: "out", file: "1_1.txt", args: func(in, _ string) []string {
		return []string{"import", "--format", "tbbt", "--force", "--out", in, in}
	}},
	{cmd: "judge", flag: "paper-out", file: "judge.md", args: func(in, dir string) []string {
		return []string{"judge", "--paper-out", dir, in}
	}},
	{cmd: "judge", flag: "latex", file: "sys.jsonl", args: func(in, _ string) []string { return []string{"judge", "--latex", in, in} }},
	{cmd: "judge", flag: "speech-cache", file: "audio.parquet", args: func(in, _ string) []string {
		return []string{"judge", "--audio-corpus", in, "--speech-cache", in, "x.jsonl"}
	}},
	{cmd: "llm-verify", flag: "out", file: "table1.md", args: func(in, dir string) []string {
		return []string{"llm-verify", "--out", dir, in}
	}},
	{cmd: "llm-verify", flag: "latex", file: "test.jsonl", args: func(in, _ string) []string { return []string{"llm-verify", "--latex", in, in} }},
	{cmd: "llm-verify", flag: "predictions", file: "test.jsonl", args: func(in, _ string) []string {
		return []string{"llm-verify", "--predictions", in, in}
	}},
	{cmd: "llm-verify", flag: "save-records", file: "test.jsonl", args: func(in, _ string) []string {
		return []string{"llm-verify", "--save-records", in, in}
	}},
	{cmd: "eval", flag: "out", file: "eval.json", args: func(in, dir string) []string {
		return []string{"eval", "--verifier", filepath.Join(dir, "no-bundle"), "--out", dir, in}
	}},
	{cmd: "metrics", flag: "out", file: "rows.parquet", args: func(in, _ string) []string { return []string{"metrics", "--out", in, in} }},
	{cmd: "metrics", flag: "paper-out", file: "agreement.tex", args: func(in, dir string) []string {
		return []string{"metrics", "--paper-out", dir, in}
	}},
	{cmd: "metrics", flag: "latex", file: "rows.parquet", args: func(in, _ string) []string { return []string{"metrics", "--latex", in, in} }},
	{cmd: "notebook run", flag: "out", file: "executed/01.ipynb", args: func(in, dir string) []string {
		return []string{"notebook", "run", "--out", dir, in}
	}},
	{cmd: "pairs", flag: "out", file: "sets.parquet", args: func(in, dir string) []string { return []string{"pairs", "--out", dir, in} }},
	{cmd: "pairs", flag: "latex", file: "c.parquet", args: func(in, dir string) []string {
		return []string{"pairs", "--out", filepath.Join(dir, "p"), "--latex", in, in}
	}},
	{cmd: "persona distill", flag: "out", file: "personas.json", args: func(in, dir string) []string {
		return []string{"persona", "distill", "--out", dir, in}
	}},
	{cmd: "reproduce", flag: "out", file: "table2.parquet", args: func(in, dir string) []string {
		return []string{"reproduce", "--quick", "--out", dir, in}
	}},
	{cmd: "reproduce", flag: "latex", file: "c.parquet", args: func(in, dir string) []string {
		return []string{"reproduce", "--quick", "--out", filepath.Join(dir, "r"), "--latex", in, in}
	}},
	{cmd: "reproduce", flag: "memprofile", file: "c.parquet", args: func(in, dir string) []string {
		return []string{"reproduce", "--quick", "--out", filepath.Join(dir, "r"), "--memprofile", in, in}
	}},
	{cmd: "score", flag: "out", file: "table3.md", args: func(in, dir string) []string {
		return []string{"score", "--encoder", "tfidf", "--out", dir, in}
	}},
	{cmd: "score", flag: "latex", file: "gen.parquet", args: func(in, _ string) []string {
		return []string{"score", "--encoder", "tfidf", "--latex", in, in}
	}},
	{cmd: "score", flag: "distributions", file: "gen.parquet", args: func(in, _ string) []string {
		return []string{"score", "--encoder", "tfidf", "--distributions", in, in}
	}},
	{cmd: "selfplay", flag: "out", file: "r.tsv", args: func(in, _ string) []string {
		return []string{"selfplay", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--roles", in, "--out", in}
	}},
	{cmd: "selfplay", flag: "journal", file: "r.tsv", args: func(in, dir string) []string {
		return []string{"selfplay", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--roles", in,
			"--out", filepath.Join(dir, "gen.parquet"), "--journal", in}
	}},
	{cmd: "speech profile", flag: "out", file: "speech-profile.md", args: func(in, dir string) []string {
		return []string{"speech", "profile", "--in", in, "--out", dir}
	}},
	{cmd: "speech profile", flag: "latex", file: "u.parquet", args: func(in, _ string) []string {
		return []string{"speech", "profile", "--in", in, "--latex", in}
	}},
	{cmd: "speech profile", flag: "cache", file: "u.parquet", args: func(in, _ string) []string {
		return []string{"speech", "profile", "--in", in, "--cache", in}
	}},
	{cmd: "speech reference", flag: "cache", file: "u.parquet", args: func(in, _ string) []string {
		return []string{"speech", "reference", "--in", in, "--cache", in}
	}},
	{cmd: "speech convert", flag: "out-dir", file: "a.wav", args: func(in, dir string) []string {
		return []string{"speech", "convert", "--out-dir", dir, in}
	}},
	{cmd: "speech transcribe", flag: "out", file: "a.wav", args: func(in, _ string) []string {
		return []string{"speech", "transcribe", "--out", in, in}
	}},
	{cmd: "speech tts", flag: "out", file: "gen.parquet", args: func(in, _ string) []string {
		return []string{"speech", "tts", "--in", in, "--out", in}
	}},
	{cmd: "speech tts", flag: "audio-dir", file: "a.wav", args: func(in, dir string) []string {
		return []string{"speech", "tts", "--in", in, "--out", filepath.Join(dir, "x.parquet"), "--audio-dir", dir}
	}},
	{cmd: "stats", flag: "out", file: "table4.md", args: func(in, dir string) []string { return []string{"stats", "--out", dir, in} }},
	{cmd: "stats", flag: "latex", file: "c.parquet", args: func(in, _ string) []string { return []string{"stats", "--latex", in, in} }},
	{cmd: "train", flag: "out", file: "train.json", args: func(in, dir string) []string { return []string{"train", "--out", dir, in} }},
}

// TestEveryWriterRefusesItsInputs runs every writing subcommand with an
// output on one of its inputs: each must refuse before any work, with
// exit code 2 and a message naming both paths, and leave the input as
// it was. The table covers every output flag of commandOutputs.
func TestEveryWriterRefusesItsInputs(t *testing.T) {
	clearLLMEnv(t)
	t.Setenv(llm.EnvCache, "off")
	covered := map[string]bool{}
	for _, c := range guardCases {
		covered[c.cmd+" --"+c.flag] = true
		name := c.cmd + " --" + c.flag
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, filepath.FromSlash(c.file))
			if err := os.MkdirAll(filepath.Dir(in), 0o755); err != nil {
				t.Fatal(err)
			}
			const content = "an input that must survive\n"
			if err := os.WriteFile(in, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			args := c.args(in, dir)
			code, stdout, stderr := reproRun(args...)
			if code != 2 || !strings.Contains(stderr, "--"+c.flag) || !strings.Contains(stderr, in) ||
				(!c.other && !strings.Contains(stderr, "would overwrite the input")) {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 and a refusal naming --%s and %s", args, code, stderr, c.flag, in)
			}
			if stdout != "" {
				t.Errorf("%v: stdout %q, want nothing", args, stdout)
			}
			if b, err := os.ReadFile(in); err != nil || string(b) != content {
				t.Errorf("%v: the input was changed: %q, %v", args, b, err)
			}
		})
	}
	for cmd, specs := range commandOutputs {
		for _, s := range specs {
			if s.kind != outInPlace && !covered[cmd+" --"+s.flag] {
				t.Errorf("no case for %s --%s", cmd, s.flag)
			}
		}
	}
	// A subcommand with an --out flag is listed in commandOutputs: one
	// that is not would treat its output folder as an input and be left
	// out of the cases above.
	for name := range commands {
		_, _, stderr := runPersonaCLI(t, name, "--help")
		if strings.Contains(stderr, "\n  -out ") && outputsOf(flag.NewFlagSet(name, flag.ContinueOnError)) == nil {
			t.Errorf("%s has an --out flag but no entry in commandOutputs", name)
		}
	}
}

// TestGuardLinksFoldersAndJournals: an output that is a symbolic or hard
// link to an input, a folder given as a file (refused before the import
// runs) and a file given as a folder, and a journal or cache path that
// holds someone else's file.
func TestGuardLinksFoldersAndJournals(t *testing.T) {
	clearLLMEnv(t)
	dir := t.TempDir()
	roles := filepath.Join(dir, "r.tsv")
	const rolesText = "Ann\tA baker.\nBob\tA smith.\n"
	os.WriteFile(roles, []byte(rolesText), 0o644)
	sym := filepath.Join(dir, "sym.parquet")
	if err := os.Symlink(roles, sym); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.parquet")
	if err := os.Link(roles, hard); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	const notesText = "my notes\nlast line without a newline"
	os.WriteFile(notes, []byte(notesText), 0o644)
	folder := filepath.Join(dir, "c.parquet")
	os.MkdirAll(folder, 0o755)
	selfplay := []string{"selfplay", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--roles", roles}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"symbolic link", append(selfplay, "--out", sym), []string{"--out " + sym, "would overwrite the input " + roles}},
		{"hard link", append(selfplay, "--out", hard), []string{"--out " + hard, "would overwrite the input " + roles}},
		{"foreign journal", append(selfplay, "--out", filepath.Join(dir, "g.parquet"), "--journal", notes),
			[]string{"--journal " + notes, "is not a selfplay journal"}},
		{"foreign speech cache", []string{"speech", "profile", "--in", roles, "--cache", notes},
			[]string{"--cache " + notes, "is not a speech feature cache"}},
		{"folder as a file", []string{"import", "--format", "tbbt", "--out", folder, roles},
			[]string{"--out " + folder, "is a folder: give a file path"}},
		{"file as a folder", []string{"pairs", "--out", notes, roles}, []string{"--out " + notes, "is a file, not a folder"}},
		{"two outputs on one file", []string{"score", "--encoder", "tfidf", "--latex", filepath.Join(dir, "x.tex"),
			"--distributions", filepath.Join(dir, "x.tex"), roles}, []string{"is the same file as the output"}},
	}
	for _, c := range cases {
		code, _, stderr := reproRun(c.args...)
		ok := code == 2
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok || strings.Contains(stderr, "imported") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
	// A pair directory's own files are guarded by name; another corpus
	// kept in it is not in the way.
	pdir := filepath.Join(dir, "pdir")
	os.MkdirAll(pdir, 0o755)
	for _, name := range []string{"unseen-unseen-hard.parquet", "train.parquet", "manifest.json"} {
		p := filepath.Join(pdir, name)
		os.WriteFile(p, []byte("x"), 0o644)
		if code, _, stderr := reproRun("pairs", "--out", pdir, p); code != 2 || !strings.Contains(stderr, "would overwrite the input "+p) {
			t.Errorf("pairs input %s in --out: exit %d, %q", name, code, stderr)
		}
	}
	corpus := filepath.Join(pdir, "corpus.parquet")
	os.WriteFile(corpus, []byte("not parquet"), 0o644)
	if _, _, stderr := reproRun("pairs", "--out", pdir, corpus); strings.Contains(stderr, "refusing") {
		t.Errorf("a corpus beside the pair files was refused: %q", stderr)
	}
	if b, _ := os.ReadFile(roles); string(b) != rolesText {
		t.Errorf("the roles file was changed: %q", b)
	}
	if b, _ := os.ReadFile(notes); string(b) != notesText {
		t.Errorf("the notes were changed: %q", b)
	}
}

// selfPlayGuardFixture starts a fake server answering every request
// with answer and writes two roles and one interview question; args
// builds an interview command line writing out.
func selfPlayGuardFixture(t *testing.T, answer string) (s *llmtest.Server, dir string, args func(out string) []string) {
	t.Helper()
	clearLLMEnv(t)
	t.Setenv(llm.EnvCache, "off")
	s = llmtest.New(func(req llm.Request) string { return answer })
	t.Cleanup(s.Close)
	dir = t.TempDir()
	roles := filepath.Join(dir, "desc.json")
	os.WriteFile(roles, []byte(`{"Ann": "A baker.", "Bob": "A smith."}`), 0o644)
	qs := filepath.Join(dir, "q.txt")
	os.WriteFile(qs, []byte("Who are you?\n"), 0o644)
	return s, dir, func(out string) []string {
		return []string{"--model", "good-model", "--base-url", s.BaseURL, "--roles", roles, "--interview", qs, "--out", out}
	}
}

// TestSelfPlayCreatesOutFolder: selfplay creates the folder of its --out;
// its journal starts with the header and its lock is gone after the run.
func TestSelfPlayCreatesOutFolder(t *testing.T) {
	_, dir, args := selfPlayGuardFixture(t, "Hello there.")
	out := filepath.Join(dir, "new", "deeper", "answers.parquet")
	if code, _, stderr := runSelfPlayCLI(context.Background(), args(out)...); code != 0 {
		t.Fatalf("--out in a missing folder: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("no output: %v", err)
	}
	lock := filepath.Join(filepath.Dir(out), "answers.lock")
	if _, err := os.Stat(lock); err == nil {
		t.Errorf("the lock %s outlived the run", lock)
	}
	journal := filepath.Join(filepath.Dir(out), "answers.journal.jsonl")
	if b, _ := os.ReadFile(journal); !bytes.HasPrefix(b, []byte(`{"roleprint":"selfplay-journal"`)) {
		t.Errorf("journal does not start with its header: %.80q", b)
	}
}

// TestSelfPlayLock: a second run on the same --out while the first holds
// the lock is refused naming the first's pid, and pays nothing; a stale
// lock (a pid that no longer runs) is taken over with a note.
func TestSelfPlayLock(t *testing.T) {
	s, dir, args := selfPlayGuardFixture(t, "Hello there.")
	out := filepath.Join(dir, "two.parquet")
	lock := filepath.Join(dir, "two.lock")
	// A live lock: this test's own process holds it.
	os.WriteFile(lock, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	code, _, stderr := runSelfPlayCLI(context.Background(), args(out)...)
	if code == 0 || !strings.Contains(stderr, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(stderr, lock) {
		t.Errorf("second run on a locked --out: exit %d, %q", code, stderr)
	}
	if s.Served() != 0 {
		t.Errorf("the refused run made %d requests", s.Served())
	}
	// A stale lock: a process that has exited.
	p := exec.Command(os.Args[0], "-test.run=^$")
	if err := p.Run(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(lock, []byte(strconv.Itoa(p.Process.Pid)+"\n"), 0o644)
	code, _, stderr = runSelfPlayCLI(context.Background(), args(out)...)
	if code != 0 || !strings.Contains(stderr, "stale lock") || !strings.Contains(stderr, strconv.Itoa(p.Process.Pid)) {
		t.Errorf("stale lock: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(lock); err == nil {
		t.Errorf("the taken-over lock %s outlived the run", lock)
	}
	// A --journal shared with a run on another --out is locked too.
	journal := filepath.Join(dir, "shared.jsonl")
	os.WriteFile(journal+".lock", []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	code, _, stderr = runSelfPlayCLI(context.Background(), append(args(filepath.Join(dir, "three.parquet")), "--journal", journal)...)
	if code == 0 || !strings.Contains(stderr, journal+".lock") {
		t.Errorf("locked shared journal: exit %d, %q", code, stderr)
	}
}

// TestSelfPlayAllRepliesEmpty: a model whose replies are all empty fails,
// naming the model, and writes no corpus.
func TestSelfPlayAllRepliesEmpty(t *testing.T) {
	_, dir, args := selfPlayGuardFixture(t, "  ")
	out := filepath.Join(dir, "empty.parquet")
	code, _, stderr := runSelfPlayCLI(context.Background(), append(args(out), "--model", "mute-model")...)
	if code == 0 || !strings.Contains(stderr, "mute-model") || !strings.Contains(stderr, "no usable reply") {
		t.Errorf("all replies empty: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a run without a reply wrote a corpus")
	}
}

// TestHelpUnknownSubcommand: help for a name that is no subcommand is an
// error listing the subcommands.
func TestHelpUnknownSubcommand(t *testing.T) {
	code, stdout, stderr := reproRun("help", "frobnicate")
	if code != 2 || !strings.Contains(stderr, `unknown subcommand "frobnicate"`) || !strings.Contains(stderr, "selfplay") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ := reproRun("help", "import"); code != 0 || !strings.Contains(stdout, "import —") {
		t.Errorf("help import: exit %d, %q", code, stdout)
	}
}

// TestImportCorpusOutsideCheckout: --corpus run outside a checkout says
// where it looked and how to set $ROLEPRINT_SHARED.
func TestImportCorpusOutsideCheckout(t *testing.T) {
	t.Setenv("ROLEPRINT_SHARED", "")
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, stderr := reproRun("import", "--corpus", "tbbt", "--out", filepath.Join(dir, "c.parquet"))
	if code == 0 || strings.Contains(stderr, `""`) || !strings.Contains(stderr, dir) || !strings.Contains(stderr, "$ROLEPRINT_SHARED") ||
		!strings.Contains(stderr, "corpora/tbbt") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	shared := t.TempDir()
	t.Setenv("ROLEPRINT_SHARED", shared)
	code, _, stderr = reproRun("import", "--corpus", "tbbt", "--out", filepath.Join(dir, "c.parquet"))
	if code == 0 || !strings.Contains(stderr, filepath.Join(shared, "corpora")) {
		t.Errorf("with $ROLEPRINT_SHARED: exit %d, stderr %q", code, stderr)
	}
}

// TestNotebookSaveReplacesItsInput: notebook run --save may replace the
// notebooks it is given (the guard leaves them unprotected); without
// --save every atomic write refuses them.
func TestNotebookSaveReplacesItsInput(t *testing.T) {
	nb := filepath.Join(t.TempDir(), "01-x.ipynb")
	os.WriteFile(nb, []byte("{}"), 0o644)
	for _, save := range []bool{false, true} {
		fs := newFlags(&env{stdout: io.Discard, stderr: io.Discard}, "notebook run", "")
		fs.String("out", "", "")
		fs.Bool("save", false, "")
		if err := parseFlags(fs, []string{"--save=" + strconv.FormatBool(save), nb}); err != nil {
			t.Fatal(err)
		}
		err := fsx.WriteFile(nb, []byte(`{"cells": []}`), 0o644)
		releaseInputs()
		if save != (err == nil) {
			t.Errorf("--save=%v: write over the notebook: %v", save, err)
		}
	}
}

// TestTrainFreshKeepsForeignFiles: train --fresh deletes its checkpoints
// only; a file with a checkpoint's name that is not one is refused and
// kept.
func TestTrainFreshKeepsForeignFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(out, 0o755)
	foreign := filepath.Join(out, "ckpt-000000001.rpck")
	os.WriteFile(foreign, []byte("someone else's file"), 0o644)
	code, _, stderr := neuralRun("train", "--out", out, "--backend", "go", "--max-steps", "1", "--batch-pairs", "4",
		"--max-utterances", "2", "--set", tinyNeural, "--fresh")
	if code == 0 || !strings.Contains(stderr, "not a RolePrint checkpoint") || !strings.Contains(stderr, foreign) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if b, err := os.ReadFile(foreign); err != nil || string(b) != "someone else's file" {
		t.Errorf("the foreign file was changed: %q, %v", b, err)
	}
}
