package data

import "fmt"

// WriteUtterances validates and writes utterances to a Parquet corpus file
// atomically. The error names the first invalid row.
func WriteUtterances(path string, utts []Utterance) error {
	for i := range utts {
		if err := utts[i].Validate(); err != nil {
			return fmt.Errorf("write %s: row %d: %w", path, i, err)
		}
	}
	return WriteParquet(path, utts)
}

// ScanUtterances streams a corpus file batch by batch with bounded memory
// (see ScanParquet); rows are validated as they are read.
func ScanUtterances(path string, fn func(batch []Utterance) error) error {
	var row int
	return ScanParquet(path, func(batch []Utterance) error {
		for i := range batch {
			if err := batch[i].Validate(); err != nil {
				return fmt.Errorf("row %d: %w", row+i, err)
			}
		}
		row += len(batch)
		return fn(batch)
	})
}

// ReadUtterances reads whole corpus files, in order, into memory.
func ReadUtterances(paths ...string) ([]Utterance, error) {
	var all []Utterance
	for _, p := range paths {
		err := ScanUtterances(p, func(batch []Utterance) error {
			all = append(all, batch...)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}
