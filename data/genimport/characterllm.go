package genimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// characterLLMPiece is one piece of a reply: the speaking role, an action
// (stage business, never kept) and the spoken content.
type characterLLMPiece struct {
	Role    string `json:"role"`
	Action  string `json:"action"`
	Content string `json:"content"`
}

// characterLLMSingle is one record of a single-turn result file.
type characterLLMSingle struct {
	TopicID  json.RawMessage   `json:"topic_id"`
	Question string            `json:"question"`
	Reply    characterLLMPiece `json:"reply"`
}

// characterLLMMulti is one line of a multi-turn result file.
type characterLLMMulti struct {
	Character string `json:"character"`
	Model     string `json:"model"`
	Topic     string `json:"topic"`
	Content   []struct {
		TurnRole    string              `json:"turn_role"`
		TurnContent []characterLLMPiece `json:"turn_content"`
	} `json:"content"`
}

// ReadCharacterLLM reads Character-LLM's generated interviews, files or
// folders:
//
//   - single-turn results, <Role>_<model>_result/*.json, each a JSON list
//     of {topic_id, question, reply: {role, action, content}}: one row per
//     reply, its content as Text;
//   - multi-turn results, multiturn_<Role>_<model>_result/*.jsonl, one
//     interview per line {character, model, topic, content: [{turn_role,
//     turn_content: [{role, action, content}]}]}: one row per turn of the
//     character, the contents of its pieces joined.
//
// Only the role's own content is kept, never the action (stage business
// like "(smiles)"), and never a reply or piece whose role is someone else
// (dropped as "other-speaker"). The role comes from the records (reply.role,
// character) or the folder name; the model from the records, the folder
// name ("Beethoven_llama-7b_result" → "llama-7b") or opts.AgentModel,
// which wins. Source is "character-llm/<folder>", ConversationID
// "<file stem>:<topic_id>" (single-turn; the record's index when it has
// no topic_id) or "<file stem>:L<line>" (multi-turn). With opts.Context
// the questions and the interviewer's turns are rows too.
func ReadCharacterLLM(paths []string, opts Options) ([]data.Utterance, Stats, error) {
	var st Stats
	files, err := expandPaths(paths, func(p string) bool {
		dir := filepath.Base(filepath.Dir(p))
		if !strings.HasSuffix(dir, "_result") {
			return false
		}
		return strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")
	})
	if err != nil {
		return nil, st, fmt.Errorf("character-llm: %w", err)
	}
	names := opts.names()
	var out []data.Utterance
	for _, path := range files {
		st.Files++
		var rows []data.Utterance
		if strings.HasSuffix(path, ".jsonl") {
			rows, err = readCharacterLLMMulti(path, opts, names, &st)
		} else {
			rows, err = readCharacterLLMSingle(path, opts, names, &st)
		}
		if err != nil {
			return nil, st, fmt.Errorf("character-llm: %w", err)
		}
		out = append(out, rows...)
	}
	st.Utterances = len(out)
	return out, st, nil
}

// splitCharacterLLMFolder splits "<Role>_<model>_result" (optionally
// prefixed "multiturn_") into role and model. When role is known (from
// the records) the split is where the folder's prefix names it; otherwise
// at the first underscore.
func splitCharacterLLMFolder(folder, role string) (string, string) {
	f := strings.TrimSuffix(folder, "_result")
	f = strings.TrimPrefix(f, "multiturn_")
	if role != "" {
		for i := 0; i < len(f); i++ {
			if f[i] == '_' && NormalizeName(f[:i]) == NormalizeName(role) {
				return f[:i], f[i+1:]
			}
		}
	}
	r, m, ok := strings.Cut(f, "_")
	if !ok {
		return f, ""
	}
	return r, m
}

