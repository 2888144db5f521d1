package backend_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	// Linking onnx-gomlx next to compute-onnx (through sv/backend) makes this
	// test binary register "onnx-ml.proto" twice: it would panic at start-up
	// unless package earlyenv runs first. TestProtoConflictStartup checks it.
	_ "github.com/gomlx/onnx-gomlx/onnx/parser"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/sv/backend"
)

func TestResolve(t *testing.T) {
	t.Setenv(backend.PJRTPathEnv, "")
	cases := map[string]string{
		"go":                "go",
		"GO":                "go",
		"go,parallelism=1":  "go,parallelism=1",
		"onnx":              "onnx",
		"onnx:cpu":          "onnx",
		"onnxruntime":       "onnx",
		"xla":               "xla:cpu",
		"xla:cuda":          "xla:cuda",
		"xla:cuda,tf32=off": "xla:cuda,tf32=off",
	}
	for in, want := range cases {
		got, err := backend.Resolve(in)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"tpu", "go:fast", "onnx:rocm"} {
		if _, err := backend.Resolve(bad); err == nil {
			t.Errorf("Resolve(%q): want an error", bad)
		}
	}
}

func TestDefaultRules(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(assets.CacheEnv, cache)
	t.Setenv(backend.ONNXRuntimeLibraryEnv, "")
	os.Unsetenv(backend.ONNXRuntimeLibraryEnv)
	t.Setenv(backend.EnvVar, "")
	t.Setenv(backend.PJRTPathEnv, "")
	if got := backend.Default(); got != backend.Go {
		t.Errorf("Default() with nothing installed = %q, want go", got)
	}
	// An installed library makes onnx the default.
	lib := filepath.Join(cache, "npm", "node_modules", "onnxruntime-node", "bin", "napi-v6", "linux", "x64", "libonnxruntime.so.1")
	if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte("fake"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, why := backend.DefaultWithReason(); got != backend.ONNX || why == "" {
		t.Errorf("Default() with library = %q (%q), want onnx", got, why)
	}
	// A configured CUDA plugin wins over onnx.
	plugins := t.TempDir()
	if err := os.WriteFile(filepath.Join(plugins, "pjrt_c_api_cuda_plugin.so"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(backend.PJRTPathEnv, plugins)
	if got := backend.Default(); got != backend.XLACUDA {
		t.Errorf("Default() with CUDA plugin = %q, want xla:cuda", got)
	}
	// $GOMLX_BACKEND wins over everything.
	t.Setenv(backend.EnvVar, "go")
	if got := backend.Default(); got != backend.Go {
		t.Errorf("Default() with GOMLX_BACKEND=go = %q", got)
	}
}

func TestONNXMissingSaysHowToInstall(t *testing.T) {
	t.Setenv(assets.CacheEnv, t.TempDir())
	t.Setenv(backend.ONNXRuntimeLibraryEnv, "")
	os.Unsetenv(backend.ONNXRuntimeLibraryEnv)
	_, err := backend.New("onnx")
	var miss *assets.MissingError
	if !errors.As(err, &miss) || miss.Step != backend.ONNXRuntimeStep {
		t.Fatalf("New(onnx) without library: got %v, want a MissingError for step %q", err, backend.ONNXRuntimeStep)
	}
	t.Setenv(backend.ONNXRuntimeLibraryEnv, "/nonexistent/libonnxruntime.so.1")
	if _, err := backend.ONNXRuntimeLibrary(); err == nil {
		t.Fatal("a missing $ONNXRUNTIME_SHARED_LIBRARY_PATH must be an error")
	}
}

// TestProtoConflictStartup re-runs this test binary in a child process
// with the protobuf variable unset in its parent environment: start-up
// must not panic although onnx-gomlx and compute-onnx are both linked.
func TestProtoConflictStartup(t *testing.T) {
	if os.Getenv("ROLEPRINT_PROTO_CHILD") == "1" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestProtoConflictStartup$")
	cmd.Env = append(filteredEnv("GOLANG_PROTOBUF_REGISTRATION_CONFLICT"), "ROLEPRINT_PROTO_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child test binary failed at start-up: %v\n%s", err, out)
	}
}

func filteredEnv(drop string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if len(kv) > len(drop) && kv[:len(drop)+1] == drop+"=" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// runMatmul computes a small matmul plus a reduction on the named backend.
func runMatmul(t *testing.T, name string) []float32 {
	t.Helper()
	b, err := backend.Shared(name)
	if err != nil {
		t.Fatal(err)
	}
	x := [][]float32{{1, 2, 3}, {4, 5, 6}}
	out, err := graph.ExecOnce(b, func(x *graph.Node) *graph.Node {
		y := graph.MatMul(x, graph.Transpose(x, 0, 1))
		return graph.Add(graph.ReduceSum(y, 1), graph.Sqrt(graph.ReduceSum(graph.Square(x), 1)))
	}, x)
	if err != nil {
		t.Fatal(err)
	}
	return tensors.MustCopyFlatData[float32](out)
}

func TestBackendsCompute(t *testing.T) {
	want := runMatmul(t, "go")
	// [14+32 + sqrt(14), 32+77 + sqrt(77)]
	if len(want) != 2 || want[0] < 49.7 || want[0] > 49.8 || want[1] < 117.7 || want[1] > 117.8 {
		t.Fatalf("go backend: got %v", want)
	}
	if _, err := backend.ONNXRuntimeLibrary(); err != nil {
		t.Skipf("onnx backend not tested: %v", err)
	}
	got := runMatmul(t, "onnx")
	for i := range want {
		if d := got[i] - want[i]; d > 1e-4 || d < -1e-4 {
			t.Fatalf("onnx %v != go %v", got, want)
		}
	}
	info, err := backend.Describe("onnx")
	if err != nil || info.Library == "" || info.Description == "" {
		t.Fatalf("Describe(onnx) = %+v, %v", info, err)
	}
}

func TestGoConfig(t *testing.T) {
	cases := map[string]string{
		"":                             "ops_sequential",
		",parallelism=2":               "parallelism=2,ops_sequential",
		"dependency_order":             "dependency_order,ops_sequential",
		"ops_sequential":               "ops_sequential",
		"ops_parallel":                 "ops_parallel",
		"parallelism=3,ops_parallel":   "parallelism=3,ops_parallel",
		"ops_dynamic":                  "",
		"ops_dynamic,dependency_order": "dependency_order",
	}
	for in, want := range cases {
		if got := backend.GoConfig(in); got != want {
			t.Errorf("GoConfig(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGoIsSequential checks that "go", and the default when neither CUDA
// nor ONNX Runtime is available, resolve to GoMLX's go backend with
// sequential op scheduling (its parallel scheduler deadlocks, see
// backend.GoConfig), and that ops_parallel still reaches the parallel one.
// It reads the scheduler from the backend GoMLX built.
func TestGoIsSequential(t *testing.T) {
	t.Setenv(assets.CacheEnv, t.TempDir())
	t.Setenv(backend.ONNXRuntimeLibraryEnv, "")
	os.Unsetenv(backend.ONNXRuntimeLibraryEnv)
	t.Setenv(backend.EnvVar, "")
	t.Setenv(backend.PJRTPathEnv, "")
	for _, name := range []string{"go", "GO", "", "go,dependency_order"} {
		canon, err := backend.Resolve(name)
		if err != nil || (canon != "go" && canon != "go,dependency_order") {
			t.Fatalf("Resolve(%q) = %q, %v", name, canon, err)
		}
		info, err := backend.Describe(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(info.Config, "ops_sequential") || !strings.Contains(info.String(), "ops_sequential") {
			t.Errorf("Describe(%q) = %+v: want config ops_sequential", name, info)
		}
		if got := goScheduler(t, name); got != "sequential" {
			t.Errorf("backend %q schedules ops %s, want sequential", name, got)
		}
	}
	if got := goScheduler(t, "go,ops_parallel"); got != "parallel" {
		t.Errorf("go,ops_parallel schedules ops %s, want parallel", got)
	}
	if got := goScheduler(t, "go,ops_dynamic"); got != "dynamic" {
		t.Errorf("go,ops_dynamic schedules ops %s, want dynamic", got)
	}
}

// goScheduler creates the named go backend and reads its op scheduling
// mode (GoMLX's Backend.OpsExecutionType: 0 dynamic, 1 parallel, 2
// sequential in compute v0.0.0-20260716164435).
func goScheduler(t *testing.T, name string) string {
	t.Helper()
	b, err := backend.New(name)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Finalize()
	v := reflect.ValueOf(b)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	f := v.FieldByName("OpsExecutionType")
	if !f.IsValid() || !f.CanInt() {
		t.Fatalf("GoMLX's go backend (%T) has no integer OpsExecutionType field any more: check that backend.GoConfig still selects sequential scheduling", b)
	}
	switch f.Int() {
	case 0:
		return "dynamic"
	case 1:
		return "parallel"
	case 2:
		return "sequential"
	}
	return fmt.Sprintf("unknown (%d)", f.Int())
}
