package data

import (
	"fmt"
	"strings"
)

// Utterance is one turn of a conversation: who said what, where. It is the
// single row type of every corpus file RolePrint writes (see WriteUtterances)
// and the input of the pair builder.
//
// Real transcripts leave AgentModel empty; generated (role-play) data records
// the model that produced the line in AgentModel and the role it played in
// Role, so real and generated rows can live in one file.
type Utterance struct {
	// Source names the corpus or work the line comes from ("friends",
	// "tbbt", "shakespeare/hamlet"). The Hard level pairs sets of one source.
	Source string `parquet:"source,dict,zstd" json:"source"`
	// ConversationID identifies the conversation (a scene, a session)
	// uniquely within Source. The Harder level pairs speakers of one
	// conversation.
	ConversationID string `parquet:"conversation_id,dict,zstd" json:"conversation_id"`
	// Episode is optional episode metadata ("s01e03", an act, a movie title).
	Episode string `parquet:"episode,dict,zstd" json:"episode,omitempty"`
	// Scene is optional scene metadata (a scene heading or number).
	Scene string `parquet:"scene,dict,zstd" json:"scene,omitempty"`
	// Turn is the 0-based position of the line within its conversation.
	Turn int32 `parquet:"turn,delta" json:"turn"`
	// Speaker is the normalised speaker name (see NormalizeSpeaker).
	Speaker string `parquet:"speaker,dict,zstd" json:"speaker"`
	// Text is the spoken text with stage directions removed.
	Text string `parquet:"text,zstd" json:"text"`
	// StartS and EndS are the line's start and end in seconds within
	// AudioPath, when known.
	StartS *float64 `parquet:"start_s,optional" json:"start_s,omitempty"`
	EndS   *float64 `parquet:"end_s,optional" json:"end_s,omitempty"`
	// AudioPath is the path of the line's audio, when there is audio.
	AudioPath string `parquet:"audio_path,optional,dict,zstd" json:"audio_path,omitempty"`
	// AgentModel is the model that generated the line; empty for real data.
	AgentModel string `parquet:"agent_model,optional,dict,zstd" json:"agent_model,omitempty"`
	// Role is the character an agent was asked to play; empty for real data.
	Role string `parquet:"role,optional,dict,zstd" json:"role,omitempty"`
}

// Generated reports whether the utterance was produced by an agent.
func (u *Utterance) Generated() bool { return u.AgentModel != "" }

// Validate checks the fields every row must have: a source, a conversation,
// a speaker and non-blank text, and a time span that is not reversed.
func (u *Utterance) Validate() error {
	switch {
	case u.Source == "":
		return fmt.Errorf("missing source")
	case u.ConversationID == "":
		return fmt.Errorf("missing conversation_id")
	case u.Speaker == "":
		return fmt.Errorf("missing speaker")
	case strings.TrimSpace(u.Text) == "":
		return fmt.Errorf("empty text")
	case u.Turn < 0:
		return fmt.Errorf("negative turn %d", u.Turn)
	case u.StartS != nil && u.EndS != nil && *u.EndS < *u.StartS:
		return fmt.Errorf("end_s %.3f before start_s %.3f", *u.EndS, *u.StartS)
	}
	return nil
}
