package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettingsFlagJoinsOccurrences checks that a repeated settings flag
// keeps every occurrence, in order and joined by ";", so a later key wins
// as within one value, and that one value alone is kept as it is.
func TestSettingsFlagJoinsOccurrences(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--set", "a=1;b=2"}, "a=1;b=2"},
		{[]string{"--set", "a=1", "--set", "b=2;c=3", "--set", "a=4"}, "a=1;b=2;c=3;a=4"},
		{[]string{"--set", "", "--set", "a=1", "--set", ""}, "a=1"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		set := settingsFlag(fs, "set", "settings")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if *set != c.want {
			t.Errorf("%q: %q, want %q", c.args, *set, c.want)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	settingsFlag(fs, "set", "settings")
	if u := fs.Lookup("set").Usage; !strings.Contains(u, "repeatable") {
		t.Errorf("usage %q does not say repeatable", u)
	}
}

// TestRepeatedSetTakesEffect checks on `roleprint embed` that two --set
// flags both reach the encoder: tfidf keeps exactly 7 features only with
// min_df=1 (the ten lines share no character, so no n-gram) and
// max_features=7 (they have many more), so either flag lost changes the dimension. It also checks
// that a later key overrides an earlier one, and `reproduce`'s --set.
func TestRepeatedSetTakesEffect(t *testing.T) {
	in := filepath.Join(t.TempDir(), "lines.txt")
	if err := os.WriteFile(in, []byte("abcde\nfghij\nklmno\npqrst\nuvwxy\nz0123\n45678\n9αβγδ\nεζηθι\nκλμνξ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dim := func(args ...string) int {
		t.Helper()
		code, stdout, stderr := reproRun(append(append([]string{"embed", "--encoder", "tfidf", "--json"}, args...), in)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var out struct {
			Dim int `json:"dim"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		return out.Dim
	}
	if d := dim("--set", "min_df=1", "--set", "max_features=7"); d != 7 {
		t.Errorf("--set min_df=1 --set max_features=7: dim %d, want 7", d)
	}
	if d := dim("--set", "min_df=1;max_features=7"); d != 7 {
		t.Errorf("--set 'min_df=1;max_features=7': dim %d, want 7", d)
	}
	if d := dim("--set", "min_df=1;max_features=7", "--set", "max_features=3"); d != 3 {
		t.Errorf("a later max_features: dim %d, want 3", d)
	}
	// reproduce (on a faked pure-Go machine: no calibration): a typo in the
	// first of two --set flags is still caught (a plain string flag would
	// keep only the second).
	reproFakeEnv(t, "go")
	if code, _, stderr := reproRun("reproduce", "--dry-run", "--set", "tfidf.max_featurs=5", "--set", "tfidf.min_df=1"); code != 2 || !strings.Contains(stderr, "max_features") {
		t.Errorf("typo in the first --set: exit %d %s", code, stderr)
	}
}
