package importers

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// expandPaths turns the user's paths into the list of files to read: files
// are kept as given, folders are walked recursively for the files match
// accepts (hidden files and folders skipped). Each folder's files are
// sorted; the order of the paths themselves is kept; a file named twice is
// read once. walked holds the files found inside folders (not named
// explicitly).
func expandPaths(paths []string, match func(string) bool) (files []string, walked map[string]bool, err error) {
	seen := map[string]bool{}
	walked = map[string]bool{}
	add := func(p string, fromWalk bool) {
		key := filepath.Clean(p)
		if abs, err := filepath.Abs(p); err == nil {
			key = abs
		}
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
			if os.IsNotExist(err) {
				return nil, nil, fmt.Errorf("%s: no such file or folder", p)
			}
			return nil, nil, err
		}
		if !st.IsDir() {
			add(p, false)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if path != p && strings.HasPrefix(name, ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && match(path) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if len(found) == 0 {
			return nil, nil, fmt.Errorf("%s: folder holds no files of this format", p)
		}
		slices.Sort(found)
		for _, f := range found {
			add(f, true)
		}
	}
	return files, walked, nil
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
