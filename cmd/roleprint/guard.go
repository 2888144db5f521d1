package main

import (
	"encoding/json"
	"errors"
	"flag"
	"slices"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/persona/selfplay"
	"github.com/roleprint/roleprint/sv/evaluate"
)

// outKind says what an output flag names.
type outKind int

const (
	outFile    outKind = iota // one file, replaced atomically
	outDir                    // a folder the command writes files into
	outAppend                 // a journal or cache appended to and reread: must be ours
	outInPlace                // a boolean flag that, when set, makes the command replace its positional inputs on purpose
)

// outSpec is one output flag of a subcommand.
type outSpec struct {
	flag   string
	kind   outKind
	writes []string // outDir: the files written there (fsx.Output.Writes)
	what   string   // outAppend: the kind of file, for messages
	ours   func(firstLine []byte) bool
}

// reportWrites are the files a report.Writer puts in its folder.
var reportWrites = []string{"*.tex", "*.md", "*.csv", "*.json", "*.html", "figures/"}

// latexOut is --latex of addOutputFlags.
var latexOut = outSpec{flag: "latex", kind: outFile}

// speechCacheOut is a speech feature cache (speech profile --cache,
// judge --speech-cache): a JSON-lines file whose lines carry a "key".
func speechCacheOut(name string) outSpec {
	return outSpec{flag: name, kind: outAppend, what: "speech feature cache", ours: jsonLineWithKey}
}

// jsonLineWithKey recognises a first line written by a JSON-lines cache
// of this project: an object with a non-empty "key".
func jsonLineWithKey(line []byte) bool {
	var e struct {
		Key string `json:"key"`
	}
	return json.Unmarshal(line, &e) == nil && e.Key != ""
}

// commandOutputs lists, per subcommand (its flag set's name), every flag
// naming a path it writes. Every other flag value and every positional
// argument that names an existing path is an input. A subcommand that
// writes a file must be listed here (TestEveryWriterRefusesItsInputs).
var commandOutputs = map[string][]outSpec{
	"align":  {{flag: "out"}, {flag: "save-transcript"}},
	"bench":  {{flag: "cpuprofile"}, {flag: "memprofile"}},
	"eval":   {{flag: "out", kind: outDir, writes: evaluate.EvalFiles}},
	"import": {{flag: "out"}},
	"judge":  {{flag: "paper-out", kind: outDir, writes: reportWrites}, latexOut, speechCacheOut("speech-cache")},
	"llm-verify": {{flag: "out", kind: outDir, writes: reportWrites}, latexOut,
		{flag: "predictions"}, {flag: "save-records"}},
	"metrics": {{flag: "out"}, {flag: "paper-out", kind: outDir, writes: reportWrites}, latexOut},
	// notebook run --save replaces each committed notebook by its
	// executed copy, atomically and only when it passes its check: the
	// one deliberate in-place update.
	"notebook run": {{flag: "out", kind: outDir, writes: []string{"executed/"}}, {flag: "save", kind: outInPlace}},
	"pairs":        {{flag: "out", kind: outDir, writes: append(pairDirWrites(), reportWrites...)}, latexOut},
	"persona distill": {{flag: "out", kind: outDir, writes: []string{"events.json", "personalities.json", "relationships.json", "styles.json",
		"personas.json", "manifest.json", "events.parquet", "personas.parquet", "units/"}}},
	"reproduce": {{flag: "out", kind: outDir, writes: append([]string{"table2.*", "checkpoints/", "verifier/"}, reportWrites...)},
		latexOut, {flag: "memprofile"}},
	"score":             {{flag: "out", kind: outDir, writes: reportWrites}, latexOut, {flag: "distributions"}},
	"selfplay":          {{flag: "out"}, {flag: "journal", kind: outAppend, what: "selfplay journal", ours: selfplay.IsJournalFirstLine}},
	"speech profile":    {{flag: "out", kind: outDir, writes: reportWrites}, latexOut, speechCacheOut("cache")},
	"speech reference":  {speechCacheOut("cache")},
	"speech convert":    {{flag: "out-dir", kind: outDir, writes: []string{"*.wav"}}},
	"speech transcribe": {{flag: "out"}},
	"speech tts":        {{flag: "out"}, {flag: "audio-dir", kind: outDir, writes: []string{"*.wav"}}},
	"stats":             {{flag: "out", kind: outDir, writes: reportWrites}, latexOut},
	"train":             {{flag: "out", kind: outDir, writes: []string{"ckpt-*", "train.json", "verifier/"}}},
}

