package kernel

import (
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

// RowSetting is one setting of a Table 2 row as a run resolves it: the
// value the row runs with, the encoder's default, and the first sentence of
// the key's documentation (`roleprint config ROW` prints all of it).
type RowSetting struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Default string `json:"default"`
	// Changed is true when the run's preset or settings changed the
	// default.
	Changed bool   `json:"changed"`
	Doc     string `json:"doc"`
}

// RowSettings lists every setting of row in cfg (a resolved run's
// configuration, e.g. Table2Plan.Config or a Result's Config), in the
// encoder's field order: what the row runs with, beside the defaults. A
// row whose encoder registered no options (liwc, lsm, pos) has none.
func RowSettings(cfg table2.Config, row string) ([]RowSetting, error) {
	resolved, err := sv.ResolveOptions(row, cfg.EncoderOptions(row, cfg.Seed))
	if err != nil {
		return nil, err
	}
	defaults, err := sv.OptionKeys(row)
	if err != nil {
		return nil, err
	}
	def := make(map[string]string, len(defaults))
	for _, k := range defaults {
		def[k.Name] = k.Default
	}
	var out []RowSetting
	for _, k := range options.Keys(resolved) {
		out = append(out, RowSetting{Key: k.Name, Value: k.Default, Default: def[k.Name], Changed: k.Default != def[k.Name], Doc: firstSentence(k.Doc)})
	}
	return out, nil
}

// RowSettingsTable is RowSettings as a table titled with the row's name.
func RowSettingsTable(cfg table2.Config, row string) (*Table, error) {
	s, err := RowSettings(cfg, row)
	if err != nil {
		return nil, err
	}
	t, err := TableOf(s)
	if err != nil {
		return nil, err
	}
	t.Title = fmt.Sprintf("Settings of %s (preset %s; changed = set by the preset or the run, not the encoder's default)", row, orNone(cfg.Preset))
	return t, nil
}

// firstSentence returns doc up to its first ". " (the whole of a shorter
// doc), on one line.
func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		return doc[:i+1]
	}
	return doc
}

// Setting is one setting of a configuration struct: its key, the value in
// the struct shown, and the first sentence of its documentation.
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Doc   string `json:"doc"`
}

// SettingsTable lists every setting of cfg (a configuration struct or a
// pointer to one, whose fields carry `opt` or `json` keys, such as
// pairs.PairConfig, roleplay.Config or distill.Config) with its value, and
// its documentation where the type recorded it (internal/options.Document),
// so a notebook prints the configuration it runs. A value without
// settings is an error.
func SettingsTable(title string, cfg any) (*Table, error) {
	keys := options.Keys(cfg)
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: %T has no settings", title, cfg)
	}
	rows := make([]Setting, len(keys))
	docs := false
	for i, k := range keys {
		rows[i] = Setting{Key: k.Name, Value: k.Default, Doc: firstSentence(k.Doc)}
		docs = docs || rows[i].Doc != ""
	}
	columns := []string{"key", "value", "doc"}
	if !docs {
		columns = columns[:2] // a type without recorded docs: no empty column
	}
	t, err := TableOf(rows, columns...)
	if err != nil {
		return nil, err
	}
	t.Title = title
	return t, nil
}
