package hub_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
)

// tinyRepo is a text encoder's repository: configuration, tokenizer and
// an "ONNX export" of 4 KiB (its bytes matter, not its meaning here).
func tinyRepo(seed byte) map[string][]byte {
	w := make([]byte, 4096)
	for i := range w {
		w[i] = byte(i*7) ^ seed
	}
	return map[string][]byte{
		"config.json":           []byte(`{"model_type":"bert"}`),
		"tokenizer.json":        []byte(`{"version":"1.0"}`),
		"1_Pooling/config.json": []byte(`{"pooling_mode_mean_tokens":true}`),
		"onnx/model.onnx":       w,
		"onnx/model_O4.onnx":    []byte("an optimised variant, not fetched"),
		"pytorch_model.bin":     []byte("pickle, not fetched"),
		"README.md":             []byte("# tiny"),
	}
}

func client(h *hubtest.Hub, cache string) hub.Client {
	return hub.Client{Endpoint: h.URL, CacheDir: cache}
}

func pickText(files []hub.File) ([]string, error) { return hub.TextEncoderFiles("test/tiny", files) }

func mustRef(t *testing.T, s string) hub.Ref {
	t.Helper()
	r, err := hub.ParseRef(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDownloadThenOffline(t *testing.T) {
	h := hubtest.New(t)
	files := tinyRepo(1)
	commit := h.Add("test/tiny", "main", files)
	cache := t.TempDir()
	c := client(h, cache)
	snap, got, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Commit != commit {
		t.Fatalf("commit %s, want %s", snap.Commit, commit)
	}
	want := []string{"config.json", "tokenizer.json", "1_Pooling/config.json", "onnx/model.onnx"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("fetched %v, want %v", got, want)
	}
	for _, n := range want {
		b, err := os.ReadFile(snap.Path(n))
		if err != nil || !bytes.Equal(b, files[n]) {
			t.Fatalf("%s: %v (content equal: %v)", n, err, bytes.Equal(b, files[n]))
		}
	}
	if snap.Has("pytorch_model.bin") || snap.Has("onnx/model_O4.onnx") {
		t.Fatal("fetched files the encoder does not need")
	}
	// The layout is huggingface_hub's: refs/main names the commit, the
	// snapshot links into blobs/ (LFS files by their SHA-256).
	repoDir := filepath.Join(cache, "models--test--tiny")
	if b, err := os.ReadFile(filepath.Join(repoDir, "refs", "main")); err != nil || string(b) != commit {
		t.Fatalf("refs/main: %q %v", b, err)
	}
	if l, err := os.Readlink(snap.Path("onnx/model.onnx")); err != nil || !strings.HasPrefix(l, "../../../blobs/") {
		t.Fatalf("snapshot link %q %v", l, err)
	}

	// With the server stopped, the cache alone answers.
	h.Close()
	local, err := client(h, cache).Local(mustRef(t, "test/tiny"))
	if err != nil {
		t.Fatalf("offline: %v", err)
	}
	if local.Dir != snap.Dir || !local.Has("onnx/model.onnx") {
		t.Fatalf("offline snapshot %+v", local)
	}
	// A second setup with the server stopped fails clearly (and leaves
	// the cache usable).
	if _, _, err := client(h, cache).Download(context.Background(), mustRef(t, "test/tiny"), pickText); err == nil {
		t.Fatal("download from a stopped server succeeded")
	}
	if _, err := client(h, cache).Local(mustRef(t, "test/tiny")); err != nil {
		t.Fatal(err)
	}
}

func TestSecondDownloadReusesBlobs(t *testing.T) {
	h := hubtest.New(t)
	h.Add("test/tiny", "main", tinyRepo(1))
	c := client(h, t.TempDir())
	if _, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText); err != nil {
		t.Fatal(err)
	}
	n := len(h.Requests())
	if _, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText); err != nil {
		t.Fatal(err)
	}
	for _, r := range h.Requests()[n:] {
		if strings.Contains(r.Path, "/resolve/") {
			t.Errorf("file transferred again: %s", r.Path)
		}
	}
}

