package distill

// Event is what happens in one chunk of a scene.
type Event struct {
	// ID is the chunk id ("scene#k").
	ID string `json:"id"`
	// SceneID, Episode and Heading locate the chunk.
	SceneID string `json:"scene_id"`
	Episode string `json:"episode,omitempty"`
	Heading string `json:"heading,omitempty"`
	// Characters are the selected characters taking part (speakers, plus
	// participants an LLM names), in order of first appearance.
	Characters []string `json:"characters"`
	// Speakers are all speakers of the chunk.
	Speakers []string `json:"speakers"`
	// Summary is a short account of the event.
	Summary string `json:"summary"`
	// Keywords are the chunk's most salient words.
	Keywords []string `json:"keywords,omitempty"`
	// Backend names the backend that produced it.
	Backend string `json:"backend"`
}

// Personality describes one character.
type Personality struct {
	Character string `json:"character"`
	// Traits are personality adjectives (LLM backend only).
	Traits []string `json:"traits,omitempty"`
	// Keywords are the character's most distinctive words.
	Keywords []string `json:"keywords,omitempty"`
	// Topics are the most frequent keywords of the character's events.
	Topics []string `json:"topics,omitempty"`
	// Rationale is the LLM's reasoning before its answer.
	Rationale string `json:"rationale,omitempty"`
	// Description is a paragraph about the character.
	Description string `json:"description"`
	// Lines, Events and Scenes count the character's material.
	Lines  int `json:"lines"`
	Events int `json:"events"`
	Scenes int `json:"scenes"`
	// Backend names the backend that produced it.
	Backend string `json:"backend"`
}

// Relationship describes a pair of characters (A < B by name).
type Relationship struct {
	A string `json:"a"`
	B string `json:"b"`
	// CoEvents counts the events both take part in.
	CoEvents int `json:"co_events"`
	// AAddressesB counts A's lines in shared events that name B, and
	// BAddressesA the reverse.
	AAddressesB int `json:"a_addresses_b"`
	BAddressesA int `json:"b_addresses_a"`
	// Replies counts adjacent turns between them (A then B or B then A).
	Replies int `json:"replies"`
	// SharedTopics are the most frequent keywords of shared events.
	SharedTopics []string `json:"shared_topics,omitempty"`
	// Sentiment is positive, negative, mixed or neutral (LLM backend).
	Sentiment string `json:"sentiment,omitempty"`
	// Rationale is the LLM's reasoning before its answer.
	Rationale string `json:"rationale,omitempty"`
	// Description is a paragraph about the relationship.
	Description string `json:"description"`
	// Backend names the backend that produced it.
	Backend string `json:"backend"`
}

// Style is a character's linguistic style.
type Style struct {
	Character string `json:"character"`
	// Stats are measured on the character's own lines.
	Stats StyleStats `json:"stats"`
	// Phrases are distinctive recurring 2–3-word phrases.
	Phrases []string `json:"phrases,omitempty"`
	// Catchphrases are short lines the character repeats.
	Catchphrases []string `json:"catchphrases,omitempty"`
	// Openers are the commonest first words of lines.
	Openers []string `json:"openers,omitempty"`
	// Description is a paragraph about how the character speaks.
	Description string `json:"description"`
	// Backend names the backend that produced it.
	Backend string `json:"backend"`
}

// StyleStats are style statistics of a set of lines.
type StyleStats struct {
	Lines int `json:"lines"`
	Words int `json:"words"`
	// MeanWords is the mean words per line.
	MeanWords float64 `json:"mean_words"`
	// QuestionRate, ExclamationRate and EllipsisRate are the shares of
	// lines containing "?", "!" and "..."/"…".
	QuestionRate    float64 `json:"question_rate"`
	ExclamationRate float64 `json:"exclamation_rate"`
	EllipsisRate    float64 `json:"ellipsis_rate"`
	// MATTR is the moving-average type-token ratio over 100-word windows
	// (length-independent vocabulary richness; plain TTR when shorter).
	MATTR float64 `json:"mattr"`
	// MeanWordLength is in letters.
	MeanWordLength float64 `json:"mean_word_length"`
	// FirstPerson and SecondPerson are the shares of words that are
	// first-person (I, me, my, ...) and second-person (you, your, ...)
	// pronouns.
	FirstPerson  float64 `json:"first_person"`
	SecondPerson float64 `json:"second_person"`
}

// Persona is the final product for one character.
type Persona struct {
	Character string `json:"character"`
	// Prompt is the second-person role-play prompt.
	Prompt string `json:"prompt"`
	// Extractive is true when no language model wrote the prompt.
	Extractive bool `json:"extractive"`
	// Backend names the backend that produced it.
	Backend string `json:"backend"`
}

// Profile is everything known about a character when its prompt is
// written.
type Profile struct {
	Personality   Personality    `json:"personality"`
	Style         Style          `json:"style"`
	Relationships []Relationship `json:"relationships"`
	// Events are a few of the character's events, for grounding.
	Events []Event `json:"events"`
	// Acoustic is the character's acoustic profile, VoxRole's fourth
	// profile dimension: the speech package's tag line (pitch, energy and
	// speaking rate binned Low/Medium/High) from Config.Acoustic; empty
	// when the character has none. Both backends put it into the prompt.
	Acoustic string `json:"acoustic,omitempty"`
}
