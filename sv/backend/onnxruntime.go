package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"

	"github.com/roleprint/roleprint/data/assets"
)

const (
	// ONNXRuntimeNpmPackage is the npm package that ships ONNX Runtime's
	// shared library for Linux, macOS and Windows.
	ONNXRuntimeNpmPackage = "onnxruntime-node"
	// ONNXRuntimeVersion is the pinned version of that package (ONNX
	// Runtime 1.30.0; the library is MIT-licensed).
	ONNXRuntimeVersion = "1.30.0"
	// ONNXRuntimeLibraryEnv overrides where the library is looked for; the
	// ONNX backend also reads it.
	ONNXRuntimeLibraryEnv = "ONNXRUNTIME_SHARED_LIBRARY_PATH"
	// ONNXRuntimeStep is the `roleprint setup` step that installs it.
	ONNXRuntimeStep = "onnxruntime"
)

// onnxLibInPackage is the library's place inside the npm package (Linux x64).
var onnxLibInPackage = filepath.Join("bin", "napi-v6", "linux", "x64", "libonnxruntime.so.1")

// recordFile is where the setup step writes the library's path.
func recordFile() (string, error) { return assets.Path("onnxruntime", "library-path") }

// ONNXRuntimeLibrary returns the path of libonnxruntime.so.1: the file
// named by $ONNXRUNTIME_SHARED_LIBRARY_PATH when that is set (an error if
// it does not exist), else the path recorded by `roleprint setup
// onnxruntime` in the cache, else the library inside the npm package in
// the cache. When none exists it returns an *assets.MissingError whose
// message gives the install command.
func ONNXRuntimeLibrary() (string, error) {
	if p := os.Getenv(ONNXRuntimeLibraryEnv); p != "" {
		if isFile(p) {
			return p, nil
		}
		return "", fmt.Errorf("$%s=%s: no such file (unset it to use `roleprint setup %s`'s copy)",
			ONNXRuntimeLibraryEnv, p, ONNXRuntimeStep)
	}
	return installedONNXRuntime()
}

func installedONNXRuntime() (string, error) {
	if rec, err := recordFile(); err == nil {
		if b, err := os.ReadFile(rec); err == nil {
			if p := strings.TrimSpace(string(b)); isFile(p) {
				return p, nil
			}
		}
	}
	pkg, err := assets.NpmPackageDir(ONNXRuntimeNpmPackage)
	if err != nil {
		return "", err
	}
	p := filepath.Join(pkg, onnxLibInPackage)
	if isFile(p) {
		return p, nil
	}
	return "", &assets.MissingError{What: "ONNX Runtime library (libonnxruntime.so.1)", Path: p, Step: ONNXRuntimeStep}
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// installONNXRuntime is the setup step: npm-install the pinned package
// into the cache, check the library is there and record its path
// (written to a temporary file, then renamed).
func installONNXRuntime(ctx context.Context, logf func(string, ...any)) error {
	pkg, err := assets.NpmInstall(ctx, ONNXRuntimeNpmPackage+"@"+ONNXRuntimeVersion, logf)
	if err != nil {
		return err
	}
	lib := filepath.Join(pkg, onnxLibInPackage)
	if !isFile(lib) {
		return fmt.Errorf("%s@%s installed in %s but %s is missing (only Linux x64 is supported)",
			ONNXRuntimeNpmPackage, ONNXRuntimeVersion, pkg, onnxLibInPackage)
	}
	rec, err := recordFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(rec), 0o755); err != nil {
		return err
	}
	if err := fsx.WriteFile(rec, []byte(lib+"\n"), 0o644); err != nil {
		return err
	}
	if logf != nil {
		logf("ONNX Runtime library: %s (select it with --backend onnx; it is the default when present)", lib)
	}
	return nil
}

func init() {
	assets.Register(assets.Step{
		Name:     ONNXRuntimeStep,
		Describe: "ONNX Runtime " + ONNXRuntimeVersion + " CPU library (npm " + ONNXRuntimeNpmPackage + "@" + ONNXRuntimeVersion + ", 46 MB) for the fast `--backend onnx`",
		Installed: func() bool {
			_, err := installedONNXRuntime()
			return err == nil
		},
		Run: installONNXRuntime,
	})
}
