package backend

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	onnxbackend "github.com/gomlx/compute-onnx"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/go-xla/compute/xla"

	"github.com/roleprint/roleprint/sv/backend/internal/earlyenv"
)

// Canonical backend names accepted by New, Shared and Resolve. Options may
// follow a comma ("go,parallelism=2", "xla:cuda,tf32=false").
const (
	// Go is GoMLX's pure-Go backend: always available, slow for
	// transformers (9 GFLOP/s f32 matmul on 2 cores). RolePrint runs its
	// ops one at a time unless asked otherwise (see GoConfig).
	Go = "go"
	// ONNX is GoMLX's ONNX Runtime backend on the CPU (compute-onnx). It
	// needs libonnxruntime.so.1 from `roleprint setup onnxruntime` or
	// $ONNXRUNTIME_SHARED_LIBRARY_PATH (about 6× faster than Go on 2 cores).
	ONNX = "onnx"
	// XLACPU is XLA through a PJRT CPU plugin found in
	// $PJRT_PLUGIN_LIBRARY_PATH (never downloaded by RolePrint).
	XLACPU = "xla:cpu"
	// XLACUDA is XLA on an NVIDIA GPU through the PJRT CUDA plugin in
	// $PJRT_PLUGIN_LIBRARY_PATH (see scripts/gpu-check.sh for the set-up).
	XLACUDA = "xla:cuda"
)

// EnvVar is GoMLX's variable naming the backend; Default honours it.
const EnvVar = compute.ConfigEnvVar // "GOMLX_BACKEND"

// PJRTPathEnv lists the folders searched for PJRT plugins (go-xla).
const PJRTPathEnv = "PJRT_PLUGIN_LIBRARY_PATH"

func init() {
	// earlyenv has already set GOMLX_NO_AUTO_INSTALL (see its doc); also
	// switch go-xla's auto-install off explicitly, since go-xla reads the
	// variable only when it is present at its own init.
	_ = earlyenv.Applied()
	xla.EnableAutoInstall(false)
}

// Resolve turns a user's backend name into its canonical form: "" means
// Default(); "onnx", "onnx:cpu", "onnxruntime" → "onnx"; "xla" → "xla:cuda"
// when a CUDA plugin is configured, else "xla:cpu"; options after a comma
// are kept. Unknown names are an error listing the valid ones.
func Resolve(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Default(), nil
	}
	base, opts, _ := strings.Cut(name, ",")
	if opts != "" {
		opts = "," + opts
	}
	kind, variant, _ := strings.Cut(strings.ToLower(base), ":")
	switch kind {
	case "go", "simplego":
		if variant != "" {
			return "", fmt.Errorf("backend %q: the go backend takes options after a comma (go,parallelism=2), not %q", name, variant)
		}
		return Go + opts, nil
	case "onnx", "onnxruntime", "ort":
		switch variant {
		case "", "cpu":
			return ONNX + opts, nil
		case "cuda", "gpu":
			return "onnx:cuda" + opts, nil
		}
		return "", fmt.Errorf("backend %q: onnx takes cpu or cuda, not %q", name, variant)
	case "xla", "stablehlo":
		switch variant {
		case "":
			if CUDAPluginConfigured() {
				return XLACUDA + opts, nil
			}
			return XLACPU + opts, nil
		case "cpu":
			return XLACPU + opts, nil
		case "cuda", "gpu":
			return XLACUDA + opts, nil
		}
		return "xla:" + variant + opts, nil
	}
	return "", fmt.Errorf("unknown backend %q: use go, onnx, xla, xla:cpu or xla:cuda", name)
}

// Default returns the canonical name of the backend to use when none is
// given: $GOMLX_BACKEND when set (resolved; an invalid value falls through
// to the rules below), else "xla:cuda" when a PJRT CUDA plugin is
// configured in $PJRT_PLUGIN_LIBRARY_PATH, else "onnx" when the ONNX
// Runtime library is installed, else "go".
func Default() string {
	name, _ := DefaultWithReason()
	return name
}

