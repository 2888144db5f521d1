package backend

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/gomlx/compute"
)

// Info describes a backend for logs and run manifests (JSON keys are
// stable snake_case).
type Info struct {
	// Name is the canonical backend name ("go", "onnx", "xla:cuda").
	Name string `json:"name"`
	// Reason says why it was chosen when the user gave none.
	Reason string `json:"reason,omitempty"`
	// Description is GoMLX's description of the backend.
	Description string `json:"description"`
	// Device describes device 0.
	Device string `json:"device"`
	// Library is the ONNX Runtime library or the PJRT plugin folders used.
	Library string `json:"library,omitempty"`
	// Config is the configuration string given to GoMLX's backend
	// constructor, when RolePrint adds to the user's options (for "go":
	// "ops_sequential", see GoConfig).
	Config string `json:"config,omitempty"`
	// Modules maps the GoMLX modules linked into the binary to their versions.
	Modules map[string]string `json:"modules,omitempty"`
}

// String renders the info on one line: "onnx (ONNX Runtime (CPU) ...; /path/lib)".
func (i Info) String() string {
	s := i.Name + " (" + i.Description
	if i.Config != "" {
		s += "; " + i.Config
	}
	if i.Library != "" {
		s += "; " + i.Library
	}
	s += ")"
	if i.Reason != "" {
		s += " — " + i.Reason
	}
	return s
}

// Describe resolves name ("" is Default()), creates or reuses its Shared
// backend and returns its Info.
func Describe(name string) (Info, error) {
	canon, err := Resolve(name)
	if err != nil {
		return Info{}, err
	}
	info := Info{Name: canon, Modules: Modules()}
	if strings.TrimSpace(name) == "" {
		_, info.Reason = DefaultWithReason()
	}
	b, err := Shared(canon)
	if err != nil {
		return info, err
	}
	fill(&info, b)
	return info, nil
}

// DescribeBackend returns the Info of a backend already created (by New or
// Shared) under the canonical name canon.
func DescribeBackend(canon string, b compute.Backend) Info {
	info := Info{Name: canon, Modules: Modules()}
	fill(&info, b)
	return info
}

func fill(info *Info, b compute.Backend) {
	info.Description = b.Description()
	if b.NumDevices() > 0 {
		info.Device = b.DeviceDescription(0)
	}
	switch {
	case info.Name == Go || strings.HasPrefix(info.Name, Go+","):
		info.Config = GoConfig(strings.TrimPrefix(info.Name, Go))
	case strings.HasPrefix(info.Name, "onnx"):
		info.Library, _ = ONNXRuntimeLibrary()
	case strings.HasPrefix(info.Name, "xla"):
		info.Library = os.Getenv(PJRTPathEnv)
	}
}

// Modules returns the versions of the GoMLX modules in the running binary
// (from its build information; empty in binaries built without modules).
func Modules() map[string]string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, m := range bi.Deps {
		if strings.HasPrefix(m.Path, "github.com/gomlx/") {
			out[strings.TrimPrefix(m.Path, "github.com/gomlx/")] = m.Version
		}
	}
	return out
}

// FlagUsage is the help text of the --backend flag.
const FlagUsage = "GoMLX backend: go, onnx, xla:cpu or xla:cuda, options after a comma (go,ops_parallel: GoMLX's parallel op scheduler, which can deadlock) (default: $GOMLX_BACKEND, else xla:cuda when a PJRT CUDA plugin is configured, else onnx when ONNX Runtime is installed, else go)"

// AddFlag defines --backend on fs (empty default, meaning Default()) and
// returns its value.
func AddFlag(fs *flag.FlagSet) *string {
	return fs.String("backend", "", FlagUsage)
}

// Check resolves name and reports a clear error when its backend cannot be
// created (library missing, plugin missing); commands call it before long work.
func Check(name string) error {
	if _, err := Shared(name); err != nil {
		return fmt.Errorf("cannot start GoMLX backend: %w", err)
	}
	return nil
}
