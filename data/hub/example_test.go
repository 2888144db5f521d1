package hub_test

import (
	"context"
	"fmt"
	"os"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
)

// Fetch a text encoder's files into a Hugging Face cache once, then find
// them with no network. A stand-in Hub on 127.0.0.1 plays the real one
// (hub.Default() reads HF_ENDPOINT, HF_TOKEN and HF_HUB_CACHE instead).
func ExampleClient_Download() {
	h := hubtest.Start()
	defer h.Close()
	h.Add("org/tiny-encoder", "main", map[string][]byte{
		"config.json": []byte(`{"model_type":"bert"}`), "tokenizer.json": []byte(`{}`),
		"onnx/model.onnx": []byte("weights"), "pytorch_model.bin": []byte("pickle"),
	})
	cache, _ := os.MkdirTemp("", "hf-cache")
	defer os.RemoveAll(cache)
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	ref, _ := hub.ParseRef("org/tiny-encoder")
	_, files, err := c.Download(context.Background(), ref, func(f []hub.File) ([]string, error) {
		return hub.TextEncoderFiles(ref.ID, f)
	})
	fmt.Println(files, err)

	h.Close() // offline from here
	snap, err := c.Local(ref)
	fmt.Println(snap.Has("onnx/model.onnx"), snap.Has("pytorch_model.bin"), err)
	// Output:
	// [config.json tokenizer.json onnx/model.onnx] <nil>
	// true false <nil>
}