func readCharacterLLMSingle(path string, opts Options, names *NameMatcher, st *Stats) ([]data.Utterance, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var recs []characterLLMSingle
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, &LineError{File: path, Err: fmt.Errorf("expected a JSON list of {topic_id, question, reply: {role, action, content}}: %w", err)}
	}
	folder := filepath.Base(filepath.Dir(path))
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	source := "character-llm/" + folder
	var out []data.Utterance
	usedConv := map[string]bool{}
	for i, r := range recs {
		st.Records++
		folderRole, folderModel := splitCharacterLLMFolder(folder, r.Reply.Role)
		folderRole = strings.ReplaceAll(folderRole, "_", " ")
		role := strings.TrimSpace(r.Reply.Role)
		switch {
		case role == "":
			role = folderRole
		case strings.HasSuffix(folder, "_result") && names.Compare(role, folderRole) == MatchNone:
			// A reply voiced by someone else (the interviewer) is not
			// the role's own content.
			st.drop("other-speaker")
			continue
		}
		model := firstNonEmpty(opts.AgentModel, folderModel)
		if model == "" {
			return nil, &LineError{File: path, Err: fmt.Errorf("record %d: no model name in the folder name %q (expected <Role>_<model>_result); set the agent model", i+1, folder)}
		}
		text := CleanLine(r.Reply.Content)
		if text == "" {
			if strings.TrimSpace(r.Reply.Action) != "" {
				st.drop("action-only")
			} else {
				st.drop("empty")
			}
			continue
		}
		conv := stem + ":" + topicID(r.TopicID, i)
		if usedConv[conv] {
			conv += "." + strconv.Itoa(i+1) // a topic asked more than once
		}
		usedConv[conv] = true
		if opts.Context {
			if q := collapseSpace(r.Question); q != "" {
				out = append(out, data.Utterance{Source: source, ConversationID: conv, Turn: 0, Speaker: "User",
					Text: q, AgentModel: model, Role: role})
			}
		}
		out = append(out, data.Utterance{Source: source, ConversationID: conv, Turn: 1, Speaker: role,
			Text: text, AgentModel: model, Role: role})
	}
	return out, nil
}

func readCharacterLLMMulti(path string, opts Options, names *NameMatcher, st *Stats) ([]data.Utterance, error) {
	folder := filepath.Base(filepath.Dir(path))
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	source := "character-llm/" + folder
	var out []data.Utterance
	err := eachFileLine(path, func(n int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		var r characterLLMMulti
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("expected an interview {character, model, topic, content: [{turn_role, turn_content}]}: %w", err)
		}
		st.Records++
		folderRole, folderModel := splitCharacterLLMFolder(folder, r.Character)
		role := strings.TrimSpace(r.Character)
		if role == "" {
			role = strings.ReplaceAll(folderRole, "_", " ")
		}
		model := firstNonEmpty(opts.AgentModel, strings.TrimSpace(r.Model), folderModel)
		if model == "" {
			return fmt.Errorf("no model name in the record or the folder name %q", folder)
		}
		conv := stem + ":L" + strconv.Itoa(n)
		for k, t := range r.Content {
			speaker := strings.TrimSpace(t.TurnRole)
			isRole := names.Compare(speaker, role) != MatchNone
			if !isRole && !opts.Context {
				continue
			}
			var parts []string
			hadAction := false
			for _, p := range t.TurnContent {
				if isRole && p.Role != "" && names.Compare(p.Role, role) == MatchNone {
					st.drop("other-speaker") // a piece voiced by someone else inside the role's turn
					continue
				}
				if strings.TrimSpace(p.Action) != "" {
					hadAction = true
				}
				if c := CleanLine(p.Content); c != "" {
					parts = append(parts, c)
				}
			}
			text := strings.Join(parts, " ")
			if text == "" {
				if isRole {
					if hadAction {
						st.drop("action-only")
					} else {
						st.drop("empty")
					}
				}
				continue
			}
			if isRole {
				speaker = role
			} else if speaker == "" {
				speaker = "User"
			}
			out = append(out, data.Utterance{Source: source, ConversationID: conv, Scene: r.Topic, Turn: int32(k),
				Speaker: speaker, Text: text, AgentModel: model, Role: role})
		}
		return nil
	})
	return out, err
}

func topicID(raw json.RawMessage, i int) string {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil && n != "" {
		return n.String()
	}
	return "R" + strconv.Itoa(i+1)
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
