package table2

import (
	"github.com/roleprint/roleprint/sv"

	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/data/pairs"
)

// paperTable2TSV is Table 2 of Yang et al., "Speaker Verification in
// Agent-generated Conversations", as published (percentages, mean ±std
// over 3 rounds; tab-separated: model, then AUC, ACC, F1 for Seen-Seen,
// Seen-Unseen and Unseen-Unseen, an empty column between exposures).
const paperTable2TSV = `Base Level
LIWC	52.56 ±1.43	50.45 ±0.48	42.96 ±0.23		51.26 ±0.44	51.59 ±0.38	49.08 ±0.65		54.90 ±0.85	55.15 ±0.71	53.87 ±2.09
LISA	76.80 ±0.23	78.37 ±0.74	65.03 ±0.60		67.66 ±0.29	62.69 ±0.29	62.60 ±0.29		69.44 ±0.83	64.88 ±0.82	64.44 ±1.19
STEL	79.36 ±0.89	79.16 ±0.35	66.86 ±1.00		67.98 ±0.31	66.99 ±0.13	65.98 ±0.42		78.37 ±1.22	74.51 ±1.40	74.37 ±1.43
SBERT	89.34 ±0.10	84.13 ±0.07	78.71 ±0.22		86.18 ±0.12	78.45 ±0.17	78.45 ±0.17		82.49 ±1.34	75.13 ±1.47	75.11 ±1.48
RoBERTa	70.33 ±0.84	76.31 ±0.14	53.58 ±0.22		57.97 ±0.23	54.96 ±0.11	53.77 ±0.09		79.62 ±0.71	70.76 ±1.28	69.85 ±1.65
LUAR	87.29 ±0.27	85.24 ±0.44	78.92 ±0.55		86.25 ±0.75	78.77 ±0.64	78.74 ±0.62		85.75 ±0.51	79.61 ±0.70	79.57 ±0.70
STELft	97.21 ±2.31	95.93 ±2.61	93.19 ±1.58		91.92 ±1.61	85.78 ±1.74	83.18 ±2.15		85.24 ±2.18	81.31 ±2.25	80.16 ±2.31
SBERTft	97.47 ±1.14	96.14 ±1.78	92.95 ±1.88		92.47 ±1.12	85.89 ±0.55	85.66 ±1.62		85.71 ±1.88	81.78 ±2.04	80.24 ±2.11
RoBERTaft	97.61 ±0.73	96.29 ±1.17	93.38 ±1.19		92.70 ±1.08	86.08 ±1.07	86.19 ±0.96		86.25 ±1.07	82.03 ±1.77	80.62 ±1.74
LUARft	97.47 ±1.18	96.46 ±1.32	93.57 ±1.12		92.49 ±1.15	85.96 ±1.23	85.94 ±1.17		86.27 ±1.03	82.38 ±1.22	80.19 ±1.28
Mixed Features	98.05 ±0.95	97.25 ±1.06	95.61 ±0.97		93.08 ±1.02	86.38 ±0.97	87.35 ±0.91		88.61 ±0.96	83.08 ±1.06	81.07 ±0.95
Hard Level
LIWC	53.24 ±0.48	52.82 ±0.39	52.75 ±0.30		49.69 ±0.31	50.62 ±0.16	44.41 ±0.22		52.81 ±0.72	52.35 ±0.44	52.19 ±0.44
LISA	55.13 ±0.17	53.99 ±0.12	53.44 ±0.48		58.73 ±0.09	56.53 ±0.18	56.43 ±0.16		56.10 ±0.66	54.87 ±0.41	54.71 ±0.26
STEL	59.10 ±0.54	57.69 ±0.72	57.55 ±0.77		53.06 ±0.24	53.24 ±0.57	50.02 ±0.57		58.62 ±1.61	57.57 ±1.36	57.47 ±1.38
SBERT	61.63 ±0.07	58.37 ±0.25	58.24 ±0.15		75.98 ±0.18	69.72 ±0.21	69.71 ±0.29		65.88 ±1.75	61.23 ±1.67	61.08 ±1.61
RoBERTa	55.19 ±0.22	50.53 ±0.09	49.20 ±0.42		57.05 ±0.25	54.45 ±0.21	53.10 ±0.21		62.95 ±0.24	57.66 ±0.61	52.84 ±1.61
LUAR	63.43 ±0.28	60.43 ±0.25	60.37 ±0.27		61.96 ±0.24	58.84 ±0.17	58.65 ±0.11		65.01 ±0.38	62.04 ±0.30	61.63 ±0.50
STELft	92.71 ±2.13	90.10 ±2.41	87.09 ±2.41		87.72 ±2.17	81.41 ±1.74	81.18 ±1.82		75.25 ±1.68	70.33 ±1.26	70.08 ±1.34
SBERTft	92.45 ±1.49	90.14 ±1.69	87.12 ±1.71		87.29 ±0.57	81.68 ±0.55	81.66 ±0.56		78.65 ±1.65	73.31 ±1.99	73.27 ±1.99
RoBERTaft	92.63 ±1.58	90.70 ±1.81	87.69 ±1.82		89.80 ±0.52	82.24 ±0.25	81.93 ±0.23		78.67 ±1.77	73.53 ±1.39	73.52 ±1.42
LUARft	94.93 ±2.18	93.03 ±1.72	89.16 ±1.72		89.79 ±1.55	82.61 ±1.63	82.60 ±1.73		78.69 ±1.33	73.25 ±1.96	74.19 ±1.98
Mixed Features	95.02 ±1.12	93.39 ±1.21	89.38 ±1.22		90.65 ±0.25	82.98 ±0.24	82.93 ±0.23		79.99 ±1.21	74.67 ±1.14	75.27 ±1.15
Harder Level
LIWC	41.20 ±0.61	50.96 ±0.70	33.95 ±0.18		36.95 ±0.80	50.01 ±0.01	33.52 ±0.27		44.92 ±1.83	50.29 ±0.29	34.36 ±1.15
LISA	36.75 ±0.63	50.88 ±0.78	33.72 ±0.34		29.45 ±0.73	50.00 ±0.00	33.33 ±0.00		37.43 ±2.28	50.05 ±0.08	33.45 ±0.16
STEL	43.11 ±0.65	50.82 ±0.40	37.18 ±2.45		46.69 ±0.50	50.01 ±0.13	38.09 ±4.81		38.68 ±2.01	49.45 ±0.66	34.96 ±0.51
SBERT	23.74 ±0.39	50.90 ±0.76	33.73 ±0.33		25.12 ±0.07	49.99 ±0.01	33.32 ±0.00		22.68 ±0.48	50.00 ±0.00	33.33 ±0.00
RoBERTa	31.15 ±0.48	49.93 ±0.26	33.33 ±0.13		25.71 ±0.24	50.00 ±0.00	33.33 ±0.00		41.07 ±2.11	50.76 ±0.74	38.56 ±3.83
LUAR	37.12 ±0.43	50.89 ±0.78	33.73 ±0.34		35.44 ±0.81	50.00 ±0.00	33.33 ±0.00		38.65 ±0.48	50.00 ±0.00	33.33 ±0.00
STELft	77.91 ±2.13	72.34 ±2.69	72.09 ±2.58		70.92 ±2.26	64.56 ±2.54	65.35 ±2.87		63.13 ±2.66	58.81 ±2.14	58.56 ±2.61
SBERTft	75.67 ±2.87	71.71 ±2.79	71.12 ±2.56		65.39 ±2.85	60.26 ±2.48	60.81 ±2.57		60.61 ±2.58	55.31 ±2.96	55.37 ±2.37
RoBERTaft	76.56 ±2.56	71.58 ±2.56	70.67 ±1.82		68.27 ±2.67	63.24 ±2.57	64.63 ±2.63		59.67 ±2.64	54.74 ±2.67	54.67 ±2.73
LUARft	77.33 ±2.23	72.32 ±2.21	71.66 ±1.98		69.48 ±2.24	63.67 ±2.34	63.64 ±2.31		60.59 ±2.73	55.84 ±2.66	55.47 ±2.17
Mixed Features	78.02 ±1.24	72.37 ±1.74	72.38 ±1.77		71.09 ±1.57	65.08 ±1.46	65.44 ±1.43		63.29 ±1.84	58.67 ±1.94	58.74 ±1.95`

