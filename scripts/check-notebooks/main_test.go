package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const fixtures = "../../kernel/nbcheck/testdata/"

func TestRun(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{fixtures + "good.ipynb"}, &out, &errb); code != 0 {
		t.Fatalf("good notebook: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{fixtures + "good.ipynb", fixtures + "broken.ipynb"}, &out, &errb); code != 1 {
		t.Fatalf("broken notebook: exit %d", code)
	}
	if !strings.Contains(out.String(), "FAILED ../../kernel/nbcheck/testdata/broken.ipynb") ||
		!strings.Contains(out.String(), "cell 4: error_line: panic: index out of range") {
		t.Errorf("output:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"--json", fixtures + "broken.ipynb"}, &out, &errb); code != 1 {
		t.Fatalf("exit %d", code)
	}
	var v struct {
		OK        bool `json:"ok"`
		Notebooks []struct {
			Problems []struct{ Kind string } `json:"problems"`
		} `json:"notebooks"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.OK || len(v.Notebooks) != 1 || len(v.Notebooks[0].Problems) < 5 {
		t.Errorf("json: %v %+v", err, v)
	}
	if code := run(nil, &out, &errb); code != 2 {
		t.Errorf("no args: exit %d", code)
	}
	if code := run([]string{"missing.ipynb"}, &out, &errb); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}