func TestRevisionPinning(t *testing.T) {
	h := hubtest.New(t)
	old := h.Add("test/tiny", "main", tinyRepo(1))
	h.Add("test/tiny", "v1", tinyRepo(1))
	c := client(h, t.TempDir())
	ctx := context.Background()
	if _, _, err := c.Download(ctx, mustRef(t, "test/tiny"), pickText); err != nil {
		t.Fatal(err)
	}
	// main moves on; the old commit stays reachable by its hash.
	newer := h.Add("test/tiny", "main", tinyRepo(2))
	pinned, _, err := c.Download(ctx, mustRef(t, "test/tiny@"+old), pickText)
	if err != nil {
		t.Fatal(err)
	}
	if pinned.Commit != old {
		t.Fatalf("pinned to %s, got %s", old, pinned.Commit)
	}
	// Offline, main is where the last setup found it until setup runs again.
	if s, err := c.Local(mustRef(t, "test/tiny")); err != nil || s.Commit != old {
		t.Fatalf("main before refresh: %v %v", s.Commit, err)
	}
	latest, _, err := c.Download(ctx, mustRef(t, "test/tiny"), pickText)
	if err != nil || latest.Commit != newer {
		t.Fatalf("main after refresh: %v %v", latest.Commit, err)
	}
	a, _ := os.ReadFile(pinned.Path("onnx/model.onnx"))
	b, _ := os.ReadFile(latest.Path("onnx/model.onnx"))
	if bytes.Equal(a, b) || !bytes.Equal(a, tinyRepo(1)["onnx/model.onnx"]) {
		t.Fatal("pinned and latest snapshots do not hold their own commits' files")
	}
	if s, err := c.Local(mustRef(t, "test/tiny@"+old)); err != nil || s.Commit != old {
		t.Fatalf("pinned offline: %v %v", s, err)
	}
	// A tag never fetched is not in the cache.
	if _, err := c.Local(mustRef(t, "test/tiny@v1")); !errors.Is(err, hub.ErrNotCached) {
		t.Fatalf("unfetched tag: %v", err)
	}
}

func TestTokenHeader(t *testing.T) {
	h := hubtest.New(t)
	h.Token = "hf_secret"
	h.Add("org/gated", "main", tinyRepo(1))
	ctx := context.Background()
	c := client(h, t.TempDir())
	_, _, err := c.Download(ctx, mustRef(t, "org/gated"), pickText)
	if err == nil || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Fatalf("without a token: %v", err)
	}
	t.Setenv("HF_TOKEN", "hf_secret")
	t.Setenv("HF_ENDPOINT", h.URL+"/")
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	t.Setenv("HF_HUB_OFFLINE", "")
	d := hub.Default()
	if d.Endpoint != h.URL || d.Token != "hf_secret" {
		t.Fatalf("Default() = %+v", d)
	}
	n := len(h.Requests())
	if _, _, err := d.Download(ctx, mustRef(t, "org/gated"), pickText); err != nil {
		t.Fatal(err)
	}
	reqs := h.Requests()[n:]
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		if r.Authorization != "Bearer hf_secret" {
			t.Errorf("%s %s sent Authorization %q", r.Method, r.Path, r.Authorization)
		}
	}
}

func TestTokenFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_TOKEN_PATH", "")
	t.Setenv("HF_HUB_CACHE", "")
	t.Setenv("HF_HOME", home)
	if err := os.WriteFile(filepath.Join(home, "token"), []byte("hf_fromfile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if d := hub.Default(); d.Token != "hf_fromfile" || d.CacheDir != filepath.Join(home, "hub") {
		t.Fatalf("Default() = %+v", d)
	}
}

