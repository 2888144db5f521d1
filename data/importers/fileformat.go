package importers

import (
	"context"
	"errors"
)

// FileFormat is a ready-made Importer for formats whose files can be read
// one at a time (most of them): it matches files by extension, reads them
// in order, checks for cancellation and reports progress between files.
//
//	importers.Register("my-format", &importers.FileFormat{
//		Description: "my transcripts (*.txt)",
//		Extensions:  []string{".txt"},
//		ReadFile:    readMyFile,
//	})
type FileFormat struct {
	// Description is what Describe returns.
	Description string
	// Extensions are the file name endings (with the dot, any case) that
	// Match accepts while walking a folder; empty accepts every file.
	Extensions []string
	// Exclude lists base names Match rejects even with a matching
	// extension (an index.html beside the transcripts).
	Exclude []string
	// Parameters is what Params returns.
	Parameters []Param
	// ReadFile reads one file into c.
	ReadFile func(ctx context.Context, path string, opts Options, c *Collector) error
}

// Describe returns f.Description.
func (f *FileFormat) Describe() string { return f.Description }

// Params returns f.Parameters.
func (f *FileFormat) Params() []Param { return f.Parameters }

// Match accepts paths ending in one of f.Extensions and not excluded.
func (f *FileFormat) Match(path string) bool {
	for _, ex := range f.Exclude {
		if baseName(path) == ex {
			return false
		}
	}
	return len(f.Extensions) == 0 || hasExt(path, f.Extensions...)
}

// Read calls ReadFile for each file in order. A file found by walking a
// folder that does not decode as text (ErrNotText) is skipped.
func (f *FileFormat) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	for i, path := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := f.ReadFile(ctx, path, opts, c); err != nil {
			// A file met while walking a folder that is not text at
			// all is not part of the format: skip it, never abort.
			if c.walked[path] && errors.Is(err, ErrNotText) && c.perFile[path] == 0 {
				c.Skip(path, "not a text file")
				continue
			}
			return err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(files))
		}
	}
	return nil
}
