#!/usr/bin/env bash
# notebooks-setup.sh builds and installs the GoNB Jupyter kernel (pinned to the
# version in go.mod) plus goimports, then registers GoNB with Jupyter.
#
# GoNB cannot be installed with `go install github.com/janpfeifer/gonb@VERSION`
# here because the Go module proxy refuses its version list; fetching the exact
# module version and building inside (a writable copy of) its module directory
# works. Safe to run repeatedly.
#
# Environment:
#   GONB_VERSION      GoNB version (default: the one required by go.mod)
#   GOIMPORTS_VERSION golang.org/x/tools version for goimports (default v0.44.0)
#   GOBIN             where binaries go (default: $(go env GOPATH)/bin)
#
# Requires Jupyter (Debian: apt-get install jupyter-nbconvert python3-nbclient
# jupyter-client python3-ipykernel).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

gonb_version="${GONB_VERSION:-$(go list -m -f '{{.Version}}' github.com/janpfeifer/gonb)}"
goimports_version="${GOIMPORTS_VERSION:-v0.44.0}"
gobin="${GOBIN:-$(go env GOPATH)/bin}"
mkdir -p "$gobin"
export PATH="$gobin:$PATH"

echo "notebooks-setup: GoNB ${gonb_version}, goimports ${goimports_version}, binaries in ${gobin}" >&2

if ! command -v jupyter >/dev/null 2>&1; then
	echo "notebooks-setup: jupyter not found; on Debian/Ubuntu run:" >&2
	echo "  sudo apt-get install -y jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel" >&2
	exit 1
fi

# 1. GoNB, built in a writable copy of its module directory.
moddir="$(go mod download -json "github.com/janpfeifer/gonb@${gonb_version}" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
if [[ -z "$moddir" || ! -d "$moddir" ]]; then
	echo "notebooks-setup: could not download github.com/janpfeifer/gonb@${gonb_version}" >&2
	exit 1
fi
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
cp -r "$moddir/." "$build/"
chmod -R u+w "$build"
(cd "$build" && GOFLAGS=-mod=mod go build -o "$gobin/gonb" .)

# 2. goimports (GoNB runs it on every cell).
GOFLAGS= go install "golang.org/x/tools/cmd/goimports@${goimports_version}"

# 3. Register the kernel with Jupyter (user kernelspec directory).
"$gobin/gonb" --install --force_deps --raw_error
jupyter kernelspec list >&2
