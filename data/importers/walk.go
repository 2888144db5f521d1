package importers

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

// expandPaths turns the user's paths into the list of files to read: files
// are kept as given, folders are walked recursively for the files match
// accepts (hidden files and folders skipped; symbolic links to files and
// folders followed, a link back to a folder being walked is an error).
// Each folder's files are sorted; the order of the paths themselves is
// kept; a file named twice (or reached through two links) is read once.
// walked holds the files found inside folders (not named explicitly).
// Files found inside folders that match accepts but that are not data
// (see skipReason: empty files, READMEs, licences, backups, binary files)
// are returned in skipped, never read; so are such files among several
// files named at once (a shell glob), while a single file named alone is
// always read.
func expandPaths(paths []string, match func(string) bool) (files []string, walked map[string]bool, skipped []SkippedFile, err error) {
	seen := map[string]bool{}
	walked = map[string]bool{}
	add := func(p string, fromWalk bool) {
		key := fileKey(p)
		if seen[key] {
			return
		}
		seen[key] = true
		files = append(files, p)
		if fromWalk {
			walked[p] = true
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			if _, lerr := os.Lstat(p); lerr == nil {
				return nil, nil, nil, fmt.Errorf("%s: broken symbolic link", p)
			}
			if os.IsNotExist(err) {
				return nil, nil, nil, fmt.Errorf("%s: no such file or folder", p)
			}
			return nil, nil, nil, err
		}
		if !st.IsDir() {
			// Several files named at once are a shell glob ("*.csv"):
			// the files that are not data are skipped as in a folder.
			if len(paths) > 1 {
				if reason := skipReason(p, st.Size()); reason != "" {
					skipped = append(skipped, SkippedFile{File: p, Reason: reason})
					continue
				}
			}
			add(p, false)
			continue
		}
		var found []string
		if err := walkFollow(p, nil, func(path string, size int64) {
			if !match(path) {
				return
			}
			if reason := skipReason(path, size); reason != "" {
				if !seen[fileKey(path)] {
					skipped = append(skipped, SkippedFile{File: path, Reason: reason})
				}
				return
			}
			found = append(found, path)
		}); err != nil {
			return nil, nil, nil, err
		}
		if len(found) == 0 && len(skipped) == 0 {
			return nil, nil, nil, fmt.Errorf("%s: folder holds no files of this format", p)
		}
		slices.Sort(found)
		for _, f := range found {
			add(f, true)
		}
	}
	if len(files) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no files of this format, only files that are not data (%d skipped: %s)",
			strings.Join(paths, ", "), len(skipped), describeSkipped(skipped))
	}
	return files, walked, skipped, nil
}

// describeSkipped lists up to three skipped files with their reasons.
func describeSkipped(s []SkippedFile) string {
	var parts []string
	for i, f := range s {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(s)-3))
			break
		}
		parts = append(parts, f.File+": "+f.Reason)
	}
	return strings.Join(parts, "; ")
}

// fileKey identifies a file whatever the path it is reached by: its path
// with symbolic links resolved, made absolute.
func fileKey(p string) string {
	key := filepath.Clean(p)
	if abs, err := filepath.Abs(p); err == nil {
		key = abs
	}
	if real, err := filepath.EvalSymlinks(key); err == nil {
		key = real
	}
	return key
}

// walkFollow calls fn for every regular file under dir (at any depth,
// through symbolic links), in directory order, skipping hidden entries.
// ancestors holds the resolved paths of the folders being walked above
// dir; a folder that resolves to one of them is a loop and an error.
func walkFollow(dir string, ancestors []string, fn func(path string, size int64)) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if real, err = filepath.Abs(real); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if slices.Contains(ancestors, real) {
		return fmt.Errorf("%s: symbolic link loop: the folder is %s, which is already being walked", dir, real)
	}
	if len(ancestors) > 64 {
		return fmt.Errorf("%s: folders nested more than 64 deep", dir)
	}
	ancestors = append(ancestors, real)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, d := range entries {
		name := d.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		st, err := os.Stat(path) // follows links
		if err != nil {
			if d.Type()&fs.ModeSymlink != 0 {
				return fmt.Errorf("%s: broken symbolic link", path)
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case st.IsDir():
			if err := walkFollow(path, ancestors, fn); err != nil {
				return err
			}
		case st.Mode().IsRegular():
			fn(path, st.Size())
		}
	}
	return nil
}

// skipReason says why a file found while walking a folder is not data of
// any format, or "" when it may be: a zero-byte file, a README, a licence
// or changelog, a backup copy ("Characters-bak.csv", "x.csv~",
// "x.bak"), or binary data (an image, an archive).
func skipReason(path string, size int64) string {
	name := strings.ToLower(filepath.Base(path))
	base := strings.TrimSuffix(name, filepath.Ext(name))
	switch {
	case size == 0:
		return "zero-byte file"
	case base == "readme" || strings.HasPrefix(name, "readme."):
		return "README"
	case slices.Contains([]string{"license", "licence", "copying", "notice", "changelog", "changes", "authors"}, base):
		return "licence or project file"
	}
	if orig, ok := backupOf(filepath.Base(path)); ok {
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), orig)); err == nil {
			return "backup copy of " + orig
		}
		return "backup copy"
	}
	if isBinaryFile(path) {
		return "binary data, not text"
	}
	return ""
}

// backupOf returns the name of the file a backup copy was made of
// ("Characters-bak.csv" → "Characters.csv", "x.csv~" → "x.csv") and
// whether name is a backup copy at all.
func backupOf(name string) (string, bool) {
	lower := strings.ToLower(name)
	for _, suf := range []string{"~", ".bak", ".orig"} {
		if strings.HasSuffix(lower, suf) && len(name) > len(suf) {
			return name[:len(name)-len(suf)], true
		}
	}
	ext := filepath.Ext(name)
	base, lowerBase := name[:len(name)-len(ext)], strings.ToLower(name[:len(name)-len(ext)])
	for _, suf := range []string{"-bak", "_bak", ".bak", " - copy", "-backup", "_backup"} {
		if strings.HasSuffix(lowerBase, suf) && len(base) > len(suf) {
			return base[:len(base)-len(suf)] + ext, true
		}
	}
	return "", false
}

// isBinaryFile reports whether the first 8 KiB of path hold NUL bytes that
// are not the pattern of UTF-16 text (or the file cannot be read).
func isBinaryFile(path string) bool {
	f, _, err := fsx.OpenRegular(path, 0)
	if err != nil {
		return false // the reader reports it
	}
	defer f.Close()
	buf := make([]byte, 8*1024)
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	if bytes.IndexByte(buf, 0) < 0 {
		return false
	}
	if bytes.HasPrefix(buf, []byte{0xFF, 0xFE}) || bytes.HasPrefix(buf, []byte{0xFE, 0xFF}) || sniffUTF16(buf) != "" {
		return false
	}
	return true
}

// hasExt reports whether path ends with one of exts (case-insensitive,
// each with its dot: ".csv").
func hasExt(path string, exts ...string) bool {
	lower := strings.ToLower(path)
	for _, e := range exts {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}

// stem returns the file name without folder and extension.
func stem(path string) string {
	b := filepath.Base(path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// baseName returns the last element of path.
func baseName(path string) string { return filepath.Base(path) }
