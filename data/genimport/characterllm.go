package genimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

// characterLLMPiece is one piece of a reply: the speaking role, an action
// (stage business, never kept) and the spoken content.
type characterLLMPiece struct {
	Role    string `json:"role"`
	Action  string `json:"action"`
	Content string `json:"content"`
}

// characterLLMPieces is a reply: a list of pieces in the chatgpt and sft
// result folders of the release, one bare piece in the alpaca and vicuna
// ones; both decode to a list.
type characterLLMPieces []characterLLMPiece

// UnmarshalJSON accepts a list of pieces or a single piece (or null).
func (p *characterLLMPieces) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*p = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		var list []characterLLMPiece
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		*p = list
		return nil
	}
	var one characterLLMPiece
	if err := json.Unmarshal(b, &one); err != nil {
		return fmt.Errorf("reply: expected {role, action, content} or a list of them: %w", err)
	}
	*p = characterLLMPieces{one}
	return nil
}

// characterLLMSingle is one record of a single-turn result file.
type characterLLMSingle struct {
	TopicID  json.RawMessage    `json:"topic_id"`
	Question string             `json:"question"`
	Reply    characterLLMPieces `json:"reply"`
}

// characterLLMMulti is one line of a multi-turn result file.
type characterLLMMulti struct {
	Character string `json:"character"`
	Model     string `json:"model"`
	Topic     string `json:"topic"`
	Content   []struct {
		TurnRole    string             `json:"turn_role"`
		TurnContent characterLLMPieces `json:"turn_content"`
	} `json:"content"`
}

// Drop reasons of the Character-LLM reader (Stats.Dropped).
const (
	// DropInnerMonologue counts reply pieces whose action is
	// "(thinking)": the role's inner monologue, not speech.
	DropInnerMonologue = "inner-monologue"
	// DropOtherSpeaker counts replies and pieces voiced by someone else
	// than the role (the interviewer).
	DropOtherSpeaker = "other-speaker"
)

// isThinking reports whether a piece's action marks inner monologue:
// "(thinking)", in any case, with or without brackets.
func isThinking(action string) bool {
	return strings.EqualFold(strings.Trim(strings.TrimSpace(action), "()[] "), "thinking")
}

