package kernel

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

// maxInlineAudio is the largest WAV embedded in a notebook (base64 grows it
// by a third, and the notebook file keeps it).
const maxInlineAudio = 8 << 20

// Audio is a WAV recording to play in a notebook.
type Audio struct {
	// Name labels the player (and names the file written outside a notebook).
	Name string
	// WAV is the whole RIFF/WAVE file.
	WAV []byte
}

// NewAudio checks that b is a RIFF/WAVE file and returns it as Audio.
func NewAudio(name string, b []byte) (Audio, error) {
	if err := checkWAV(b); err != nil {
		return Audio{}, fmt.Errorf("kernel: audio %q: %w", name, err)
	}
	return Audio{Name: name, WAV: b}, nil
}

// AudioFile reads a WAV file as Audio named after the file.
func AudioFile(path string) (Audio, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Audio{}, fmt.Errorf("kernel: %w", err)
	}
	if err := checkWAV(b); err != nil {
		return Audio{}, fmt.Errorf("kernel: %s: %w", path, err)
	}
	return Audio{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), WAV: b}, nil
}

// checkWAV checks the RIFF/WAVE header and that a "fmt " chunk comes first
// among the chunks it can see.
func checkWAV(b []byte) error {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return fmt.Errorf("not a WAV file (no RIFF/WAVE header)")
	}
	for off := 12; off+8 <= len(b); {
		id := string(b[off : off+4])
		size := int(binary.LittleEndian.Uint32(b[off+4 : off+8]))
		if id == "fmt " {
			return nil
		}
		if id == "data" {
			return fmt.Errorf("WAV data chunk before its fmt chunk")
		}
		off += 8 + size + size%2
	}
	return fmt.Errorf("WAV file has no fmt chunk")
}

// HTML returns an HTML5 audio player with the WAV embedded as a data URL.
func (a Audio) HTML() string {
	var b strings.Builder
	b.WriteString(`<figure style="margin:0.3em 0">`)
	if a.Name != "" {
		fmt.Fprintf(&b, `<figcaption style="font-size:0.9em">%s</figcaption>`, html.EscapeString(a.Name))
	}
	b.WriteString(`<audio controls preload="metadata" src="data:audio/wav;base64,`)
	b.WriteString(base64.StdEncoding.EncodeToString(a.WAV))
	b.WriteString(`"></audio></figure>`)
	return b.String()
}

func (nb *Notebook) showAudio(a Audio) error {
	if err := checkWAV(a.WAV); err != nil {
		return nb.Report(fmt.Errorf("kernel: audio %q: %w", a.Name, err))
	}
	if nb.Display != nil && len(a.WAV) <= maxInlineAudio {
		nb.Display.HTML(a.HTML())
		return nil
	}
	name := a.Name
	if checkName(name) != nil {
		name = nb.nextName("audio")
	}
	p, err := nb.Path("audio", name+".wav")
	if err == nil && !bytes.Equal(readOrNil(p), a.WAV) {
		if werr := fsx.WriteFile(p, a.WAV, 0o644); werr != nil {
			err = fmt.Errorf("kernel: %w", werr)
		}
	}
	if err != nil {
		return nb.Report(err)
	}
	if nb.Display != nil {
		nb.Display.HTML(fmt.Sprintf(`<p>%s is too large to embed (%d MB): written to <code>%s</code></p>`,
			html.EscapeString(a.Name), len(a.WAV)>>20, html.EscapeString(p)))
		return nil
	}
	fmt.Fprintf(nb.stdout(), "audio %s written to %s\n", a.Name, p)
	return nil
}

func readOrNil(p string) []byte {
	b, _ := os.ReadFile(p)
	return b
}
