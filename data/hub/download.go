package hub

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"
	gohf "github.com/gomlx/go-huggingface/hub"

	"github.com/roleprint/roleprint/internal/fsx"
)

// File is one repository file as the Hub's API lists it.
type File struct {
	// Name is the path inside the repository ("onnx/model.onnx").
	Name string
	// Size in bytes; 0 when the Hub did not say.
	Size int64
	// Blob is the cache's blob name: the SHA-256 of an LFS file, else the
	// Git blob id.
	Blob string
	// SHA256 is the LFS checksum ("" for files kept in Git itself).
	SHA256 string
}

// Download asks the Hub which files ref has at its revision, lets pick
// choose those to fetch (by repository path), and fetches each into the
// cache unless its blob is already there, resuming a transfer left
// incomplete. It returns the snapshot and the files picked. This is the
// only network access of the package.
func (c Client) Download(ctx context.Context, ref Ref, pick func(files []File) ([]string, error)) (Snapshot, []string, error) {
	if c.Offline {
		return Snapshot{}, nil, fmt.Errorf("hub: %s: HF_HUB_OFFLINE is set, so nothing is fetched; unset it to run %q", ref, SetupCommand(ref.String()))
	}
	dir, err := c.repoDir(ref)
	if err != nil {
		return Snapshot{}, nil, err
	}
	endpoint := strings.TrimSuffix(c.Endpoint, "/")
	if endpoint == "" {
		endpoint = DefaultEndpoint
	}
	repo := gohf.New(ref.ID).WithEndpoint(endpoint).WithRevision(ref.Revision).WithAuth(c.Token).WithCacheDir(c.CacheDir)
	repo.Verbosity = 0
	// go-huggingface asks without a context or timeout: wait for it at
	// most the stall timeout (the abandoned request ends with the process).
	infoDone := make(chan error, 1)
	go func() { infoDone <- repo.DownloadInfo(true) }()
	select {
	case err := <-infoDone:
		if err != nil {
			return Snapshot{}, nil, fmt.Errorf("hub: %s: asking %s for the repository's files: %v%s", ref, endpoint, err, statusHint(err.Error(), c.Token != ""))
		}
	case <-time.After(c.stallTimeout()):
		return Snapshot{}, nil, fmt.Errorf("hub: %s: %s did not answer the repository question within %s", ref, endpoint, c.stallTimeout())
	case <-ctx.Done():
		return Snapshot{}, nil, fmt.Errorf("hub: %s: %w", ref, ctx.Err())
	}
	info := repo.Info()
	if info == nil || info.CommitHash == "" {
		return Snapshot{}, nil, fmt.Errorf("hub: %s: %s answered without a commit hash", ref, endpoint)
	}
	if ref.IsCommit() && info.CommitHash != ref.Revision {
		return Snapshot{}, nil, fmt.Errorf("hub: %s: the Hub resolved commit %s to %s", ref, ref.Revision, info.CommitHash)
	}
	var files []File
	byName := map[string]File{}
	for _, s := range info.Siblings {
		f := File{Name: s.Name, Size: s.Size, Blob: s.BlobID}
		if s.LFS != nil && s.LFS.SHA256 != "" {
			f.Blob, f.SHA256 = s.LFS.SHA256, s.LFS.SHA256
			if s.LFS.Size > 0 {
				f.Size = s.LFS.Size
			}
		}
		if filepath.IsAbs(f.Name) || strings.Contains(f.Name, "..") || strings.HasPrefix(f.Name, "/") {
			return Snapshot{}, nil, fmt.Errorf("hub: %s: the repository lists an unsafe file name %q", ref, f.Name)
		}
		files = append(files, f)
		byName[f.Name] = f
	}
	names, err := pick(files)
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("hub: %s: %w", ref, err)
	}
	snap := Snapshot{Ref: ref, Commit: info.CommitHash, Dir: filepath.Join(dir, "snapshots", info.CommitHash)}
	for _, name := range names {
		f, ok := byName[name]
		if !ok {
			return Snapshot{}, nil, fmt.Errorf("hub: %s: no file %q at commit %s", ref, name, info.CommitHash)
		}
		if f.Blob == "" || strings.ContainsAny(f.Blob, `/\.`) {
			return Snapshot{}, nil, fmt.Errorf("hub: %s: %s: the Hub gave no usable blob id (%q)", ref, name, f.Blob)
		}
		u := endpoint + "/" + ref.ID + "/resolve/" + info.CommitHash + "/" + escapePath(name)
		if c.Logf != nil {
			c.Logf("hub: %s: %s (%s)", ref, name, sizeText(f.Size))
		}
		if err := c.fetchBlob(ctx, u, filepath.Join(dir, "blobs", f.Blob), f); err != nil {
			return Snapshot{}, nil, fmt.Errorf("hub: %s: %s: %w", ref, name, err)
		}
	}
	// The snapshot is made only once every blob is in place, so a
	// snapshot folder (what Local finds) never lacks a file.
	for _, name := range names {
		if err := link(snap.Path(name), filepath.Join(dir, "blobs", byName[name].Blob)); err != nil {
			return Snapshot{}, nil, fmt.Errorf("hub: %s: %w", ref, err)
		}
	}
	if err := os.MkdirAll(snap.Dir, 0o755); err != nil {
		return Snapshot{}, nil, fmt.Errorf("hub: %w", err)
	}
	if !ref.IsCommit() {
		// huggingface_hub's record of where the revision pointed.
		refFile := filepath.Join(dir, "refs", filepath.FromSlash(ref.Revision))
		if err := os.MkdirAll(filepath.Dir(refFile), 0o755); err != nil {
			return Snapshot{}, nil, fmt.Errorf("hub: %w", err)
		}
		if err := fsx.WriteFile(refFile, []byte(info.CommitHash), 0o644); err != nil {
			return Snapshot{}, nil, fmt.Errorf("hub: %w", err)
		}
	}
	return snap, names, nil
}

