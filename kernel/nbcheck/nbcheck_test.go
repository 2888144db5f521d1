package nbcheck

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The fixtures are real notebooks executed by GoNB v0.11.4 with
// `jupyter nbconvert --to notebook --execute --allow-errors` (paths
// anonymised; in broken.ipynb the last cell's outputs were cleared to stand
// for a run that stopped early).

func TestGoodNotebookPasses(t *testing.T) {
	rep, err := CheckFile("testdata/good.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("good notebook failed: %v", rep.Problems)
	}
	if rep.Images != 1 || rep.MinImages != 1 || rep.CodeCells != 4 || rep.Executed != 4 {
		t.Errorf("report %+v", rep)
	}
}

func TestBrokenNotebookFails(t *testing.T) {
	rep, err := CheckFile("testdata/broken.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("broken notebook passed")
	}
	type want struct {
		cell   int
		kind   string
		detail string
	}
	wants := []want{
		{4, "error_line", "panic: index out of range"},
		{4, "error_line", "exit status 2"},
		{4, "error_output", "ERROR: exit status 2"},
		{5, "error_output", "ERROR: # gonb_"},
		{6, "error_line", "--- FAIL: TestScores"},
		{6, "error_output", "ERROR: exit status 1"},
		{7, "error_line", "error: shared corpus unreadable"},
		{8, "error_line", "exit status 1"},
		{9, "not_executed", `fmt.Println("this cell never ran")`},
		{0, "missing_images", "0 image outputs"},
	}
	for _, w := range wants {
		found := false
		for _, p := range rep.Problems {
			if p.Cell == w.cell && p.Kind == w.kind && strings.HasPrefix(p.Detail, w.detail) {
				found = true
			}
		}
		if !found {
			t.Errorf("missing problem %+v in %v", w, rep.Problems)
		}
	}
	// Cell 7 printed a normal line too; it must not be flagged.
	for _, p := range rep.Problems {
		if strings.Contains(p.Detail, "exits 0") {
			t.Errorf("flagged a normal line: %v", p)
		}
	}
}

// TestEachFailureAlone edits the good notebook to hold one failure at a
// time, so that every rule is shown to fail a notebook on its own.
func TestEachFailureAlone(t *testing.T) {
	raw, err := os.ReadFile("testdata/good.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(nb map[string]any)) string {
		var nb map[string]any
		if err := json.Unmarshal(raw, &nb); err != nil {
			t.Fatal(err)
		}
		f(nb)
		b, _ := json.Marshal(nb)
		return string(b)
	}
	cells := func(nb map[string]any) []any { return nb["cells"].([]any) }
	stream := func(text string) map[string]any {
		return map[string]any{"output_type": "stream", "name": "stderr", "text": []string{text}}
	}
	addOutput := func(o map[string]any) func(nb map[string]any) {
		return func(nb map[string]any) {
			c := cells(nb)[3].(map[string]any)
			c["outputs"] = append(c["outputs"].([]any), o)
		}
	}
	cases := map[string]string{
		"panic":        mutate(addOutput(stream("panic: runtime error: nil map\n"))),
		"fail":         mutate(addOutput(map[string]any{"output_type": "stream", "name": "stdout", "text": "--- FAIL: TestX (0.01s)\n"})),
		"exit":         mutate(addOutput(stream("exit status 3\n"))),
		"error word":   mutate(addOutput(stream("Error: reading pairs: EOF\n"))),
		"log error":    mutate(addOutput(stream("2026/01/02 10:00:00 roleprint: error: no such file\n"))),
		"error output": mutate(addOutput(map[string]any{"output_type": "error", "ename": "ERROR", "evalue": "exit status 1", "traceback": []string{}})),
		"plain text":   mutate(addOutput(map[string]any{"output_type": "display_data", "data": map[string]any{"text/plain": "Error: bad"}, "metadata": map[string]any{}})),
		"no image": mutate(func(nb map[string]any) {
			c := cells(nb)[4].(map[string]any)
			c["outputs"] = []any{}
		}),
		"not executed": mutate(func(nb map[string]any) {
			c := cells(nb)[3].(map[string]any)
			c["execution_count"] = nil
		}),
	}
	for name, nbText := range cases {
		rep, err := Check(strings.NewReader(nbText), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.OK() {
			t.Errorf("%s: passed", name)
		}
	}
	// Lines that merely mention errors pass.
	ok := mutate(addOutput(map[string]any{"output_type": "stream", "name": "stdout",
		"text": "equal error rate 0.21\nmean error 0.3 ± 0.1\nterror of the seas\n"}))
	if rep, _ := Check(strings.NewReader(ok), "ok"); !rep.OK() {
		t.Errorf("harmless lines flagged: %v", rep.Problems)
	}
}

func TestNotANotebook(t *testing.T) {
	if _, err := Check(strings.NewReader("{"), "x"); err == nil {
		t.Error("broken JSON accepted")
	}
	if _, err := Check(strings.NewReader(`{"nbformat": 3, "cells": []}`), "x"); err == nil {
		t.Error("nbformat 3 accepted")
	}
	if _, err := CheckFile("testdata/missing.ipynb"); err == nil {
		t.Error("missing file accepted")
	}
}
