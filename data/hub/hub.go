// Package hub fetches models from the Hugging Face Hub into the Hugging Face
// cache and finds them there again without a network.
//
// The repository API, its cached answers and the cache's folder names are
// github.com/gomlx/go-huggingface's (package hub): the cache is the one the
// Python huggingface_hub library uses (models--ORG--NAME/{blobs,snapshots,
// refs}), so a model fetched by either is found by both. The file transfer
// is this package's own, because go-huggingface v0.4.0's restarts an
// interrupted file from zero, checks neither size nor checksum, reports a
// body cut short as a success (its read error is wrapped from the wrong
// variable) and prints progress on stdout. Here a transfer resumes an
// interrupted blob with an HTTP Range request (blobs/ETAG.incomplete, as
// huggingface_hub names it), and a blob is linked into the snapshot only
// when its size and, for LFS files, its SHA-256 match the repository's.
//
// Network access happens only in Client.Download (`roleprint setup --model`);
// Client.Local resolves a model from the cache alone and says which setup
// command fetches it when it is absent.
//
// Environment (as huggingface_hub reads it): HF_ENDPOINT (default
// https://huggingface.co), HF_TOKEN (else the token file HF_TOKEN_PATH or
// $HF_HOME/token that `huggingface-cli login` writes), HF_HUB_CACHE (else
// $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub or
// ~/.cache/huggingface/hub), HF_HUB_OFFLINE=1 (Download refuses to connect).
package hub

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	gohf "github.com/gomlx/go-huggingface/hub"
)

// DefaultEndpoint is the Hub's address when HF_ENDPOINT is not set.
const DefaultEndpoint = "https://huggingface.co"

// DefaultRevision is the branch a reference without "@REV" names.
const DefaultRevision = "main"

// Ref names a model repository at a revision: "ORG/NAME[@REV]".
type Ref struct {
	// ID is the repository, "ORG/NAME" (or a legacy un-namespaced "NAME").
	ID string
	// Revision is a branch, tag or commit hash; DefaultRevision when
	// the reference gives none.
	Revision string
}