// statusHint explains the HTTP statuses a user can act on.
func statusHint(msg string, haveToken bool) string {
	switch {
	case strings.Contains(msg, "status code 401"), strings.Contains(msg, "status code 403"):
		if haveToken {
			return " (the token was refused: check HF_TOKEN, and accept the model's terms on the Hub if it is gated)"
		}
		return " (the model needs a token: set HF_TOKEN, or log in with huggingface-cli login)"
	case strings.Contains(msg, "status code 404"):
		return " (no such repository or revision: check the name and the @REVISION; a private repository also answers 404 without HF_TOKEN)"
	}
	return ""
}

// escapePath escapes each segment of a repository path for a URL.
func escapePath(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// link makes dst a relative symbolic link to blob (the cache layout
// huggingface_hub uses), replacing what dst was.
func link(dst, blob string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(dst), blob)
	if err != nil {
		rel = blob
	}
	if cur, err := os.Readlink(dst); err == nil && cur == rel {
		return nil
	}
	_ = os.Remove(dst)
	return os.Symlink(rel, dst)
}

// fetchBlob makes blob hold the file f from u: nothing when the blob is
// already there with f's size; else it transfers into blob.incomplete,
// continuing a partial one with a Range request, checks the size and the
// checksum (LFS SHA-256, else the Git blob id) and renames it into place.
// An interrupted transfer keeps what arrived, for the next call to resume.
func (c Client) fetchBlob(ctx context.Context, u, blob string, f File) error {
	if err := os.MkdirAll(filepath.Dir(blob), 0o755); err != nil {
		return err
	}
	lock := flock.New(blob + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("locking %s: %w", blob, err)
	}
	defer func() { _ = lock.Unlock() }()
	if st, err := os.Stat(blob); err == nil && (f.Size == 0 || st.Size() == f.Size) {
		return nil
	}
	part := blob + ".incomplete"
	var offset int64
	if st, err := os.Stat(part); err == nil {
		offset = st.Size()
	}
	if f.Size > 0 && offset > f.Size {
		offset = 0 // not a prefix of this file
	}
	if f.Size == 0 || offset < f.Size {
		if err := c.transfer(ctx, u, part, offset, f); err != nil {
			return err
		}
	}
	if err := verify(part, f); err != nil {
		_ = os.Remove(part)
		return err
	}
	return os.Rename(part, blob)
}

