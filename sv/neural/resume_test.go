package neural

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

const killDirEnv = "ROLEPRINT_TEST_KILL_DIR"

// resumeConfig is the plan shared by the killed run, the resumed run and
// the uninterrupted reference: 24 steps, checkpoints every 4.
func resumeConfig() TrainConfig {
	cfg := tinyTrainConfig(11)
	cfg.CheckpointEvery = 4
	return cfg
}

// TestKillChild is the training process that TestResumeAfterKill kills:
// it SIGKILLs itself right after step 10, two steps after its last
// checkpoint (step 8), without any clean-up.
func TestKillChild(t *testing.T) {
	dir := os.Getenv(killDirEnv)
	if dir == "" {
		t.Skip("helper process of TestResumeAfterKill")
	}
	cfg := resumeConfig()
	cfg.CheckpointDir = dir
	cfg.OnStep = func(step int, _ float64) {
		if step == 10 {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	trainTiny(t, "go", cfg)
	t.Fatal("training finished although the process should have been killed")
}

func TestResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$")
	cmd.Env = append(os.Environ(), killDirEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed by SIGKILL: %v\n%s", err, out)
	}
	files, err := ListCheckpoints(dir)
	if err != nil || len(files) == 0 {
		t.Fatalf("no checkpoint after the kill: %v", err)
	}
	st, err := ReadCheckpointState(files[len(files)-1])
	if err != nil || st.Step != 8 {
		t.Fatalf("newest checkpoint: %+v, %v; want step 8", st, err)
	}
	// Leftover temporary files would show a non-atomic save.
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(tmp) > 0 {
		t.Fatalf("temporary checkpoint files left: %v", tmp)
	}

	cfg := resumeConfig()
	cfg.CheckpointDir = dir
	resumed, res := trainTiny(t, "go", cfg)
	if res.ResumedFrom != 8 || res.Steps != 24 || len(res.Losses) != 16 {
		t.Fatalf("resumed from %d, steps %d, losses %d; want 8, 24, 16", res.ResumedFrom, res.Steps, len(res.Losses))
	}
	ref, _ := trainTiny(t, "go", resumeConfig())
	if d := maxDiff(t, weightsOf(t, ref), weightsOf(t, resumed)); d != 0 {
		t.Fatalf("resumed training ends %g away from uninterrupted training", d)
	}
}

func TestCheckpointRoundTripAndErrors(t *testing.T) {
	dir := t.TempDir()
	net, _ := trainTiny(t, "go", func() TrainConfig { c := tinyTrainConfig(2); c.MaxSteps = 2; return c }())
	st := CheckpointState{Step: 2, TotalSteps: 2, Model: "transformer"}
	if err := SaveCheckpoint(dir, net, st, 1); err != nil {
		t.Fatal(err)
	}
	fresh, err := NewNetwork(tinyTransformer(t, 99), MeanHead{}, "go", 99)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if d := maxDiff(t, weightsOf(t, net), weightsOf(t, fresh)); d == 0 {
		t.Fatal("differently seeded networks should differ before loading")
	}
	got, err := LoadLatestCheckpoint(dir, fresh)
	if err != nil || got.Step != 2 {
		t.Fatalf("load: %+v %v", got, err)
	}
	if d := maxDiff(t, weightsOf(t, net), weightsOf(t, fresh)); d != 0 {
		t.Fatalf("loaded weights differ by %g", d)
	}
	// A truncated file is a clear error, not a silent partial load.
	files, _ := ListCheckpoints(dir)
	b, _ := os.ReadFile(files[0])
	bad := filepath.Join(dir, "bad.rpck")
	_ = os.WriteFile(bad, b[:len(b)/2], 0o644)
	if _, err := LoadCheckpointFile(bad, fresh); err == nil {
		t.Fatal("truncated checkpoint loaded without error")
	}
	_ = os.WriteFile(bad, []byte("hello"), 0o644)
	if _, err := LoadCheckpointFile(bad, fresh); err == nil {
		t.Fatal("non-checkpoint loaded without error")
	}
	// A model of another shape is refused with the variable's name.
	other, err := NewTransformer("transformer", TransformerConfig{Pooling: "mean", Layers: 1, Dim: 16, Heads: 2, MaxLen: 12, Vocab: "testdata/vocab.txt"})
	if err != nil {
		t.Fatal(err)
	}
	onet, err := NewNetwork(other, MeanHead{}, "go", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer onet.Close()
	if _, err := LoadCheckpointFile(files[0], onet); err == nil {
		t.Fatal("checkpoint of a 32-wide model loaded into a 16-wide one")
	}
}
