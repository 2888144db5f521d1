package table2

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// testOptions is the options struct of the test encoder "test-opts": a
// plain struct with tags and one Default function, as a new row (A1's
// style_ft) would have.
type testOptions struct {
	Window int     `opt:"window" json:"window"`
	Scale  float64 `opt:"scale" json:"scale"`
	Mode   string  `opt:"mode" json:"mode"`
}

func defaultTestOptions() testOptions { return testOptions{Window: 3, Scale: 0.5, Mode: "x"} }

func init() {
	resolve := func(o sv.EncoderOptions) (testOptions, error) {
		t := defaultTestOptions()
		return t, options.Apply(&t, o.Settings)
	}
	sv.RegisterOptions("test-opts", func(o sv.EncoderOptions) (any, error) { return resolve(o) })
	sv.RegisterEncoder("test-opts", func(o sv.EncoderOptions) (sv.Encoder, error) {
		if _, err := resolve(o); err != nil {
			return nil, err
		}
		return &bowEncoder{name: "test-opts", calls: &bowCalls}, nil
	})
}

// TestManifestRecordsResolvedComponents checks that the manifest holds
// every key of every component with options (defaults included, not only
// the overrides), with the preset's row settings below the user's.
func TestManifestRecordsResolvedComponents(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-bow", "test-opts"}
	cfg.Mixed = nil
	cfg.Rounds = 1
	cfg.RowSettings = map[string]map[string]string{"test-opts": {"mode": "preset", "window": "5"}}
	cfg.Settings = map[string]string{"test-opts.window": "7"}
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	want := testOptions{Window: 7, Scale: 0.5, Mode: "preset"}
	if got, ok := res.Components["test-opts"].(testOptions); !ok || got != want {
		t.Errorf("components[test-opts] = %#v, want %#v", res.Components["test-opts"], want)
	}
	if _, ok := res.Components["test-bow"]; ok {
		t.Error("test-bow has no options but is in the components")
	}
	b, err := json.Marshal(NewManifest(res))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Components map[string]map[string]any `json:"components"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	c := m.Components["test-opts"]
	if c["window"] != 7.0 || c["scale"] != 0.5 || c["mode"] != "preset" {
		t.Errorf("manifest components %v: want window 7, the default scale 0.5 and the preset's mode", m.Components)
	}
}

// TestValidateRejectsSettingsNoEncoderHas checks the errors for a scoped
// key the encoder does not have and a global key no encoder has.
func TestValidateRejectsSettingsNoEncoderHas(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-opts"}
	cfg.Mixed = nil
	cfg.Settings = map[string]string{"test-opts.windw": "7"}
	_, err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), `"windw"`) || !strings.Contains(err.Error(), "mode, scale, window") {
		t.Errorf("scoped typo: %v", err)
	}
	cfg.Settings = map[string]string{"windw": "7"}
	if _, err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), `"windw"`) {
		t.Errorf("global typo: %v", err)
	}
	// A global key reaches only the encoders that have it.
	cfg.Encoders = []string{"test-opts", "test-bow"}
	cfg.Settings = map[string]string{"window": "9", "other": "1"}
	if _, err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if o := cfg.EncoderOptions("test-opts", 1); o.Settings["window"] != "9" || o.Settings["other"] != "" {
		t.Errorf("test-opts got %v", o.Settings)
	}
	if o := cfg.EncoderOptions("test-bow", 1); o.Settings["window"] != "9" || o.Settings["other"] != "1" {
		t.Errorf("test-bow (no options) got %v, want every global key", o.Settings)
	}
}

// TestPresetsApply checks every named preset applies without an unknown
// key, that quick caps the pairs and rounds, and that an unknown preset
// lists the known ones.
func TestPresetsApply(t *testing.T) {
	for _, p := range Presets() {
		cfg := DefaultConfig()
		pairs := pairs.DefaultPairConfig()
		if _, err := p.Apply(&cfg, &pairs); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		if cfg.Preset != p.Name {
			t.Errorf("%s: cfg.Preset %q", p.Name, cfg.Preset)
		}
	}
	q, _ := PresetNamed("quick")
	cfg, pairs := DefaultConfig(), pairs.DefaultPairConfig()
	res, err := q.Apply(&cfg, &pairs)
	if err != nil || cfg.Rounds != 1 || cfg.FitMaxTexts != 20000 || pairs.MaxTestPairs != 1000 || !q.Quick {
		t.Errorf("quick: %v rounds %d fit %d test pairs %d", err, cfg.Rounds, cfg.FitMaxTexts, pairs.MaxTestPairs)
	}
	if cfg.RowSettingsFor("transformer_ft")["max_steps"] != "150" {
		t.Errorf("quick lacks cpu's row settings: %v", cfg.RowSettings)
	}
	if len(res.TableKeys) != 2 {
		t.Errorf("quick table keys %v", res.TableKeys)
	}
	b, _ := PresetNamed("best-cpu")
	cfg = DefaultConfig()
	if res, err := b.Apply(&cfg, &pairs); err != nil || strings.Join(cfg.Encoders, ",") != "tfidf,transformer,transformer_ft" ||
		len(cfg.Mixed) != 0 || pairs.BaseNegatives != "any" || !strings.Contains(strings.Join(res.TableKeys, ","), "encoders") {
		t.Errorf("best-cpu: %v %v mixed %v base negatives %q", err, cfg.Encoders, cfg.Mixed, pairs.BaseNegatives)
	}
	tr, _ := PresetNamed("transfer")
	cfg = DefaultConfig()
	if _, err := tr.Apply(&cfg, &pairs); err != nil || strings.Join(cfg.Encoders, ",") != "ngram-metric_ft,tfidf" || len(cfg.Mixed) != 0 ||
		cfg.Rounds != 1 || !cfg.Transfer || cfg.RowSettingsFor("ngram-metric_ft")["cohort"] != "150" {
		t.Errorf("transfer: %v %v mixed %v rounds %d transfer %v row settings %v", err, cfg.Encoders, cfg.Mixed, cfg.Rounds, cfg.Transfer, cfg.RowSettingsFor("ngram-metric_ft"))
	}
	if _, err := PresetNamed("fast"); err == nil || !strings.Contains(err.Error(), "cpu, quick, paper") {
		t.Errorf("unknown preset: %v", err)
	}
	bad := Preset{Name: "bad", Settings: "roundz=2"}
	if _, err := bad.Apply(&cfg, nil); err == nil || !strings.Contains(err.Error(), `"roundz"`) || !strings.Contains(err.Error(), "rounds") {
		t.Errorf("bad preset key: %v", err)
	}
}
