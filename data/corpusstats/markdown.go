package corpusstats

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteMarkdown renders s as Markdown: a Table 4-style table with one row
// per dataset and a total row, a per-source table when a dataset holds
// several sources (the plays of Shakespeare), and the top speakers of the
// corpus.
func WriteMarkdown(w io.Writer, s *Stats) error {
	var b strings.Builder
	b.WriteString("| Dataset | Sources | Speakers | Utterances | Conversations | Avg. turns | Speakers/conv. | Words/utt. |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, d := range s.Datasets {
		row(&b, d.Name, d)
	}
	if len(s.Datasets) != 1 {
		row(&b, "**Total**", s.Summary)
	}
	if len(s.Sources) > len(s.Datasets) {
		b.WriteString("\n| Source | Speakers | Utterances | Conversations | Avg. turns | Top speaker |\n")
		b.WriteString("|---|---:|---:|---:|---:|---|\n")
		for _, src := range s.Sources {
			top := ""
			if len(src.TopSpeakers) > 0 {
				top = fmt.Sprintf("%s (%s)", escape(src.TopSpeakers[0].Speaker), thousands(src.TopSpeakers[0].Utterances))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %.2f | %s |\n", escape(src.Name), thousands(src.Speakers),
				thousands(src.Utterances), thousands(src.Conversations), src.UtterancesPerConversation, top)
		}
	}
	if len(s.TopSpeakers) > 0 {
		b.WriteString("\n| # | Speaker | Source | Utterances |\n|---:|---|---|---:|\n")
		for i, sc := range s.TopSpeakers {
			fmt.Fprintf(&b, "| %d | %s | %s | %s |\n", i+1, escape(sc.Speaker), escape(sc.Source), thousands(sc.Utterances))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Markdown returns WriteMarkdown's output as a string.
func (s *Stats) Markdown() string {
	var b strings.Builder
	_ = WriteMarkdown(&b, s)
	return b.String()
}

func row(b *strings.Builder, name string, d Summary) {
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %.2f | %.2f | %.1f |\n", escape(name), thousands(d.NumSources),
		thousands(d.Speakers), thousands(d.Utterances), thousands(d.Conversations),
		d.UtterancesPerConversation, d.SpeakersPerConversation, d.WordsPerUtterance)
}

// thousands renders n with comma thousands separators, as the paper does.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// escape keeps a cell from breaking the table.
func escape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
