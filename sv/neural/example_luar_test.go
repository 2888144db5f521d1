package neural_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/neural"
)

// Embed utterance sets with the published LUAR architecture, loaded from a
// Hub repository's safetensors weights in the Hugging Face cache. A
// stand-in Hub serves a tiny random-weight LUAR with the published
// parameter names; with the real one, `roleprint setup --model luar` fills
// the cache and sv.NewEncoder("luar", …) does the rest.
func ExampleLUARFromSnapshot() {
	files, _ := hubtest.ReadDir(filepath.Join("testdata", "safetensors", "luar"), map[string]string{"reference.json": ""})
	h := hubtest.Start()
	defer h.Close()
	h.Add("rrivera1849/LUAR-CRUD", "main", files)
	cache, _ := os.MkdirTemp("", "hf-cache")
	defer os.RemoveAll(cache)
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	ref, _ := hub.ParseRef("rrivera1849/LUAR-CRUD")
	snap, _, err := c.Download(context.Background(), ref, func(f []hub.File) ([]string, error) { return hub.TextEncoderFiles(ref.ID, f) })
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := neural.LUARFromSnapshot("luar", snap, sv.EncoderOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := neural.DefaultEncoderConfig()
	cfg.Backend = "go"
	enc, _ := neural.NewEncoder(m, cfg)
	defer enc.Close()
	sets := [][]string{{"oh the theory of pizza", "Hello, World!"}, {"oh the theory of pizza", "Hello, World!"}, {"zzz qqq"}}
	vecs, err := enc.EmbedSets(context.Background(), sets, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(enc.Model().Dim(), "→", len(vecs[0]))
	fmt.Printf("same set: %.3f\n", stats.Cosine(vecs[0], vecs[1]))
	// Output:
	// 64 → 16
	// same set: 1.000
}
