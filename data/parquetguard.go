package data

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// The Parquet library trusts a file's footer: a corrupted byte in its
// metadata or page index can make it index out of range or allocate
// without bound, and it panics instead of returning an error. Every call
// into it that reads a file goes through the functions here, which turn
// such a panic into an error naming the file, and check the footer's
// numbers against the file's size first, so a damaged corpus file is a
// clear message in every command (stats, pairs, reproduce, persona,
// judge) instead of a crash.

// corruptError is the error for a file the library could not read.
func corruptError(path string, what any) error {
	return fmt.Errorf("read %s: corrupted or truncated Parquet file (%v); re-create it from its sources", path, what)
}

// openParquetGuarded opens a Parquet file of size bytes, converting a
// library panic into an error, and validates the metadata: row groups
// whose column chunks lie outside the file, negative row counts.
func openParquetGuarded(path string, r io.ReaderAt, size int64) (pf *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			pf, err = nil, corruptError(path, p)
		}
	}()
	if err := checkFooter(path, r, size); err != nil {
		return nil, err
	}
	pf, err = parquet.OpenFile(r, size, parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("read %s: not a Parquet file: %w", path, err)
	}
	if err := checkMetadata(path, pf, size); err != nil {
		return nil, err
	}
	return pf, nil
}

// checkMetadata compares the footer's offsets and counts with the file.
func checkMetadata(path string, pf *parquet.File, size int64) error {
	md := pf.Metadata()
	if md.NumRows < 0 {
		return corruptError(path, fmt.Sprintf("negative row count %d", md.NumRows))
	}
	var rows int64
	for i, rg := range md.RowGroups {
		if rg.NumRows < 0 {
			return corruptError(path, fmt.Sprintf("row group %d: negative row count %d", i, rg.NumRows))
		}
		rows += rg.NumRows
		for j, cc := range rg.Columns {
			m := cc.MetaData
			start := m.DataPageOffset
			if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
				start = m.DictionaryPageOffset
			}
			if start < 0 || m.TotalCompressedSize < 0 || start+m.TotalCompressedSize > size {
				return corruptError(path, fmt.Sprintf("row group %d, column %d: data at bytes %d+%d outside the file of %d bytes",
					i, j, start, m.TotalCompressedSize, size))
			}
		}
	}
	if rows != md.NumRows {
		return corruptError(path, fmt.Sprintf("row groups hold %d rows, the footer says %d", rows, md.NumRows))
	}
	return nil
}

// guardedRead calls r.Read, converting a library panic into an error.
func guardedRead[T any](path string, r *parquet.GenericReader[T], buf []T) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, corruptError(path, p)
		}
	}()
	return r.Read(buf)
}

// guardedClose closes r, converting a library panic into an error.
func guardedClose[T any](path string, r *parquet.GenericReader[T]) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corruptError(path, p)
		}
	}()
	return r.Close()
}

// guardedReader creates the reader of a file, converting a library panic
// into an error.
func guardedReader[T any](path string, pf *parquet.File) (r *parquet.GenericReader[T], err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, corruptError(path, p)
		}
	}()
	return parquet.NewGenericReader[T](pf), nil
}

// parquetMagic opens and closes every Parquet file.
const parquetMagic = "PAR1"

// checkFooter reads the file's last 8 bytes (the footer's length and the
// closing magic) and its first 4 (the opening magic) and checks that the
// footer fits between them. The library allocates a buffer of the
// footer's stated length before reading it, so an unchecked length of
// "ff ff ff ff" costs 4 GiB, enough to kill a process under a memory
// limit, before any other check runs.
func checkFooter(path string, r io.ReaderAt, size int64) error {
	const frame = int64(2*len(parquetMagic) + 4) // opening magic, footer length, closing magic
	if size < frame {
		return fmt.Errorf("read %s: not a Parquet file: %d bytes, shorter than the %d of an empty one", path, size, frame)
	}
	var head [4]byte
	var tail [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if _, err := r.ReadAt(tail[:], size-int64(len(tail))); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if string(head[:]) != parquetMagic || string(tail[4:]) != parquetMagic {
		return fmt.Errorf("read %s: not a Parquet file: expected %q at its start and end, found %q and %q", path, parquetMagic, head[:], tail[4:])
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-frame {
		return corruptError(path, fmt.Sprintf("footer of %d bytes in a file of %d bytes", n, size))
	}
	return nil
}
