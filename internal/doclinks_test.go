package internal_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// pendingPages are pages that links in the README and docs name while the
// change that writes them is on its way into the tree. A link to one of them
// passes while the page is absent; once it exists it is checked like any
// other. Delete an entry when its page is in the tree.
var pendingPages = map[string]bool{}

// TestDocLinks checks every relative link and image in README.md and the
// Markdown files under docs/: the file it names must exist, and an #anchor
// must be the GitHub anchor of a heading of that file.
func TestDocLinks(t *testing.T) {
	root := ".."
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) (map[string]bool, error) {
		if a, ok := anchors[file]; ok {
			return a, nil
		}
		_, headings, err := scanMarkdown(filepath.Join(root, file))
		if err != nil {
			return nil, err
		}
		a := headingAnchors(headings)
		anchors[file] = a
		return a, nil
	}
	checked := 0
	for _, file := range files {
		links, _, err := scanMarkdown(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			target, anchor, _ := strings.Cut(l.target, "#")
			if isExternal(target) {
				continue
			}
			checked++
			dest := file
			if target != "" {
				dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), target)))
			}
			if _, err := os.Stat(filepath.Join(root, dest)); err != nil {
				if !pendingPages[dest] {
					t.Errorf("%s:%d: link %q: %s does not exist", file, l.line, l.target, dest)
				}
				continue
			}
			if anchor == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			a, err := anchorsOf(dest)
			if err != nil {
				t.Fatal(err)
			}
			if !a[anchor] {
				t.Errorf("%s:%d: link %q: %s has no heading with anchor #%s", file, l.line, l.target, dest, anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: the scanner reads nothing")
	}
}

// TestHeadingAnchor pins the GitHub anchor rules the link test relies on.
func TestHeadingAnchor(t *testing.T) {
	got := headingAnchors([]string{
		"`score --json` keys",
		"GPU (`scripts/gpu-check.sh`)",
		"Shared corpora (Friends HTML + TBBT), 3 rounds, seeds 1–3",
		"`ngram-metric_ft`: a learned metric",
		"Tests",
		"Tests",
		"See [the page](x.md) **now**",
	})
	for _, want := range []string{"score---json-keys", "gpu-scriptsgpu-checksh",
		"shared-corpora-friends-html--tbbt-3-rounds-seeds-13", "ngram-metric_ft-a-learned-metric",
		"tests", "tests-1", "see-the-page-now"} {
		if !got[want] {
			t.Errorf("anchor %q missing from %v", want, got)
		}
	}
}

type mdLink struct {
	target string
	line   int
}

var (
	linkRE   = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	headRE   = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	inlineRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// scanMarkdown returns the links and headings of a Markdown file, leaving
// out fenced code blocks and inline code spans.
func scanMarkdown(path string) ([]mdLink, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var links []mdLink
	var headings []string
	fence := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if m := headRE.FindStringSubmatch(line); m != nil {
			headings = append(headings, m[1])
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
			links = append(links, mdLink{target: m[1], line: n})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return links, headings, nil
}

// headingAnchors gives the anchors GitHub assigns to headings: the text
// without markup, lower-cased, every character but letters, digits, '-',
// '_' and spaces dropped, spaces turned into '-', and a repeated anchor
// suffixed -1, -2, ….
func headingAnchors(headings []string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, h := range headings {
		h = inlineRE.ReplaceAllString(h, "$1")
		h = strings.NewReplacer("`", "", "**", "", "*", "").Replace(h)
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			seen[a] = k + 1
			a = fmt.Sprintf("%s-%d", a, k)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

// isExternal reports whether a link target leaves the repository.
func isExternal(target string) bool {
	return strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:")
}