// transfer appends u's bytes from offset to part.
func (c Client) transfer(ctx context.Context, u, part string, offset int64, f File) error {
	// A watchdog cancels the request when nothing arrives for the stall
	// timeout (headers or body).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stalled atomic.Bool
	watchdog := time.AfterFunc(c.stallTimeout(), func() { stalled.Store(true); cancel() })
	defer watchdog.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	req.Header.Set("User-Agent", gohf.DefaultHttpUserAgent())
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if stalled.Load() {
			return fmt.Errorf("GET %s: no answer within %s", u, c.stallTimeout())
		}
		return fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	flags := os.O_CREATE | os.O_WRONLY
	switch {
	case resp.StatusCode == http.StatusPartialContent && offset > 0:
		if !strings.HasPrefix(resp.Header.Get("Content-Range"), fmt.Sprintf("bytes %d-", offset)) {
			return fmt.Errorf("GET %s: asked for bytes from %d, got range %q", u, offset, resp.Header.Get("Content-Range"))
		}
		flags |= os.O_APPEND
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC // the server sent the whole file
		offset = 0
	default:
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		msg := fmt.Sprintf("status code %d", resp.StatusCode)
		return fmt.Errorf("GET %s: %s: %s%s", u, msg, strings.TrimSpace(string(body)), statusHint(msg, c.Token != ""))
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return err
	}
	var src io.Reader = &progressReader{r: resp.Body, watchdog: watchdog, stall: c.stallTimeout(), logf: c.Logf,
		name: filepath.Base(u), done: offset, total: f.Size, last: time.Now()}
	if f.Size > 0 {
		src = io.LimitReader(src, f.Size-offset+1) // one byte more shows an overlong answer
	}
	n, cerr := io.Copy(out, src)
	if stalled.Load() && cerr != nil {
		cerr = fmt.Errorf("nothing arrived for %s", c.stallTimeout())
	}
	if err := out.Close(); err != nil && cerr == nil {
		cerr = err
	}
	got := offset + n
	if cerr != nil || (f.Size > 0 && got < f.Size) {
		why := "the connection ended"
		if cerr != nil {
			why = cerr.Error()
		}
		return fmt.Errorf("transfer cut short at %s of %s (%s); %s keeps what arrived and the same setup command resumes it",
			strconv.FormatInt(got, 10), sizeText(f.Size), why, filepath.Base(part))
	}
	return nil
}

func sizeText(n int64) string {
	if n <= 0 {
		return "an unknown size"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// verify checks part's size and checksum against f.
func verify(part string, f File) error {
	st, err := os.Stat(part)
	if err != nil {
		return err
	}
	if f.Size > 0 && st.Size() != f.Size {
		return fmt.Errorf("received %d bytes, the Hub lists %d", st.Size(), f.Size)
	}
	in, err := os.Open(part)
	if err != nil {
		return err
	}
	defer in.Close()
	var h hash.Hash
	want := f.SHA256
	if want != "" {
		h = sha256.New()
	} else if len(f.Blob) == 40 {
		// A Git blob id: SHA-1 of "blob SIZE\x00" and the content.
		h = sha1.New()
		fmt.Fprintf(h, "blob %d\x00", st.Size())
		want = f.Blob
	} else {
		return nil
	}
	if _, err := io.Copy(h, in); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, want) {
		return errors.New("checksum mismatch: the file received is not the one the Hub lists (" + got + " ≠ " + want + "); it was discarded")
	}
	return nil
}

// progressReader resets the stall watchdog on every read that brings
// bytes, and notes progress every 10 seconds.
type progressReader struct {
	r           io.Reader
	watchdog    *time.Timer
	stall       time.Duration
	logf        func(string, ...any)
	name        string
	done, total int64
	last        time.Time
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.watchdog.Reset(p.stall)
		p.done += int64(n)
		if p.logf != nil && time.Since(p.last) > 10*time.Second {
			p.last = time.Now()
			if p.total > 0 {
				p.logf("hub: %s: %d of %d MB (%.0f %%)", p.name, p.done>>20, p.total>>20, 100*float64(p.done)/float64(p.total))
			} else {
				p.logf("hub: %s: %d MB", p.name, p.done>>20)
			}
		}
	}
	return n, err
}
