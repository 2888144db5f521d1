// Package hubtest is a stand-in for the Hugging Face Hub on 127.0.0.1, for
// tests: it answers the repository API (/api/models/ID/revision/REV) and
// file transfers (/ID/resolve/COMMIT/FILE, with Range requests) the way
// the Hub does for what package hub and go-huggingface read, records every
// request, and can require a token or cut a transfer short.
package hubtest

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is one request the stand-in received.
type Request struct {
	Method, Path, Authorization, Range string
}

// Hub is the stand-in server. Its URL is the endpoint (HF_ENDPOINT).
type Hub struct {
	*httptest.Server
	// Token, when not empty, is required as "Authorization: Bearer TOKEN"
	// on every request (others get 401, as a gated model's do).
	Token string

	mu       sync.Mutex
	repos    map[string]map[string]string // id → revision → commit
	history  map[string]map[string]bool   // id → every commit ever published, reachable by hash as on the Hub
	commits  map[string]map[string][]byte // commit → file → content
	requests []Request
	truncate map[string]int // file → bytes sent before the next transfer of it breaks off
	stall    map[string]int // file → bytes sent before the next transfer of it goes silent
}

// New starts a stand-in on 127.0.0.1, closed when the test ends.
func New(t testing.TB) *Hub {
	h := Start()
	t.Cleanup(h.Close)
	return h
}

// Use points this test's Hub clients at h, as a user's environment would:
// HF_ENDPOINT is h, the download cache a fresh folder, no token (HF_TOKEN
// empty, HF_TOKEN_PATH a missing file) and not offline. A test that needs
// a token or the offline switch sets it afterwards.
func (h *Hub) Use(t testing.TB) {
	t.Helper()
	t.Setenv("HF_ENDPOINT", h.URL)
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_TOKEN_PATH", filepath.Join(t.TempDir(), "no-token"))
	t.Setenv("HF_HUB_OFFLINE", "")
}

// Start starts a stand-in on 127.0.0.1; the caller closes it.
func Start() *Hub {
	h := &Hub{repos: map[string]map[string]string{}, history: map[string]map[string]bool{}, commits: map[string]map[string][]byte{}, truncate: map[string]int{}, stall: map[string]int{}}
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	return h
}

// Add publishes files (repository path → content) as a new commit of
// repository id and points revision (a branch or tag) at it. It returns
// the commit hash, which stays reachable after the revision moves on.
func (h *Hub) Add(id, revision string, files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	s := sha1.New()
	fmt.Fprintln(s, id)
	for _, n := range names {
		fmt.Fprintln(s, n)
		s.Write(files[n])
	}
	commit := hex.EncodeToString(s.Sum(nil))
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.repos[id] == nil {
		h.repos[id] = map[string]string{}
	}
	h.repos[id][revision] = commit
	if h.history[id] == nil {
		h.history[id] = map[string]bool{}
	}
	h.history[id][commit] = true
	h.commits[commit] = files
	return commit
}

// ReadDir returns the files under dir as repository paths → contents,
// renamed by rename (from → to; a file renamed to "" is left out).
func ReadDir(dir string, rename map[string]string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if to, ok := rename[rel]; ok {
			if to == "" {
				return nil
			}
			rel = to
		}
		b, err := os.ReadFile(p)
		out[rel] = b
		return err
	})
	return out, err
}

// TruncateNext makes the next transfer of file (a repository path) break
// off after n bytes, as a dropped connection does.
func (h *Hub) TruncateNext(file string, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.truncate[file] = n
}

// StallNext makes the next transfer of file send n bytes and then
// nothing, keeping the connection open until the client gives up.
func (h *Hub) StallNext(file string, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stall[file] = n
}

// Requests returns the requests received so far.
func (h *Hub) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