var (
	idPart   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	revision = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*$`)
	commitRe = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// ParseRef parses "ORG/NAME", "NAME" or either with "@REV". A malformed
// reference is an error saying what was expected.
func ParseRef(s string) (Ref, error) {
	s = strings.TrimSpace(s)
	id, rev, hasRev := strings.Cut(s, "@")
	if !hasRev {
		rev = DefaultRevision
	}
	parts := strings.Split(id, "/")
	ok := len(parts) <= 2
	for _, p := range parts {
		ok = ok && idPart.MatchString(p) && !strings.Contains(p, "..")
	}
	if !ok {
		return Ref{}, fmt.Errorf("hub: model %q: expected ORG/NAME or ORG/NAME@REVISION (letters, digits, '.', '_', '-')", s)
	}
	if !revision.MatchString(rev) || strings.Contains(rev, "..") {
		return Ref{}, fmt.Errorf("hub: model %q: revision %q is not a branch, tag or commit hash", s, rev)
	}
	return Ref{ID: id, Revision: rev}, nil
}

// String returns "ORG/NAME" or "ORG/NAME@REV" (the revision only when it is
// not DefaultRevision).
func (r Ref) String() string {
	if r.Revision == "" || r.Revision == DefaultRevision {
		return r.ID
	}
	return r.ID + "@" + r.Revision
}

// IsCommit reports whether the revision is a full commit hash (a pinned
// reference: its files never change).
func (r Ref) IsCommit() bool { return commitRe.MatchString(r.Revision) }

// Client holds where the Hub and the cache are and the credentials.
// Default reads them from the environment; tests set the fields.
type Client struct {
	// Endpoint is the Hub's base URL (HF_ENDPOINT).
	Endpoint string
	// Token is sent as "Authorization: Bearer TOKEN" when not empty.
	Token string
	// CacheDir is the Hugging Face cache folder (the one holding
	// models--ORG--NAME folders).
	CacheDir string
	// Offline refuses any network access (HF_HUB_OFFLINE).
	Offline bool
	// HTTP is the client for file transfers; nil means a default client
	// (http.Client drops the Authorization header on a redirect to another
	// host, as the Hub's redirects of large files to its CDN need).
	HTTP *http.Client
	// Logf receives progress notes (stderr in the CLI); nil discards them.
	Logf func(format string, args ...any)
	// StallTimeout ends a request that receives nothing for this long
	// (the repository question included), so that a dead connection is an
	// error rather than a hang; 0 means DefaultStallTimeout.
	StallTimeout time.Duration
}

// DefaultStallTimeout is how long a request may receive nothing.
const DefaultStallTimeout = 60 * time.Second

func (c Client) stallTimeout() time.Duration {
	if c.StallTimeout > 0 {
		return c.StallTimeout
	}
	return DefaultStallTimeout
}

// Default returns a Client configured from the environment, as
// huggingface_hub is (see the package documentation).
func Default() Client {
	c := Client{Endpoint: DefaultEndpoint, CacheDir: DefaultCacheDir(), Token: envToken()}
	if e := strings.TrimSuffix(os.Getenv("HF_ENDPOINT"), "/"); e != "" {
		c.Endpoint = e
	}
	switch strings.ToLower(os.Getenv("HF_HUB_OFFLINE")) {
	case "1", "true", "yes", "on":
		c.Offline = true
	}
	return c
}

// DefaultCacheDir returns HF_HUB_CACHE, else $HF_HOME/hub, else
// go-huggingface's default ($XDG_CACHE_HOME/huggingface/hub or
// ~/.cache/huggingface/hub).
func DefaultCacheDir() string {
	if d := os.Getenv("HF_HUB_CACHE"); d != "" {
		return d
	}
	if d := os.Getenv("HF_HOME"); d != "" {
		return filepath.Join(d, "hub")
	}
	return gohf.DefaultCacheDir()
}

// envToken returns HF_TOKEN, else the token file huggingface-cli login
// writes (HF_TOKEN_PATH, else $HF_HOME/token, else
// ~/.cache/huggingface/token), else "".
func envToken() string {
	if t := strings.TrimSpace(os.Getenv("HF_TOKEN")); t != "" {
		return t
	}
	path := os.Getenv("HF_TOKEN_PATH")
	if path == "" {
		home := os.Getenv("HF_HOME")
		if home == "" {
			home = filepath.Dir(gohf.DefaultCacheDir()) // …/huggingface
		}
		path = filepath.Join(home, "token")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// repoDir is the cache folder of a model repository
// (CacheDir/models--ORG--NAME), named as go-huggingface and
// huggingface_hub name it.
func (c Client) repoDir(ref Ref) (string, error) {
	// go-huggingface's Repo.CacheDir creates the folder; the name is all
	// that Local needs, so build it the same way without creating it.
	name := string(gohf.RepoTypeModel) + gohf.RepoIdSeparator + strings.ReplaceAll(ref.ID, "/", gohf.RepoIdSeparator)
	if c.CacheDir == "" {
		return "", errors.New("hub: no cache folder (set HF_HUB_CACHE or HF_HOME)")
	}
	return filepath.Join(c.CacheDir, name), nil
}

// ErrNotCached is returned (wrapped) by Local when a model is not in the
// cache.
var ErrNotCached = errors.New("not in the Hugging Face cache")

// SetupCommand is the command that fetches ref into the cache.
func SetupCommand(ref string) string { return "roleprint setup --model " + ref }

// Snapshot is a model's files in the cache at one commit.
type Snapshot struct {
	// Ref is the reference resolved.
	Ref Ref
	// Commit is the commit hash the revision pointed to.
	Commit string
	// Dir is the snapshot folder (…/snapshots/COMMIT).
	Dir string
}

// Path returns the local path of a repository file.
func (s Snapshot) Path(name string) string { return filepath.Join(s.Dir, filepath.FromSlash(name)) }

// Has reports whether the snapshot holds a repository file (a link to a
// present blob).
func (s Snapshot) Has(name string) bool {
	st, err := os.Stat(s.Path(name))
	return err == nil && st.Mode().IsRegular()
}

// Local finds ref in the cache without any network access: the commit is
// the revision itself when it is a commit hash, else refs/REVISION
// (huggingface_hub's record of where the revision pointed). A model not there is an ErrNotCached naming the setup
// command.
func (c Client) Local(ref Ref) (Snapshot, error) {
	dir, err := c.repoDir(ref)
	if err != nil {
		return Snapshot{}, err
	}
	notCached := func(why string) error {
		return fmt.Errorf("hub: %s: %w (%s: %s); fetch it once with `%s` on a machine that reaches the Hub (HF_ENDPOINT for a mirror, HF_TOKEN for a gated model)",
			ref, ErrNotCached, dir, why, SetupCommand(ref.String()))
	}
	commit := ""
	switch {
	case ref.IsCommit():
		commit = ref.Revision
	default:
		// refs/REVISION is written once a setup has every file of the
		// commit in place (huggingface_hub writes it too).
		if b, err := os.ReadFile(filepath.Join(dir, "refs", filepath.FromSlash(ref.Revision))); err == nil {
			commit = strings.TrimSpace(string(b))
		}
	}
	if commit == "" {
		return Snapshot{}, notCached("no record of revision " + ref.Revision)
	}
	snap := filepath.Join(dir, "snapshots", commit)
	if st, err := os.Stat(snap); err != nil || !st.IsDir() {
		return Snapshot{}, notCached("no snapshot of commit " + commit)
	}
	return Snapshot{Ref: ref, Commit: commit, Dir: snap}, nil
}
