// Package pin keeps the project's planned dependencies in go.mod while the
// packages that use them are being written. It is never imported.
package pin

import (
	_ "github.com/go-audio/audio"
	_ "github.com/go-audio/wav"
	_ "github.com/gomlx/compute-onnx"
	_ "github.com/gomlx/gomlx/backends/default"
	_ "github.com/gomlx/gomlx/core/graph"
	_ "github.com/gomlx/gomlx/ml/layers"
	_ "github.com/gomlx/gomlx/ml/train"
	_ "github.com/gomlx/onnx-gomlx/onnx"
	_ "github.com/janpfeifer/gonb/gonbui"
	_ "github.com/jdkato/prose/v2"
	_ "github.com/parquet-go/parquet-go"
	_ "github.com/sugarme/tokenizer"
	_ "gonum.org/v1/gonum/stat"
	_ "gonum.org/v1/plot"
)
