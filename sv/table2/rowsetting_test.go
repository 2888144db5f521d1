package table2

import (
	"testing"

	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// "test-opts-v1.5" is a row whose name holds a dot, as Hub ids do
// (hf:BAAI/bge-small-en-v1.5); "testhub:" is a scheme standing in for hf:.
func init() {
	resolve := func(o sv.EncoderOptions) (testOptions, error) {
		t := defaultTestOptions()
		return t, options.Apply(&t, o.Settings)
	}
	sv.RegisterOptions("test-opts-v1.5", func(o sv.EncoderOptions) (any, error) { return resolve(o) })
	sv.RegisterEncoder("test-opts-v1.5", func(o sv.EncoderOptions) (sv.Encoder, error) {
		if _, err := resolve(o); err != nil {
			return nil, err
		}
		return &bowEncoder{name: "test-opts-v1.5", calls: &bowCalls}, nil
	})
	sv.RegisterEncoderScheme("testhub", func(ref string, o sv.EncoderOptions) (sv.Encoder, error) {
		return &bowEncoder{name: "testhub:" + ref, calls: &bowCalls}, nil
	})
}

func TestSplitRowSetting(t *testing.T) {
	for k, want := range map[string][2]string{
		"test-opts-v1.5.window":                  {"test-opts-v1.5", "window"},
		"test-opts-v1.5_ft.window":               {"test-opts-v1.5_ft", "window"},
		"test-opts.window":                       {"test-opts", "window"},
		"testhub:BAAI/bge-small-en-v1.5.max_len": {"testhub:BAAI/bge-small-en-v1.5", "max_len"},
		"testhub:BAAI/bge-small-en-v1.5_ft.lr":   {"testhub:BAAI/bge-small-en-v1.5_ft", "lr"},
		"testhub:org/m.max_len":                  {"testhub:org/m", "max_len"},
		"mixed.parts":                            {"mixed", "parts"},
		"not-built.key":                          {"not-built", "key"}, // an unknown row: its first dot
	} {
		row, key, ok := SplitRowSetting(k)
		if !ok || row != want[0] || key != want[1] {
			t.Errorf("SplitRowSetting(%q) = %q, %q, %v; want %q, %q", k, row, key, ok, want[0], want[1])
		}
	}
	if _, _, ok := SplitRowSetting("window"); ok {
		t.Error("a global key split")
	}
}

func TestDottedRowSettings(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-opts-v1.5", "test-bow", "testhub:org/m-v1.5", "testhub:org/m-v1.5.1"}
	cfg.Mixed = nil
	cfg.Settings = map[string]string{"test-opts-v1.5.window": "7", "testhub:org/m-v1.5.max_len": "8", "testhub:org/m-v1.5.1.max_len": "9"}
	if _, err := cfg.Validate(); err != nil {
		t.Fatalf("settings of rows with a dot in the name: %v", err)
	}
	if o := cfg.EncoderOptions("test-opts-v1.5", 1); o.Settings["window"] != "7" || len(o.Settings) != 1 {
		t.Errorf("test-opts-v1.5 got %v", o.Settings)
	}
	if o := cfg.EncoderOptions("test-opts-v1.5_ft", 1); o.Settings["window"] != "7" {
		t.Errorf("test-opts-v1.5_ft got %v", o.Settings)
	}
	if o := cfg.EncoderOptions("test-bow", 1); len(o.Settings) != 0 {
		t.Errorf("test-bow got another row's settings %v", o.Settings)
	}
	if o := cfg.EncoderOptions("testhub:org/m-v1.5", 1); o.Settings["max_len"] != "8" || len(o.Settings) != 1 {
		t.Errorf("testhub:org/m-v1.5 got %v", o.Settings)
	}
	if o := cfg.EncoderOptions("testhub:org/m-v1.5.1", 1); o.Settings["max_len"] != "9" || len(o.Settings) != 1 {
		t.Errorf("testhub:org/m-v1.5.1 got %v", o.Settings)
	}
	cfg.Settings = map[string]string{"test-opts-v1.5.windw": "7"}
	if _, err := cfg.Validate(); err == nil {
		t.Error("a misspelt key of a dotted row accepted")
	}
	// A preset's row settings split the same way.
	p := Preset{Name: "dotted", Settings: "test-opts-v1.5.window=5"}
	var pc Config
	if _, err := p.Apply(&pc, nil); err != nil || pc.RowSettings["test-opts-v1.5"]["window"] != "5" {
		t.Errorf("preset: %v %v", err, pc.RowSettings)
	}
}