// isLFS says which files the stand-in keeps in LFS (listed with a SHA-256)
// rather than in Git (listed with a Git blob id): weights, as on the Hub.
func isLFS(name string) bool {
	for _, ext := range []string{".onnx", ".onnx_data", ".safetensors", ".bin", ".pt"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

func (h *Hub) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, Request{Method: r.Method, Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Range: r.Header.Get("Range")})
	token := h.Token
	h.mu.Unlock()
	if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
		w.Header().Set("X-Error-Code", "GatedRepo")
		http.Error(w, `{"error":"Access to this model is restricted: you must be authenticated."}`, http.StatusUnauthorized)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/api/models/"); ok {
		h.serveInfo(w, rest)
		return
	}
	h.serveFile(w, r)
}

// serveInfo answers /api/models/ID/revision/REV as the Hub does with
// ?blobs=true.
func (h *Hub) serveInfo(w http.ResponseWriter, rest string) {
	id, rev, ok := strings.Cut(rest, "/revision/")
	h.mu.Lock()
	commit, known := "", false
	if ok {
		if revs := h.repos[id]; revs != nil {
			if c, isRev := revs[rev]; isRev {
				commit, known = c, true
			} else if h.history[id][rev] {
				commit, known = rev, true
			}
		}
	}
	files := h.commits[commit]
	h.mu.Unlock()
	if !known {
		w.Header().Set("X-Error-Code", "RepoNotFound")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":"Repository Not Found for url: /api/models/%s."}`, rest)
		return
	}
	type lfs struct {
		SHA256      string `json:"sha256"`
		Size        int64  `json:"size"`
		PointerSize int64  `json:"pointerSize"`
	}
	type sibling struct {
		Name   string `json:"rfilename"`
		Size   int64  `json:"size"`
		BlobID string `json:"blobId"`
		LFS    *lfs   `json:"lfs,omitempty"`
	}
	var sib []sibling
	for name, b := range files {
		gs := sha1.New()
		fmt.Fprintf(gs, "blob %d\x00", len(b))
		gs.Write(b)
		s := sibling{Name: name, Size: int64(len(b)), BlobID: hex.EncodeToString(gs.Sum(nil))}
		if isLFS(name) {
			sum := sha256.Sum256(b)
			s.LFS = &lfs{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b)), PointerSize: 134}
		}
		sib = append(sib, s)
	}
	sort.Slice(sib, func(i, j int) bool { return sib[i].Name < sib[j].Name })
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"_id": "x", "id": id, "modelId": id, "sha": commit, "siblings": sib,
		"lastModified": time.Unix(0, 0).UTC()})
}

// serveFile answers /ID/resolve/COMMIT/FILE (Range requests included).
func (h *Hub) serveFile(w http.ResponseWriter, r *http.Request) {
	id, rest, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/resolve/")
	commit, name, ok2 := strings.Cut(rest, "/")
	h.mu.Lock()
	var b []byte
	found := false
	if ok && ok2 && h.history[id][commit] {
		b, found = h.commits[commit][name]
	}
	cut, truncate := h.truncate[name]
	if truncate && found {
		delete(h.truncate, name)
	}
	stallAt, stall := h.stall[name]
	if stall && found {
		delete(h.stall, name)
	}
	h.mu.Unlock()
	if !found {
		w.Header().Set("X-Error-Code", "EntryNotFound")
		http.Error(w, "Entry not found", http.StatusNotFound)
		return
	}
	w.Header().Set("X-Repo-Commit", commit)
	sum := sha256.Sum256(b)
	w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:])+`"`)
	if truncate && cut < len(b) {
		// Promise the whole file, send the first cut bytes and drop the
		// connection.
		sendPrefix(w, b, cut)
		panic(http.ErrAbortHandler)
	}
	if stall && stallAt < len(b) {
		sendPrefix(w, b, stallAt)
		<-r.Context().Done() // silent until the client hangs up
		return
	}
	http.ServeContent(w, r, name, time.Unix(0, 0), bytes.NewReader(b))
}

// sendPrefix promises all of b (Content-Length) and sends its first n
// bytes at once, for a transfer that is then cut or stalls.
func sendPrefix(w http.ResponseWriter, b []byte, n int) {
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b[:n])
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