// MeanStd is a published mean ± standard deviation, in percent.
type MeanStd struct {
	// Mean and Std as printed (percent, two decimals).
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// PaperCell is one model's published AUC, ACC and F1 on one test set.
type PaperCell struct {
	// AUC, ACC and F1 (macro) as published.
	AUC MeanStd `json:"auc"`
	ACC MeanStd `json:"acc"`
	F1  MeanStd `json:"f1"`
}

// PaperRow is one row of the paper's Table 2: a model at one level, with
// a cell per exposure.
type PaperRow struct {
	// Model is the paper's row name ("LUAR", "SBERTft", "Mixed Features"),
	// Level the block it stands in, Cells its numbers by exposure.
	Model string                       `json:"model"`
	Level pairs.Level                  `json:"level"`
	Cells map[pairs.Exposure]PaperCell `json:"cells"`
}

var (
	paperOnce sync.Once
	paperRows []PaperRow
)

// PaperTable2 returns the paper's Table 2 (33 rows: 11 models × 3 levels),
// in the published order.
func PaperTable2() []PaperRow {
	paperOnce.Do(func() {
		rows, err := parsePaperTable2(paperTable2TSV)
		if err != nil {
			panic("sv: embedded paper table: " + err.Error()) // fixed data: a test guards it
		}
		paperRows = rows
	})
	return paperRows
}

func parsePaperTable2(tsv string) ([]PaperRow, error) {
	var rows []PaperRow
	level := pairs.Level("")
	for n, line := range strings.Split(tsv, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) == 1 {
			switch strings.TrimSpace(f[0]) {
			case "Base Level":
				level = pairs.Base
			case "Hard Level":
				level = pairs.Hard
			case "Harder Level":
				level = pairs.Harder
			default:
				return nil, fmt.Errorf("line %d: unexpected %q", n+1, line)
			}
			continue
		}
		var vals []MeanStd
		for _, c := range f[1:] {
			c = strings.TrimSpace(c)
			if c == "" {
				continue
			}
			m, s, ok := strings.Cut(c, "±")
			if !ok {
				return nil, fmt.Errorf("line %d: %q is not mean ±std", n+1, c)
			}
			mv, err1 := strconv.ParseFloat(strings.TrimSpace(m), 64)
			sv, err2 := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("line %d: %q is not mean ±std", n+1, c)
			}
			vals = append(vals, MeanStd{mv, sv})
		}
		if len(vals) != 9 || level == "" {
			return nil, fmt.Errorf("line %d: %d values (want 9) or no level", n+1, len(vals))
		}
		row := PaperRow{Model: f[0], Level: level, Cells: map[pairs.Exposure]PaperCell{}}
		for i, e := range pairs.Exposures {
			row.Cells[e] = PaperCell{AUC: vals[3*i], ACC: vals[3*i+1], F1: vals[3*i+2]}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// PaperTable2Cell returns the paper's numbers for model (as printed in the
// paper: "LIWC", "LUARft", "Mixed Features") on test set k.
func PaperTable2Cell(model string, k pairs.TestKey) (PaperCell, bool) {
	for _, r := range PaperTable2() {
		if r.Model == model && r.Level == k.Level {
			c, ok := r.Cells[k.Exposure]
			return c, ok
		}
	}
	return PaperCell{}, false
}

// The paper's counterparts of the rows this package defines. The paper's
// "LIWC" row scores LIWC categories with the LSM metric (Ireland &
// Pennebaker's Language Style Matching), which is our "lsm" row; "liwc" (a
// LIWC-like style vector compared by cosine) has no published counterpart.
func init() {
	for enc, model := range map[string]string{
		"lsm": "LIWC", MixedName: "Mixed Features",
		"lisa": "LISA", "stel": "STEL", "sbert": "SBERT", "roberta": "RoBERTa", "luar": "LUAR",
		"stel_ft": "STELft", "sbert_ft": "SBERTft", "roberta_ft": "RoBERTaft", "luar_ft": "LUARft",
	} {
		sv.RegisterPaperCounterpart(enc, model)
	}
}
