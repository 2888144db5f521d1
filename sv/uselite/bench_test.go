package uselite

import (
	"context"
	"testing"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/neural"
)

// BenchmarkEmbed measures embedding throughput (sentences/s) on 256
// speeches of the embedded Shakespeare corpus, per backend:
//
//	go test ./sv/uselite -run '^$' -bench Embed -benchtime 3x
func BenchmarkEmbed(b *testing.B) {
	m := installedModel(b)
	utts, err := corpus.Default()
	if err != nil {
		b.Fatal(err)
	}
	texts := make([]string, 256)
	for i := range texts {
		texts[i] = utts[i].Text
	}
	for _, name := range []string{testGo, "onnx"} {
		b.Run(name, func(b *testing.B) {
			if name == "onnx" {
				if _, err := backend.ONNXRuntimeLibrary(); err != nil {
					b.Skip(err)
				}
			}
			enc, err := neural.NewEncoder(&Utterance{Model: m}, neural.EncoderConfig{Backend: name, Head: "mean"})
			if err != nil {
				b.Fatal(err)
			}
			defer enc.Close()
			if _, err := enc.Encode(context.Background(), texts, nil); err != nil { // compiles the graphs
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := enc.Encode(context.Background(), texts, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "sentences/s")
		})
	}
}