func TestNotFound(t *testing.T) {
	h := hubtest.New(t)
	h.Add("test/tiny", "main", tinyRepo(1))
	c := client(h, t.TempDir())
	for _, ref := range []string{"test/nonexistent", "test/tiny@no-such-branch"} {
		_, _, err := c.Download(context.Background(), mustRef(t, ref), pickText)
		if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "no such repository or revision") ||
			!strings.Contains(err.Error(), strings.Split(ref, "@")[0]) {
			t.Errorf("%s: %v", ref, err)
		}
	}
	_, err := c.Local(mustRef(t, "test/nonexistent"))
	if !errors.Is(err, hub.ErrNotCached) || !strings.Contains(err.Error(), "roleprint setup --model test/nonexistent") {
		t.Errorf("missing model: %v", err)
	}
}

func TestTruncatedTransferResumes(t *testing.T) {
	h := hubtest.New(t)
	files := tinyRepo(3)
	h.Add("test/tiny", "main", files)
	h.TruncateNext("onnx/model.onnx", 1000)
	c := client(h, t.TempDir())
	ctx := context.Background()
	_, _, err := c.Download(ctx, mustRef(t, "test/tiny"), pickText)
	if err == nil || !strings.Contains(err.Error(), "cut short at 1000 of 4096") {
		t.Fatalf("truncated transfer: %v", err)
	}
	if _, err := c.Local(mustRef(t, "test/tiny")); err == nil {
		// refs/main is written only once every file is in place.
		t.Fatal("a model with a cut transfer resolves from the cache")
	}
	n := len(h.Requests())
	snap, _, err := c.Download(ctx, mustRef(t, "test/tiny"), pickText)
	if err != nil {
		t.Fatal(err)
	}
	var ranges []string
	for _, r := range h.Requests()[n:] {
		if strings.HasSuffix(r.Path, "/onnx/model.onnx") {
			ranges = append(ranges, r.Range)
		}
	}
	if len(ranges) != 1 || ranges[0] != "bytes=1000-" {
		t.Fatalf("the second transfer asked for %q, want one request for bytes=1000-", ranges)
	}
	b, err := os.ReadFile(snap.Path("onnx/model.onnx"))
	if err != nil || !bytes.Equal(b, files["onnx/model.onnx"]) {
		t.Fatalf("resumed file differs (%v)", err)
	}
}

func TestCorruptPartialIsDiscarded(t *testing.T) {
	h := hubtest.New(t)
	files := tinyRepo(4)
	h.Add("test/tiny", "main", files)
	c := client(h, t.TempDir())
	h.TruncateNext("onnx/model.onnx", 100)
	if _, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText); err == nil {
		t.Fatal("no error")
	}
	// Spoil the bytes kept: the resumed file fails its SHA-256 and is
	// thrown away, so the next setup starts afresh and succeeds.
	parts, _ := filepath.Glob(filepath.Join(c.CacheDir, "models--test--tiny", "blobs", "*.incomplete"))
	if len(parts) != 1 {
		t.Fatalf("partial files %v", parts)
	}
	if err := os.WriteFile(parts[0], bytes.Repeat([]byte{0xff}, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText)
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Fatalf("corrupt resume: %v", err)
	}
	snap, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(snap.Path("onnx/model.onnx")); !bytes.Equal(b, files["onnx/model.onnx"]) {
		t.Fatal("content differs")
	}
}

