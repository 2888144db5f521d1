package main

import (
	"bufio"
	"errors"
	"fmt"
)

// maxLineBytes is the longest line the line readers of the commands
// accept (utterance files, JSONL records, word timings): far above any
// utterance or record, small enough that a file without line breaks
// cannot take the memory.
const maxLineBytes = 16 << 20

// maxRecordBytes is the longest JSONL record (judge instances may carry
// audio inline).
const maxRecordBytes = 64 << 20

// newLineScanner returns sc reading lines up to limit bytes.
func newLineScanner(sc *bufio.Scanner, limit int) *bufio.Scanner {
	sc.Buffer(make([]byte, 64<<10), limit)
	return sc
}

// scanError explains a scanner's error at line n of path: a line over
// limit is named with its number and the limit, not as bufio's "token
// too long".
func scanError(path string, n int, err error, limit int) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%s:%d: line longer than %d MiB, the most one line may hold (is the file one record per line?)", path, n, limit>>20)
	}
	return fmt.Errorf("%s:%d: %w", path, n, err)
}
