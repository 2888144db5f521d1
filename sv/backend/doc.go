// Package backend chooses and creates the GoMLX compute backend that every
// RolePrint GoMLX user (training, embedding, notebooks, benchmarks) runs on,
// in one place:
//
//	go        pure Go, always available, slow for transformers; ops run
//	          one at a time ("go,ops_parallel" asks for GoMLX's parallel
//	          scheduler, which can deadlock: see GoConfig)
//	onnx      ONNX Runtime on the CPU (library from the npm package
//	          onnxruntime-node@1.30.0, installed by `roleprint setup onnxruntime`)
//	xla:cuda  XLA on an NVIDIA GPU (PJRT plugin in $PJRT_PLUGIN_LIBRARY_PATH)
//	xla:cpu   XLA on the CPU (PJRT plugin in $PJRT_PLUGIN_LIBRARY_PATH)
//
// Default picks $GOMLX_BACKEND when set, else xla:cuda when a CUDA plugin is
// configured, else onnx when its library is installed, else go. Commands
// take --backend (AddFlag) and write Describe's Info into run manifests.
//
// Importing this package also fixes two start-up problems for the whole
// binary (see package earlyenv): the duplicate "onnx-ml.proto" registration
// panic when onnx-gomlx and compute-onnx are linked together, and GoMLX's
// automatic downloads of runtimes (RolePrint downloads nothing at run time).
package backend