// pairDirWrites are the files of a pair directory (data/pairs.WritePairDir
// moves them in with a rename, not an fsx write, so this list is their
// only guard).
func pairDirWrites() []string {
	w := []string{pairs.PairSetsFile, pairs.PairManifestFile, "train.parquet", "dev.parquet"}
	for _, e := range pairs.Exposures {
		for _, l := range pairs.Levels {
			w = append(w, pairs.TestKey{Exposure: e, Level: l}.String()+".parquet")
		}
	}
	return w
}

// outputsOf returns the output specs of the flag set's subcommand: by
// its full name ("speech profile"), else by its first word ("bench
// embed" → "bench").
func outputsOf(fs *flag.FlagSet) []outSpec {
	if s, ok := commandOutputs[fs.Name()]; ok {
		return s
	}
	first, _, _ := strings.Cut(fs.Name(), " ")
	return commandOutputs[first]
}

// guardFlags is the guard every subcommand passes through (parseFlags):
// it refuses outputs that would replace an input, a folder given as a
// file and the reverse, and a journal or cache path holding a file that
// is not ours, before any work is done; then it protects the inputs so
// that no atomic write of the run can replace them (fsx.Protect) until
// the command returns.
func guardFlags(fs *flag.FlagSet) error {
	specs := outputsOf(fs)
	isOut := map[string]bool{}
	for _, s := range specs {
		isOut[s.flag] = true
	}
	inputs := slices.Clone(fs.Args())
	fs.VisitAll(func(f *flag.Flag) {
		if isOut[f.Name] {
			return
		}
		if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool {
			return
		}
		v := f.Value.String()
		if v == "" {
			return
		}
		inputs = append(inputs, v)
		if strings.Contains(v, ",") {
			inputs = append(inputs, strings.Split(v, ",")...)
		}
	})
	var outs []fsx.Output
	var owned []outSpec
	inPlace := false
	for _, s := range specs {
		f := fs.Lookup(s.flag)
		if f == nil || f.Value.String() == "" {
			continue
		}
		if s.kind == outInPlace {
			inPlace = inPlace || f.Value.String() == "true"
			continue
		}
		outs = append(outs, fsx.Output{Flag: "--" + s.flag, Path: f.Value.String(), Dir: s.kind == outDir, Writes: s.writes})
		if s.kind == outAppend {
			owned = append(owned, s)
		}
	}
	if err := fsx.CheckOutputs(inputs, outs...); err != nil {
		return guardError(err)
	}
	for _, s := range owned {
		if err := fsx.CheckOwned("--"+s.flag, fs.Lookup(s.flag).Value.String(), s.what, s.ours); err != nil {
			return guardError(err)
		}
	}
	if inPlace {
		inputs = inputs[len(fs.Args()):]
	}
	protectInputs(inputs...)
	return nil
}

// guardPaths is the guard for outputs and inputs a subcommand decides
// after parsing its flags (import --corpus, the files an import read,
// selfplay's side files).
func guardPaths(inputs []string, outs ...fsx.Output) error {
	if err := fsx.CheckOutputs(inputs, outs...); err != nil {
		return guardError(err)
	}
	protectInputs(inputs...)
	return nil
}

// guardError makes a refused output a usage error (exit code 2): the
// command line chose the path.
func guardError(err error) error {
	var ow *fsx.OverwriteError
	if errors.As(err, &ow) {
		return usageError{ow.Error()}
	}
	return err
}

// releases undo the fsx.Protect calls of the running command; run calls
// releaseInputs when the command returns.
var releases struct {
	mu  sync.Mutex
	fns []func()
}

func protectInputs(paths ...string) {
	r := fsx.Protect(paths...)
	releases.mu.Lock()
	releases.fns = append(releases.fns, r)
	releases.mu.Unlock()
}

func releaseInputs() {
	releases.mu.Lock()
	defer releases.mu.Unlock()
	for _, r := range releases.fns {
		r()
	}
	releases.fns = nil
}
