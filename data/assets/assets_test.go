package assets

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestCacheDirHonoursEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	got, err := CacheDir()
	if err != nil || got != dir {
		t.Fatalf("CacheDir() = %q, %v; want %q", got, err, dir)
	}
	p, err := NpmPackageDir("@scope/pkg")
	if err != nil || p != filepath.Join(dir, "npm", "node_modules", "@scope", "pkg") {
		t.Fatalf("NpmPackageDir = %q, %v", p, err)
	}
}

func TestCacheDirDefaultsToUserCache(t *testing.T) {
	t.Setenv(CacheEnv, "")
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg-test")
	got, err := CacheDir()
	if err != nil || got != "/tmp/xdg-test/roleprint" {
		t.Fatalf("CacheDir() = %q, %v", got, err)
	}
}

func TestMissingErrorNamesTheSetupCommand(t *testing.T) {
	err := &MissingError{What: "GloVe vectors", Path: "/x/glove.bin", Step: "glove"}
	msg := err.Error()
	for _, want := range []string{"GloVe vectors", "/x/glove.bin", "roleprint setup glove"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
}

func TestRegisterSortsAndRejectsDuplicates(t *testing.T) {
	noop := func(context.Context, func(string, ...any)) error { return nil }
	Register(Step{Name: "zz-test", Installed: func() bool { return false }, Run: noop})
	Register(Step{Name: "aa-test", Installed: func() bool { return true }, Run: noop})
	var names []string
	for _, s := range Steps() {
		names = append(names, s.Name)
	}
	joined := strings.Join(names, ",")
	if !strings.Contains(joined, "aa-test") || strings.Index(joined, "aa-test") > strings.Index(joined, "zz-test") {
		t.Fatalf("steps not sorted or missing: %v", names)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("registering a step twice did not panic")
		}
	}()
	Register(Step{Name: "aa-test", Run: noop})
}

func TestNpmInstallWithoutNpmSaysSo(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	t.Setenv("PATH", t.TempDir())
	_, err := NpmInstall(context.Background(), "left-pad@1.3.0", nil)
	if err == nil || !strings.Contains(err.Error(), "npm not found") {
		t.Fatalf("want a clear npm-not-found error, got %v", err)
	}
}
