package data

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/roleprint/roleprint/internal/fsx"
)

// RowGroupSize bounds the rows of one Parquet row group, and with it the
// memory a writer or a streaming reader holds at once.
const RowGroupSize = 64 * 1024

// readBatch is how many rows a streaming reader decodes at a time.
const readBatch = 4096

// ParquetWriter writes typed rows to a Parquet file atomically: rows go to a
// temporary file beside the destination, which replaces the destination
// only when Close succeeds. An abandoned or failed writer (Abort, or an
// error from Close) leaves any earlier file at that path untouched.
type ParquetWriter[T any] struct {
	path string
	tmp  *fsx.Pending
	w    *parquet.GenericWriter[T]
	n    int64
	done bool
}

// CreateParquet starts an atomic Parquet file of rows of type T at path,
// compressed with zstd and cut into row groups of at most RowGroupSize rows.
// The parent folder is created when missing. opts add to the writer's
// configuration (parquet.KeyValueMetadata for the file's footer).
func CreateParquet[T any](path string, opts ...parquet.WriterOption) (*ParquetWriter[T], error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	// Corpus files are ordinary data: 0644.
	tmp, err := fsx.Create(path, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	w := parquet.NewGenericWriter[T](tmp.File, append([]parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.MaxRowsPerRowGroup(RowGroupSize),
	}, opts...)...)
	return &ParquetWriter[T]{path: path, tmp: tmp, w: w}, nil
}

// Write appends rows.
func (pw *ParquetWriter[T]) Write(rows ...T) error {
	if pw.done {
		return fmt.Errorf("write %s: writer already closed", pw.path)
	}
	if _, err := pw.w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", pw.path, err)
	}
	pw.n += int64(len(rows))
	return nil
}

// Rows reports how many rows were written so far.
func (pw *ParquetWriter[T]) Rows() int64 { return pw.n }

// Close finishes the file and moves it into place.
func (pw *ParquetWriter[T]) Close() error {
	if pw.done {
		return nil
	}
	pw.done = true
	if err := pw.w.Close(); err != nil {
		pw.tmp.Abort()
		return fmt.Errorf("write %s: %w", pw.path, err)
	}
	return pw.tmp.Commit()
}

// Abort discards everything written; the destination is left as it was.
// It is safe to call after Close (then it does nothing), so
// `defer w.Abort()` is the usual guard.
func (pw *ParquetWriter[T]) Abort() {
	if pw.done {
		return
	}
	pw.done = true
	pw.tmp.Abort()
}

// WriteParquet writes all rows to path atomically (see CreateParquet).
func WriteParquet[T any](path string, rows []T, opts ...parquet.WriterOption) error {
	w, err := CreateParquet[T](path, opts...)
	if err != nil {
		return err
	}
	defer w.Abort()
	for start := 0; start < len(rows); start += RowGroupSize {
		end := min(start+RowGroupSize, len(rows))
		if err := w.Write(rows[start:end]...); err != nil {
			return err
		}
	}
	return w.Close()
}

// ScanParquet streams the rows of a Parquet file of row type T in batches,
// guarded against corrupted files (an error naming the file, never a
// panic: see parquetguard.go),
// calling fn for each batch; memory stays bounded whatever the file's size.
// The batch slice is reused: fn must copy rows it keeps. The file's columns
// must include every required column of T, or the error names the file,
// the missing columns and the columns found.
func ScanParquet[T any](path string, fn func(batch []T) error) error {
	// Rows are streamed, so the size is not limited; a device or FIFO is
	// refused (internal/fsx).
	f, _, err := fsx.OpenRegular(path, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if st.Size() == 0 {
		return fmt.Errorf("read %s: empty file, expected a Parquet file", path)
	}
	pf, err := openParquetGuarded(path, f, st.Size())
	if err != nil {
		return err
	}
	if err := checkColumns[T](path, pf.Schema()); err != nil {
		return err
	}
	r, err := guardedReader[T](path, pf)
	if err != nil {
		return err
	}
	defer guardedClose(path, r)
	buf := make([]T, readBatch)
	var row int64
	for {
		n, err := guardedRead(path, r, buf)
		if n > 0 {
			if ferr := fn(buf[:n]); ferr != nil {
				return fmt.Errorf("read %s: rows %d-%d: %w", path, row, row+int64(n)-1, ferr)
			}
			row += int64(n)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: row %d: %w", path, row, err)
		}
		if n == 0 {
			return nil
		}
	}
}

// ReadParquet reads every row of a Parquet file of row type T.
func ReadParquet[T any](path string) ([]T, error) {
	var rows []T
	err := ScanParquet(path, func(batch []T) error {
		rows = append(rows, batch...)
		return nil
	})
	return rows, err
}

// checkColumns verifies that the file schema has every non-optional leaf
// column of T, and that each column T and the file share holds values of
// one kind (text, integer, floating point, boolean), so a file of another
// schema fails with a clear message instead of yielding zero-valued rows
// or failing later on some row.
func checkColumns[T any](path string, got *parquet.Schema) error {
	want := parquet.SchemaOf(new(T))
	have := map[string]bool{}
	var haveList []string
	for _, p := range got.Columns() {
		k := strings.Join(p, ".")
		have[k] = true
		haveList = append(haveList, k)
	}
	var missing, mistyped []string
	for _, p := range want.Columns() {
		k := strings.Join(p, ".")
		leaf, ok := want.Lookup(p...)
		if !ok {
			continue
		}
		if !have[k] {
			if !leaf.Node.Optional() {
				missing = append(missing, k)
			}
			continue
		}
		if g, ok := got.Lookup(p...); ok {
			wk, gk := valueKind(leaf.Node.Type().Kind()), valueKind(g.Node.Type().Kind())
			if wk != gk {
				mistyped = append(mistyped, fmt.Sprintf("%s holds %s, expected %s", k, gk, wk))
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(haveList)
		return fmt.Errorf("read %s: not a file of %s rows: missing columns %s (found %s)",
			path, want.Name(), strings.Join(missing, ", "), strings.Join(haveList, ", "))
	}
	if len(mistyped) > 0 {
		return fmt.Errorf("read %s: not a file of %s rows: column %s", path, want.Name(), strings.Join(mistyped, "; column "))
	}
	return nil
}

// valueKind names the kind of value a Parquet physical type stores, at the
// granularity at which the reader converts between types (an int64 column
// reads into an int32 field, a string column does not).
func valueKind(k parquet.Kind) string {
	switch k {
	case parquet.Boolean:
		return "booleans"
	case parquet.Int32, parquet.Int64, parquet.Int96:
		return "integers"
	case parquet.Float, parquet.Double:
		return "floating-point numbers"
	default:
		return "text or bytes"
	}
}