func TestPickleOnlyAndSafetensors(t *testing.T) {
	h := hubtest.New(t)
	h.Add("test/pickle", "main", map[string][]byte{"config.json": []byte("{}"), "model.pt": []byte("x"), "training_args.bin": []byte("x")})
	h.Add("test/bin", "main", map[string][]byte{"config.json": []byte("{}"), "pytorch_model.bin": []byte("x"), "training_args.bin": []byte("x")})
	h.Add("test/shards", "main", map[string][]byte{"config.json": []byte("{}"), "pytorch_model.bin.index.json": []byte("{}"),
		"pytorch_model-00001-of-00002.bin": []byte("x"), "pytorch_model-00002-of-00002.bin": []byte("x"), "optimizer.pt": []byte("x")})
	h.Add("test/st", "main", map[string][]byte{"config.json": []byte("{}"), "model.safetensors": []byte("x"), "pytorch_model.bin": []byte("x")})
	c := client(h, t.TempDir())
	_, _, err := c.Download(context.Background(), mustRef(t, "test/pickle"), func(f []hub.File) ([]string, error) {
		return hub.TextEncoderFiles("test/pickle", f)
	})
	if !errors.Is(err, hub.ErrPickleOnly) || !strings.Contains(err.Error(), "model.pt") || !strings.Contains(err.Error(), "optimum-cli export onnx --model test/pickle") {
		t.Fatalf("pickle-only: %v", err)
	}
	// A transformers state dict is fetched when there are no safetensors,
	// and only then; never the other pickles beside it.
	for id, want := range map[string]string{
		"test/bin":    "config.json,pytorch_model.bin",
		"test/shards": "config.json,pytorch_model.bin.index.json,pytorch_model-00001-of-00002.bin,pytorch_model-00002-of-00002.bin",
		"test/st":     "config.json,model.safetensors",
	} {
		_, got, err := c.Download(context.Background(), mustRef(t, id), pickText)
		if err != nil || strings.Join(got, ",") != want {
			t.Fatalf("%s: fetched %v (%v), want %s", id, got, err, want)
		}
	}
}

func TestParseRef(t *testing.T) {
	for in, want := range map[string]hub.Ref{
		"roberta-base":                  {ID: "roberta-base", Revision: "main"},
		"AnnaWegmann/Style-Embedding":   {ID: "AnnaWegmann/Style-Embedding", Revision: "main"},
		"org/name@v1.0":                 {ID: "org/name", Revision: "v1.0"},
		" sentence-transformers/a.b@x ": {ID: "sentence-transformers/a.b", Revision: "x"},
	} {
		got, err := hub.ParseRef(in)
		if err != nil || got != want {
			t.Errorf("%q → %+v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "a/b/c", "../x", "a/..", "org/name@", "org/na me", "/abs"} {
		if _, err := hub.ParseRef(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestOfflineRefusesNetwork(t *testing.T) {
	h := hubtest.New(t)
	c := client(h, t.TempDir())
	c.Offline = true
	if _, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText); err == nil || !strings.Contains(err.Error(), "HF_HUB_OFFLINE") {
		t.Fatalf("offline download: %v", err)
	}
	if len(h.Requests()) != 0 {
		t.Fatal("offline client contacted the server")
	}
}

func TestStalledTransferEnds(t *testing.T) {
	h := hubtest.New(t)
	files := tinyRepo(5)
	h.Add("test/tiny", "main", files)
	h.StallNext("onnx/model.onnx", 500)
	c := client(h, t.TempDir())
	c.StallTimeout = 300 * time.Millisecond
	start := time.Now()
	_, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText)
	if err == nil || !strings.Contains(err.Error(), "nothing arrived for 300ms") {
		t.Fatalf("stalled transfer: %v", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatalf("gave up after %s", time.Since(start))
	}
	// What arrived is kept and resumed.
	n := len(h.Requests())
	snap, _, err := c.Download(context.Background(), mustRef(t, "test/tiny"), pickText)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range h.Requests()[n:] {
		if strings.HasSuffix(r.Path, "/onnx/model.onnx") && r.Range != "bytes=500-" {
			t.Errorf("resumed with Range %q", r.Range)
		}
	}
	if b, _ := os.ReadFile(snap.Path("onnx/model.onnx")); !bytes.Equal(b, files["onnx/model.onnx"]) {
		t.Fatal("content differs")
	}
}
