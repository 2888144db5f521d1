package uselite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/assets"
)

// fakePackage writes a package.json (version) and the listed dist files
// under a cache folder laid out as assets.NpmInstall does.
func fakePackage(t *testing.T, cache, version string, files ...string) string {
	t.Helper()
	pkg := filepath.Join(cache, "npm", "node_modules", filepath.FromSlash(NpmPackage))
	dist := filepath.Join(pkg, "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name": "`+NpmPackage+`", "version": "`+version+`"}`), 0o640); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dist, f), []byte("{}"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dist
}

func TestInstalledDir(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(assets.CacheEnv, cache)
	var missing *assets.MissingError
	if _, err := InstalledDir(); !errors.As(err, &missing) || missing.Step != SetupStep {
		t.Fatalf("empty cache: want a MissingError for step %s, got %v", SetupStep, err)
	}
	if !strings.Contains(missing.Error(), "roleprint setup use-lite") {
		t.Errorf("message does not give the command: %s", missing.Error())
	}
	fakePackage(t, cache, "0.1.0", "model.json", "vocab.json")
	if _, err := InstalledDir(); !errors.As(err, &missing) || !strings.Contains(err.Error(), `found version "0.1.0"`) {
		t.Errorf("wrong version: %v", err)
	}
	dist := fakePackage(t, cache, NpmVersion, "model.json")
	if err := os.Remove(filepath.Join(dist, "vocab.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := InstalledDir(); !errors.As(err, &missing) {
		t.Errorf("no vocab.json: %v", err)
	}
	fakePackage(t, cache, NpmVersion, "vocab.json")
	got, err := InstalledDir()
	if err != nil || got != dist {
		t.Fatalf("InstalledDir() = %q, %v; want %q", got, err, dist)
	}
	var step *assets.Step
	for _, s := range assets.Steps() {
		if s.Name == SetupStep {
			step = &s
		}
	}
	if step == nil || !step.Installed() {
		t.Fatalf("setup step %q not registered or not installed: %+v", SetupStep, step)
	}
}

// TestMakeReadable checks the fix for npm's 0640 files: everyone may read
// them afterwards.
func TestMakeReadable(t *testing.T) {
	cache := t.TempDir()
	dist := fakePackage(t, cache, NpmVersion, "model.json", "vocab.json")
	if err := makeReadable(filepath.Dir(dist)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"model.json", "vocab.json", "../package.json"} {
		st, err := os.Stat(filepath.Join(dist, f))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", f, st.Mode().Perm())
		}
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "model.json") {
		t.Errorf("empty folder: %v", err)
	}
	cache := t.TempDir()
	dist := fakePackage(t, cache, NpmVersion, "model.json", "vocab.json")
	if _, err := Load(dist); err == nil || !strings.Contains(err.Error(), "not a TF.js graph model") {
		t.Errorf("empty model.json: %v", err)
	}
}
