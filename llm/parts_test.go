package llm_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
)

// A message with parts goes out as a list of text and input_audio parts;
// one without as a plain string; both read back. The cache key covers the
// audio, the stored entry holds its hash instead of the data.
func TestMultiPartContent(t *testing.T) {
	audio := []byte("RIFF fake wave data")
	m := llm.UserParts(llm.TextPart("Listen:"), llm.AudioPart(audio, "wav"), llm.TextPart("Rate it."))
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"user","content":[{"type":"text","text":"Listen:"},{"type":"input_audio","input_audio":{"data":"` + base64.StdEncoding.EncodeToString(audio) + `","format":"wav"}},{"type":"text","text":"Rate it."}]}`
	if string(b) != want {
		t.Fatalf("wire form\n%s\nwant\n%s", b, want)
	}
	var back llm.Message
	if err := json.Unmarshal(b, &back); err != nil || !back.HasAudio() || back.Content != "Listen:\n\nRate it." || len(back.Parts) != 3 {
		t.Fatalf("read back %+v %v", back, err)
	}
	if b, _ := json.Marshal(llm.User("hi")); string(b) != `{"role":"user","content":"hi"}` {
		t.Fatalf("plain message: %s", b)
	}

	s := newServer(t, echo)
	dir := t.TempDir()
	c := newClient(t, s, dir, nil)
	if _, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{m}}); err != nil {
		t.Fatal(err)
	}
	other := llm.UserParts(llm.TextPart("Listen:"), llm.AudioPart([]byte("other audio"), "wav"), llm.TextPart("Rate it."))
	if r, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{other}}); err != nil || r.Cached {
		t.Fatalf("other audio answered from the cache: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), base64.StdEncoding.EncodeToString(audio)) || !strings.Contains(string(b), "sha256:") {
			t.Fatalf("cache entry stores the audio data: %s", b)
		}
	}
}
