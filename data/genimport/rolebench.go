package genimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// Default model names of RoleBench's files.
const (
	// RoleGPTModel names the answers of the RoleGPT baseline
	// (rolegpt_baseline.jsonl).
	RoleGPTModel = "RoleGPT"
	// RoleBenchRefModel names the answers in RoleBench's train and test
	// files, which GPT wrote as the benchmark's references.
	RoleBenchRefModel = "RoleBench-GPT"
)

// roleBenchRecord is one JSONL line of RoleBench.
type roleBenchRecord struct {
	Role      string          `json:"role"`
	Question  string          `json:"question"`
	Generated []string        `json:"generated"`
	Type      json.RawMessage `json:"type"`
}

// ReadRoleBench reads RoleBench JSONL files (or folders holding them):
// each line {role, question, generated: [...], type}. Every answer in
// generated becomes one utterance of its own conversation (the question
// and that answer), Speaker and Role set to the record's role, AgentModel
// to opts.AgentModel or the file's default (RoleGPTModel for
// rolegpt_baseline files, RoleBenchRefModel otherwise). Source is
// "rolebench/<path below rolebench-eng>" for the English release,
// "rolebench/zh/<path below rolebench-zh>" for the Chinese one, and
// otherwise "rolebench/" plus the shortest tail of the path, folder and
// file at least ("general/test", "role_specific/test"), that no other
// file of the call shares: splits and tasks never merge into one source,
// so a conversation never holds two roles. ConversationID "L<line>" (with
// ".<k>" for the k-th of several answers), Scene the record's type
// ("script_based", "script_agnostic") when it has one. With opts.Context
// the question is a row of Speaker "User" at turn 0.
//
// A leading "Role:" that RoleGPT sometimes writes is removed. A malformed
// line is an error naming the file and line.
func ReadRoleBench(paths []string, opts Options) ([]data.Utterance, Stats, error) {
	var st Stats
	files, err := expandPaths(paths, func(p string) bool { return strings.HasSuffix(p, ".jsonl") })
	if err != nil {
		return nil, st, fmt.Errorf("rolebench: %w", err)
	}
	names := opts.Names
	if names == nil {
		// The record names its role; no table of known characters.
		names = NewNameMatcher(nil, DefaultDistinct())
	}
	sources := roleBenchSources(files)
	var out []data.Utterance
	for _, path := range files {
		st.Files++
		model := opts.AgentModel
		if model == "" {
			model = RoleBenchRefModel
			if strings.Contains(strings.ToLower(filepath.Base(path)), "rolegpt") {
				model = RoleGPTModel
			}
		}
		source := sources[path]
		err := eachFileLine(path, func(n int, line []byte) error {
			if len(bytes.TrimSpace(line)) == 0 {
				return nil
			}
			var r roleBenchRecord
			if err := json.Unmarshal(line, &r); err != nil {
				return fmt.Errorf("expected a RoleBench record {role, question, generated}: %w", err)
			}
			role := strings.TrimSpace(r.Role)
			if role == "" {
				return fmt.Errorf("record without a role")
			}
			if r.Generated == nil {
				return fmt.Errorf("record without a generated list")
			}
			st.Records++
			typ := roleBenchType(r.Type)
			for k, g := range r.Generated {
				text := CleanLine(stripSpeakerPrefix(strings.TrimSpace(g), role, names))
				if text == "" {
					st.drop("empty")
					continue
				}
				conv := "L" + strconv.Itoa(n)
				if len(r.Generated) > 1 {
					conv += "." + strconv.Itoa(k+1)
				}
				if opts.Context {
					if q := collapseSpace(r.Question); q != "" {
						out = append(out, data.Utterance{Source: source, ConversationID: conv, Scene: typ, Turn: 0,
							Speaker: "User", Text: q, AgentModel: model, Role: role})
					}
				}
				out = append(out, data.Utterance{Source: source, ConversationID: conv, Scene: typ, Turn: 1,
					Speaker: role, Text: text, AgentModel: model, Role: role})
			}
			return nil
		})
		if err != nil {
			return nil, st, fmt.Errorf("rolebench: %w", err)
		}
	}
	st.Utterances = len(out)
	return out, st, nil
}

// roleBenchType renders the type field, a string or a list of strings
// (repeated for multi-answer records), as one string.
func roleBenchType(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var l []string
	if json.Unmarshal(raw, &l) == nil {
		seen := map[string]bool{}
		var u []string
		for _, x := range l {
			if !seen[x] {
				seen[x] = true
				u = append(u, x)
			}
		}
		return strings.Join(u, ",")
	}
	return ""
}

// roleBenchSources names each file's source (see ReadRoleBench).
func roleBenchSources(files []string) map[string]string {
	out := map[string]string{}
	var rest []string
	for _, f := range files {
		p := filepath.ToSlash(f)
		switch {
		case strings.Contains(p, "/rolebench-eng/") || strings.HasPrefix(p, "rolebench-eng/"):
			out[f] = sourceFor("rolebench", "/"+p, "rolebench-eng")
		case strings.Contains(p, "/rolebench-zh/") || strings.HasPrefix(p, "rolebench-zh/"):
			out[f] = "rolebench/zh/" + strings.TrimPrefix(sourceFor("rolebench", "/"+p, "rolebench-zh"), "rolebench/")
		default:
			rest = append(rest, f)
		}
	}
	tails := make(map[string][]string, len(rest))
	for _, f := range rest {
		p := filepath.ToSlash(f)
		p = strings.TrimSuffix(p, filepath.Ext(p))
		tails[f] = strings.Split(strings.Trim(p, "/"), "/")
	}
	for n := 2; len(rest) > 0; n++ {
		count := map[string]int{}
		tail := func(f string) string {
			parts := tails[f]
			return strings.Join(parts[max(0, len(parts)-n):], "/")
		}
		for _, f := range rest {
			count[tail(f)]++
		}
		var left []string
		for _, f := range rest {
			t := tail(f)
			if count[t] == 1 || len(tails[f]) <= n {
				out[f] = "rolebench/" + t
			} else {
				left = append(left, f)
			}
		}
		rest = left
	}
	return out
}
