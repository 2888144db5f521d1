module github.com/roleprint/roleprint

go 1.26.8

require (
	github.com/blevesearch/go-porterstemmer v1.0.3
	github.com/go-audio/audio v1.0.0
	github.com/go-audio/wav v1.1.0
	github.com/go-viper/mapstructure/v2 v2.5.0
	github.com/gofrs/flock v0.13.0
	github.com/gomlx/compute v0.0.0-20260716164435-04857206aff7
	github.com/gomlx/compute-onnx v0.0.0-20260730095030-43334863f719
	github.com/gomlx/go-huggingface v0.4.0
	github.com/gomlx/go-xla v0.3.0
	github.com/gomlx/gomlx v0.27.4-0.20260721090456-e838421fcd72
	github.com/gomlx/onnx-gomlx v0.5.0
	github.com/janpfeifer/gonb v0.11.4
	github.com/jdkato/prose/v2 v2.0.0
	github.com/mingrammer/commonregex v1.0.1
	github.com/nlpodyssey/gopickle v0.2.0
	github.com/parquet-go/parquet-go v0.32.0
	github.com/sugarme/tokenizer v0.3.0
	golang.org/x/text v0.38.0
	golang.org/x/time v0.16.0
	gonum.org/v1/gonum v0.17.0
	gonum.org/v1/plot v0.17.0
	google.golang.org/protobuf v1.36.11
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/andybalholm/brotli v1.2.0 // indirect
	github.com/deckarep/golang-set v1.7.1 // indirect
	github.com/emirpasic/gods v1.18.1 // indirect
	github.com/go-audio/riff v1.0.0 // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/gofrs/uuid v4.4.0+incompatible // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/gomlx/exceptions v0.0.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.18.5 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.5.0 // indirect
	github.com/patrickmn/go-cache v2.1.0+incompatible // indirect
	github.com/pierrec/lz4/v4 v4.1.26 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/schollz/progressbar/v2 v2.15.0 // indirect
	github.com/sugarme/regexpset v0.0.0-20200920021344-4d4ec8eaf93c // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	golang.org/x/image v0.43.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
	golang.org/x/term v0.40.0 // indirect
	gopkg.in/neurosnap/sentences.v1 v1.0.6 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
)
