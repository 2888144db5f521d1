// Package earlyenv sets process environment variables that other packages
// read in their own init functions, before those run.
//
// Why it exists: github.com/gomlx/onnx-gomlx (ONNX model import) and
// github.com/gomlx/compute-onnx (the ONNX Runtime backend) each embed the
// ONNX protobuf descriptors ("onnx-ml.proto"). When both are linked into
// one binary, the second registration panics at start-up ("proto: file
// onnx-ml.proto is already registered") unless
// GOLANG_PROTOBUF_REGISTRATION_CONFLICT=warn is set when it happens.
// google.golang.org/protobuf reads that variable at the moment of the
// conflict, so it is enough to set it in an init function that runs before
// the two proto packages initialise. We set "ignore" rather than "warn": the
// two copies are the same ONNX schema, each package marshals with its own
// generated Go types (nothing looks them up by global name), and "warn"
// would print several lines to stderr on every start of cmd/roleprint.
// A value set by the user (e.g. "warn") is kept.
//
// Go (since 1.21) initialises packages in a defined order: repeatedly the
// first package, sorted by import path, whose imports are all initialised.
// This package imports only "os". The proto packages depend on
// google.golang.org/protobuf/reflect/protoregistry, which itself imports
// "os"; so as soon as "os" is initialised this package is ready, and it sorts
// before every "google.golang.org/..." package (github.com < google.golang.org),
// hence it runs before protoregistry and before any package that registers
// a proto file. sv/backend imports it, and every RolePrint package that
// links compute-onnx or onnx-gomlx does so through sv/backend, so every
// test binary and cmd/roleprint is covered. sv/backend's tests check it by
// linking both proto packages.
//
// It also sets GOMLX_NO_AUTO_INSTALL=1 (read by compute-onnx's and go-xla's
// init functions) so that GoMLX never downloads a runtime on its own:
// RolePrint installs ONNX Runtime with `roleprint setup onnxruntime` and
// fetches nothing at run time. Values already set by the user are kept.
package earlyenv

import "os"

// ProtoConflictEnv is the variable google.golang.org/protobuf consults on a
// duplicate proto registration.
const ProtoConflictEnv = "GOLANG_PROTOBUF_REGISTRATION_CONFLICT"

// NoAutoInstallEnv stops GoMLX backends from downloading runtimes.
const NoAutoInstallEnv = "GOMLX_NO_AUTO_INSTALL"

func init() {
	setDefault(ProtoConflictEnv, "ignore")
	setDefault(NoAutoInstallEnv, "1")
}

func setDefault(key, value string) {
	if _, ok := os.LookupEnv(key); !ok {
		_ = os.Setenv(key, value)
	}
}

// Applied reports whether the variables hold a value (always true once the
// package is initialised; it exists so importers can refer to the package).
func Applied() bool {
	_, a := os.LookupEnv(ProtoConflictEnv)
	_, b := os.LookupEnv(NoAutoInstallEnv)
	return a && b
}
