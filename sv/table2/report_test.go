package table2

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// TestReportFormatsAgree writes a one-round result (every _std undefined)
// and checks that the CSV, Parquet and JSON reports hold the same rows,
// value for value, and that the Markdown table prints each AUC.
func TestReportFormatsAgree(t *testing.T) {
	cfg := testConfig()
	cfg.Rounds = 1
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := res.WriteReport(dir, NewManifest(res)); err != nil {
		t.Fatal(err)
	}
	want := res.Rows

	fromParquet, err := data.ReadParquet[Row](filepath.Join(dir, ReportParquet))
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON struct {
		Rows []Row `json:"rows"`
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fromJSON); err != nil {
		t.Fatal(err)
	}
	fromCSV := readCSVRows(t, filepath.Join(dir, ReportCSV))

	for name, got := range map[string][]Row{"parquet": fromParquet, "json": fromJSON.Rows, "csv": fromCSV} {
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", name, len(got), len(want))
		}
		for i := range want {
			if d := rowDiff(got[i], want[i]); d != "" {
				t.Errorf("%s row %d (%s %s %s): %s", name, i, want[i].Encoder, want[i].Exposure, want[i].Level, d)
			}
		}
	}
	if !math.IsNaN(float64(want[0].AUCStd)) {
		t.Errorf("one round: auc_std %v, want NaN", want[0].AUCStd)
	}
	md, _ := os.ReadFile(filepath.Join(dir, ReportMarkdown))
	for _, r := range want {
		if s := fmt.Sprintf(" %.2f |", 100*float64(r.AUCMean)); !bytes.Contains(md, []byte(s)) {
			t.Errorf("markdown lacks %s's AUC %q", r.Encoder, s)
		}
		if s := fmt.Sprintf(" %.2f |", 100*float64(r.AveragePrecisionMean)); !r.AveragePrecisionMean.Defined() || !bytes.Contains(md, []byte(s)) {
			t.Errorf("markdown lacks %s's average precision %q", r.Encoder, s)
		}
	}
}

// readCSVRows parses a table2.csv back into rows by its header.
func readCSVRows(t *testing.T, path string) []Row {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []Row
	for _, rec := range recs[1:] {
		m := map[string]any{}
		for i, k := range recs[0] {
			switch v := rec[i]; {
			case v == "":
				m[k] = nil
			case k == "encoder" || k == "exposure" || k == "level" || k == "paper_model" || k == "decision_rule":
				m[k] = v
			default:
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("csv %s=%q: %v", k, v, err)
				}
				m[k] = x
			}
		}
		js, _ := json.Marshal(m)
		var r Row
		if err := json.Unmarshal(js, &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// rowDiff describes how two rows differ (NaN equals NaN), or "".
func rowDiff(a, b Row) string {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		return fmt.Sprintf("%s\nwant %s", ja, jb)
	}
	return ""
}
