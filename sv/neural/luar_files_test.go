package neural

import (
	"errors"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/hub"
)

func TestLUARFiles(t *testing.T) {
	files := func(names ...string) []hub.File {
		var out []hub.File
		for _, n := range names {
			out = append(out, hub.File{Name: n})
		}
		return out
	}
	// An ONNX export beside the safetensors is passed over: it would lack
	// the episode head.
	got, err := LUARFiles("rrivera1849/LUAR-CRUD", files("config.json", "config.py", "model.py", "tokenizer.json",
		"onnx/model.onnx", "onnx/model.onnx_data", "model.onnx", "model.safetensors", "pytorch_model.bin"))
	if err != nil || strings.Join(got, ",") != "config.json,tokenizer.json,model.safetensors" {
		t.Fatalf("LUARFiles = %v, %v", got, err)
	}
	// Sharded safetensors are taken whole.
	got, err = LUARFiles("x/luar", files("config.json", "tokenizer.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "model.onnx"))
	if err != nil || strings.Join(got, ",") != "config.json,tokenizer.json,model.safetensors.index.json,model-00001-of-00002.safetensors,model-00002-of-00002.safetensors" {
		t.Fatalf("sharded: %v, %v", got, err)
	}
	// pytorch_model.bin (and an ONNX export) only: the state dict, not
	// the export.
	got, err = LUARFiles("rrivera1849/LUAR-MUD", files("config.json", "tokenizer.json", "pytorch_model.bin", "onnx/model.onnx"))
	if err != nil || strings.Join(got, ",") != "config.json,tokenizer.json,pytorch_model.bin" {
		t.Fatalf("pytorch_model.bin LUAR: %v, %v", got, err)
	}
	// Other pickles only: LUAR's own conversion route, not the ONNX export
	// route of other families.
	_, err = LUARFiles("rrivera1849/LUAR-MUD", files("config.json", "tokenizer.json", "model.pt", "onnx/model.onnx"))
	if !errors.Is(err, hub.ErrPickleOnly) || !strings.Contains(err.Error(), "trust_remote_code=True") || strings.Contains(err.Error(), "optimum-cli") {
		t.Fatalf("pickle-only LUAR: %v", err)
	}
	if !IsPublishedLUAR("rrivera1849/luar-mud") || IsPublishedLUAR("rrivera1849/LUAR") {
		t.Fatal("IsPublishedLUAR")
	}
}

func TestSetupFiles(t *testing.T) {
	var repo []hub.File
	for _, n := range []string{"config.json", "tokenizer.json", "vocab.json", "merges.txt", "model.onnx", "onnx/model.onnx", "model.safetensors", "pytorch_model.bin"} {
		repo = append(repo, hub.File{Name: n})
	}
	for _, c := range []struct{ row, id, want string }{
		// The paper's RoBERTa: the official safetensors, not the community export.
		{"roberta", "FacebookAI/roberta-large", "config.json,tokenizer.json,vocab.json,merges.txt,model.safetensors"},
		// As hf:ORG/NAME, the repository's ONNX export first as for any model.
		{"hf:FacebookAI/roberta-large", "FacebookAI/roberta-large", "config.json,tokenizer.json,vocab.json,merges.txt,onnx/model.onnx"},
		{"luar", "rrivera1849/LUAR-CRUD", "config.json,tokenizer.json,vocab.json,merges.txt,model.safetensors"},
		// Other rows and models: the ONNX export first.
		{"sbert", "sentence-transformers/all-mpnet-base-v2", "config.json,tokenizer.json,vocab.json,merges.txt,onnx/model.onnx"},
		{"hf:org/name", "org/name", "config.json,tokenizer.json,vocab.json,merges.txt,onnx/model.onnx"},
	} {
		got, err := SetupFiles(c.row, c.id)(repo)
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("SetupFiles(%s, %s) = %v, %v; want %s", c.row, c.id, got, err, c.want)
		}
	}
	// The roberta row of a repository without safetensors takes its export.
	got, err := SetupFiles("roberta", "YOU/roberta-export")([]hub.File{{Name: "config.json"}, {Name: "tokenizer.json"}, {Name: "model.onnx"}})
	if err != nil || strings.Join(got, ",") != "config.json,tokenizer.json,model.onnx" {
		t.Errorf("roberta without safetensors: %v, %v", got, err)
	}
	// pytorch_model.bin is fetched only when there are no safetensors:
	// the roberta and luar rows take it over an ONNX export, the other
	// rows (stel: AnnaWegmann/Style-Embedding holds pytorch_model.bin only)
	// when there is no export either.
	bin := []hub.File{{Name: "config.json"}, {Name: "tokenizer.json"}, {Name: "pytorch_model.bin"}, {Name: "training_args.bin"}}
	for _, c := range []struct {
		row   string
		files []hub.File
		want  string
	}{
		{"roberta", append(bin, hub.File{Name: "onnx/model.onnx"}), "config.json,tokenizer.json,pytorch_model.bin"},
		{"stel", bin, "config.json,tokenizer.json,pytorch_model.bin"},
		{"stel", append(bin, hub.File{Name: "onnx/model.onnx"}), "config.json,tokenizer.json,onnx/model.onnx"},
		{"stel", append(bin, hub.File{Name: "model.safetensors"}), "config.json,tokenizer.json,model.safetensors"},
	} {
		got, err := SetupFiles(c.row, "org/name")(c.files)
		if err != nil || strings.Join(got, ",") != c.want {
			t.Errorf("SetupFiles(%s) of %v = %v, %v; want %s", c.row, c.files, got, err, c.want)
		}
	}
}