// ReadCharacterLLM reads Character-LLM's generated interviews, files or
// folders:
//
//   - single-turn results, <Role>_<model>_result/*.json, each a JSON list
//     of {topic_id, question, reply}, where reply is one {role, action,
//     content} piece (alpaca, vicuna folders) or a list of them (chatgpt,
//     sft folders); topic_id is a number or a string ("topic-2"): one row
//     per reply, the contents of the role's pieces joined;
//   - multi-turn results, multiturn_<Role>_<model>_result/*.jsonl, one
//     interview per line {character, model, topic, content: [{turn_role,
//     turn_content: [{role, action, content}]}]}, turn_role being
//     "interviewer" or "character" (or, in older files, the speaker's
//     name) and the speaker named in each piece's role: one row per turn
//     of the character, the contents of its pieces joined.
//
// Only the role's own content is kept, never the action (stage business
// like "(smiles)"), never a piece whose action is "(thinking)" (inner
// monologue, dropped as "inner-monologue"), and never a reply or piece
// whose role is someone else (dropped as "other-speaker"). The role is
// named as the release names it, never by a list of known characters: a
// multi-turn record's character field ("Ludwig van Beethoven") names the
// role of every folder labelled like its folder ("Beethoven_chatgpt_result"
// and "multiturn_Beethoven_chatgpt_result"), so a role's single- and
// multi-turn rows share one name when both are read; else the role's name
// in the replies ("Hermonie", the release's spelling), else the folder
// label. A piece is the role's when its role is one of those names (or
// relates to one by the name matcher: "Professor X" and "X"). The model is opts.AgentModel when set,
// else the folder's label ("Beethoven_chatgpt_result" → "chatgpt"), else
// the record's model: the folder labels are the ones single- and
// multi-turn folders share, where the multi-turn records name the same
// model "gpt-3.5-turbo" or a checkpoint ("Socrates-end"). Source is "character-llm/<folder>", ConversationID
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
	names := opts.Names
	if names == nil {
		names = NewNameMatcher(nil, DefaultDistinct())
	}
	// The full names the multi-turn records state, by folder label.
	stated := map[string]string{}
	for _, path := range files {
		if strings.HasSuffix(path, ".jsonl") {
			if label, name := characterLLMStated(path); name != "" {
				if _, ok := stated[label]; !ok {
					stated[label] = name
				}
			}
		}
	}
	var out []data.Utterance
	for _, path := range files {
		st.Files++
		var rows []data.Utterance
		if strings.HasSuffix(path, ".jsonl") {
			rows, err = readCharacterLLMMulti(path, opts, names, stated, &st)
		} else {
			rows, err = readCharacterLLMSingle(path, opts, names, stated, &st)
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
			if f[i] == '_' && data.NormalizeCharacterName(f[:i]) == data.NormalizeCharacterName(role) {
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

// characterLLMStated returns the folder label of a multi-turn file and
// the character its first record names ("Beethoven", "Ludwig van
// Beethoven"), or "" when it names none.
func characterLLMStated(path string) (label, name string) {
	_ = eachFileLine(path, func(n int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		var r struct {
			Character string `json:"character"`
		}
		if json.Unmarshal(line, &r) == nil {
			name = strings.TrimSpace(r.Character)
		}
		return errStopFile
	})
	if name == "" {
		return "", ""
	}
	label, _ = splitCharacterLLMFolder(filepath.Base(filepath.Dir(path)), name)
	return data.NormalizeCharacterName(strings.ReplaceAll(label, "_", " ")), name
}

// characterLLMRole is a role as one folder's records name it.
type characterLLMRole struct {
	display string   // the name rows carry
	names   []string // every name the release gives it here
	matcher *NameMatcher
}

// newCharacterLLMRole names the role of a folder labelled label: the
// name a multi-turn record states for the label, else the label.
func newCharacterLLMRole(label string, names *NameMatcher, stated map[string]string) characterLLMRole {
	label = strings.TrimSpace(strings.ReplaceAll(label, "_", " "))
	r := characterLLMRole{matcher: names, display: firstNonEmpty(stated[data.NormalizeCharacterName(label)], label)}
	r.add(r.display)
	r.add(label)
	return r
}

// add gives the role one more name.
func (r *characterLLMRole) add(name string) {
	if name = strings.TrimSpace(name); name != "" && !slices.Contains(r.names, name) {
		r.names = append(r.names, name)
	}
}

// mostFrequentRole returns the role most pieces carry, ties broken by
// first appearance.
func mostFrequentRole(pieces []characterLLMPiece) string {
	count := map[string]int{}
	best := ""
	for _, p := range pieces {
		r := strings.TrimSpace(p.Role)
		if r == "" {
			continue
		}
		count[r]++
		if count[r] > count[best] {
			best = r
		}
	}
	return best
}

// is reports whether name is the role's.
func (r characterLLMRole) is(name string) bool {
	for _, n := range r.names {
		if r.matcher.Compare(name, n) != MatchNone {
			return true
		}
	}
	return false
}

func readCharacterLLMSingle(path string, opts Options, names *NameMatcher, stated map[string]string, st *Stats) ([]data.Utterance, error) {
	text, err := importers.ReadTextFile(path, "")
	if err != nil {
		return nil, err
	}
	b := []byte(text)
	var recs []characterLLMSingle
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, &LineError{File: path, Err: fmt.Errorf("expected a JSON list of {topic_id, question, reply: {role, action, content}}: %w", err)}
	}
	folder := filepath.Base(filepath.Dir(path))
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	source := "character-llm/" + folder
	var out []data.Utterance
	usedConv := map[string]bool{}
	// The replies are the character's: the name most of their pieces
	// carry is the character's name as the records write it.
	var all []characterLLMPiece
	for _, rec := range recs {
		all = append(all, rec.Reply...)
	}
	recRole := mostFrequentRole(all)
	folderRole, folderModel := splitCharacterLLMFolder(folder, recRole)
	r := newCharacterLLMRole(folderRole, names, stated)
	r.add(recRole)
	role := r.display
	for i, rec := range recs {
		st.Records++
		model := firstNonEmpty(opts.AgentModel, folderModel)
		if model == "" {
			return nil, &LineError{File: path, Err: fmt.Errorf("record %d: no model name in the folder name %q (expected <Role>_<model>_result); set the agent model", i+1, folder)}
		}
		text, why := rolePieces(rec.Reply, r, st)
		if text == "" {
			if why != "" {
				st.drop(why)
			}
			continue
		}
		conv := stem + ":" + topicID(rec.TopicID, i)
		if usedConv[conv] {
			conv += "." + strconv.Itoa(i+1) // a topic asked more than once
		}
		usedConv[conv] = true
		if opts.Context {
			if q := collapseSpace(rec.Question); q != "" {
				out = append(out, data.Utterance{Source: source, ConversationID: conv, Turn: 0, Speaker: "User",
					Text: q, AgentModel: model, Role: role})
			}
		}
		out = append(out, data.Utterance{Source: source, ConversationID: conv, Turn: 1, Speaker: role,
			Text: text, AgentModel: model, Role: role})
	}
	return out, nil
}

func readCharacterLLMMulti(path string, opts Options, names *NameMatcher, stated map[string]string, st *Stats) ([]data.Utterance, error) {
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
		cr := newCharacterLLMRole(folderRole, names, stated)
		cr.add(r.Character)
		// The turns marked as the character's: the name most of their
		// pieces carry is the character's as this record writes it.
		var own []characterLLMPiece
		for _, t := range r.Content {
			if strings.EqualFold(strings.TrimSpace(t.TurnRole), "character") || cr.is(t.TurnRole) {
				own = append(own, t.TurnContent...)
			}
		}
		cr.add(mostFrequentRole(own))
		role := cr.display
		model := firstNonEmpty(opts.AgentModel, folderModel, strings.TrimSpace(r.Model))
		if model == "" {
			return fmt.Errorf("no model name in the record or the folder name %q", folder)
		}
		conv := stem + ":L" + strconv.Itoa(n)
		for k, t := range r.Content {
			turnRole := strings.TrimSpace(t.TurnRole)
			isRole := strings.EqualFold(turnRole, "character") || cr.is(turnRole)
			if isRole {
				text, why := rolePieces(t.TurnContent, cr, st)
				if text == "" {
					if why != "" {
						st.drop(why)
					}
					continue
				}
				out = append(out, data.Utterance{Source: source, ConversationID: conv, Scene: r.Topic, Turn: int32(k),
					Speaker: role, Text: text, AgentModel: model, Role: role})
				continue
			}
			if !opts.Context {
				continue
			}
			var parts []string
			speaker := ""
			for _, p := range t.TurnContent {
				if speaker == "" {
					speaker = strings.TrimSpace(p.Role)
				}
				if c := CleanLine(p.Content); c != "" && !isThinking(p.Action) {
					parts = append(parts, c)
				}
			}
			if len(parts) == 0 {
				continue
			}
			if speaker == "" || strings.EqualFold(speaker, "interviewer") {
				speaker = firstNonEmpty(turnRole, "User")
			}
			out = append(out, data.Utterance{Source: source, ConversationID: conv, Scene: r.Topic, Turn: int32(k),
				Speaker: speaker, Text: strings.Join(parts, " "), AgentModel: model, Role: role})
		}
		return nil
	})
	return out, err
}

// rolePieces joins the spoken content of the pieces voiced by role. Pieces
// by someone else count as DropOtherSpeaker and inner monologue as
// DropInnerMonologue, each piece once. When nothing is left it returns ""
// and why: DropOtherSpeaker when no piece was the role's, "action-only"
// when the role's pieces held only actions, "" when the thinking pieces
// were all there was (already counted), "empty" otherwise.
func rolePieces(pieces characterLLMPieces, role characterLLMRole, st *Stats) (string, string) {
	var parts []string
	own, action, thinking := 0, false, false
	for _, p := range pieces {
		if p.Role != "" && !role.is(p.Role) {
			st.drop(DropOtherSpeaker)
			continue
		}
		own++
		if isThinking(p.Action) {
			st.drop(DropInnerMonologue)
			thinking = true
			continue
		}
		if strings.TrimSpace(p.Action) != "" {
			action = true
		}
		if c := CleanLine(p.Content); c != "" {
			parts = append(parts, c)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, " "), ""
	}
	switch {
	case own == 0:
		return "", "" // every piece already counted as another speaker's
	case thinking:
		return "", ""
	case action:
		return "", "action-only"
	}
	return "", "empty"
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
