package verifier

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReadFitTexts reads a bundle's training texts as Load does (an empty
// line is an empty text), and refuses a bundle without them.
func TestReadFitTexts(t *testing.T) {
	write := func(fitTexts string, files map[string]string) string {
		dir := t.TempDir()
		fit := ""
		if fitTexts != "" {
			fit = fmt.Sprintf(`, "fit_texts": %q`, fitTexts)
		}
		spec := fmt.Sprintf(`{"format": %q, "format_version": %d, "name": "t", "manifest": "manifest.json"%s,
			"parts": [{"row": "lsm", "encoder": "lsm", "weight": 1}]}`, Format, FormatVersion, fit)
		files[SpecFile] = spec
		files["manifest.json"] = "{}"
		for f, body := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	dir := write("train.txt", map[string]string{"train.txt": "one text\n\nthird text\n"})
	got, err := ReadFitTexts(dir)
	if err != nil || !slices.Equal(got, []string{"one text", "", "third text"}) {
		t.Errorf("ReadFitTexts: %q, %v", got, err)
	}
	if _, err := ReadFitTexts(write("", map[string]string{})); err == nil || !strings.Contains(err.Error(), "no fit texts") {
		t.Errorf("a bundle without fit texts: %v", err)
	}
	if _, err := ReadFitTexts(t.TempDir()); err == nil || !strings.Contains(err.Error(), SpecFile) {
		t.Errorf("not a bundle: %v", err)
	}
}
