package data

import (
	"os"
	"path/filepath"
)

// SharedEnv overrides where SharedCorporaDir looks for the shared corpora.
const SharedEnv = "ROLEPRINT_SHARED"

// SharedCorporaDir finds the real corpora that live beside the project
// (../shared/corpora relative to the folder holding go.mod), or in
// $ROLEPRINT_SHARED/corpora when that is set. Integration tests, benchmarks
// and notebooks call it and skip cleanly when ok is false; the corpora are
// never embedded (only the public-domain Shakespeare is).
func SharedCorporaDir() (dir string, ok bool) {
	if s := os.Getenv(SharedEnv); s != "" {
		d := filepath.Join(s, "corpora")
		return d, isDir(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			c := filepath.Join(filepath.Dir(d), "shared", "corpora")
			return c, isDir(c)
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// SharedCorpus returns the path of one corpus folder under
// SharedCorporaDir ("tbbt", "friends-fangj-html"), and whether it exists.
func SharedCorpus(name string) (string, bool) {
	d, ok := SharedCorporaDir()
	if !ok {
		return "", false
	}
	p := filepath.Join(d, name)
	return p, isDir(p)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