// DefaultWithReason is Default plus one line saying why it was chosen,
// for logs and manifests.
func DefaultWithReason() (name, reason string) {
	if v := strings.TrimSpace(os.Getenv(EnvVar)); v != "" {
		if r, err := Resolve(v); err == nil {
			return r, fmt.Sprintf("$%s=%s", EnvVar, v)
		}
	}
	if CUDAPluginConfigured() {
		return XLACUDA, fmt.Sprintf("a PJRT CUDA plugin is configured in $%s", PJRTPathEnv)
	}
	if lib, err := ONNXRuntimeLibrary(); err == nil {
		return ONNX, "ONNX Runtime found at " + lib
	}
	return Go, "ONNX Runtime not installed (`roleprint setup onnxruntime` makes training ~6× faster)"
}

// CUDAPluginConfigured reports whether a folder in $PJRT_PLUGIN_LIBRARY_PATH
// holds a PJRT CUDA plugin (pjrt_c_api_cuda_plugin.so or similar).
func CUDAPluginConfigured() bool {
	for _, dir := range filepath.SplitList(os.Getenv(PJRTPathEnv)) {
		if dir == "" {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "*cuda*.so*"))
		for _, m := range matches {
			if st, err := os.Stat(m); err == nil && !st.IsDir() {
				return true
			}
		}
	}
	return false
}

// New creates a fresh backend for name (see Resolve; "" is Default()).
// The caller owns it and calls Finalize when done. Most code should use
// Shared instead: backends are heavy (thread pools, device clients) and
// safe for concurrent use.
//
// For "onnx" it first locates libonnxruntime.so.1 and returns an
// *assets.MissingError naming `roleprint setup onnxruntime` when absent;
// for XLA, a missing plugin is an error naming $PJRT_PLUGIN_LIBRARY_PATH.
func New(name string) (compute.Backend, error) {
	canon, err := Resolve(name)
	if err != nil {
		return nil, err
	}
	return create(canon)
}

func create(canon string) (b compute.Backend, err error) {
	base, opts, _ := strings.Cut(canon, ",")
	kind, variant, _ := strings.Cut(base, ":")
	// Backend constructors may panic on bad configurations; turn that into
	// an error naming the backend.
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("backend %s: %v", canon, r)
		}
	}()
	switch kind {
	case "go":
		b, err = gobackend.New(GoConfig(opts))
	case "onnx":
		lib, lerr := ONNXRuntimeLibrary()
		if lerr != nil {
			return nil, fmt.Errorf("backend %s: %w", canon, lerr)
		}
		if err := os.Setenv(ONNXRuntimeLibraryEnv, lib); err != nil {
			return nil, fmt.Errorf("backend %s: %w", canon, err)
		}
		if variant == "" {
			variant = "cpu"
		}
		cfg := variant
		if opts != "" {
			cfg += "," + opts
		}
		b, err = onnxbackend.New(cfg)
	case "xla":
		if variant == "cuda" && !CUDAPluginConfigured() {
			return nil, fmt.Errorf("backend %s: no PJRT CUDA plugin in $%s=%q (see scripts/gpu-check.sh for the set-up)",
				canon, PJRTPathEnv, os.Getenv(PJRTPathEnv))
		}
		cfg := variant
		if opts != "" {
			cfg += "," + opts
		}
		b, err = xla.New(cfg)
	default:
		return nil, fmt.Errorf("unknown backend %q", canon)
	}
	if err != nil {
		return nil, fmt.Errorf("backend %s: %w", canon, err)
	}
	return b, nil
}

var (
	sharedMu sync.Mutex
	shared   = map[string]compute.Backend{}
)

// Shared returns the process-wide backend for name (see Resolve; "" is
// Default()), creating it on first use. Encoders, trainers and benchmarks
// use it, so one process holds one backend per kind. Do not Finalize it.
func Shared(name string) (compute.Backend, error) {
	canon, err := Resolve(name)
	if err != nil {
		return nil, err
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if b, ok := shared[canon]; ok && !b.IsFinalized() {
		return b, nil
	}
	b, err := create(canon)
	if err != nil {
		return nil, err
	}
	shared[canon] = b
	return b, nil
}

// IsNotImplemented reports whether err (or a panic value turned into an
// error) says that a backend lacks an op; such errors from GoMLX name the
// op, and RolePrint adds the backend.
func IsNotImplemented(err error) bool {
	return errors.Is(err, compute.ErrNotImplemented) ||
		(err != nil && strings.Contains(err.Error(), compute.ErrNotImplemented.Error()))
}
