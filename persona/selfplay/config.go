package selfplay

// Config configures a self-play or interview run. DefaultConfig gives the
// documented defaults.
type Config struct {
	// AgentModel is written as every row's agent_model; empty means the
	// client's model name.
	AgentModel string `json:"agent_model"`
	// Source is every row's source. Default "selfplay" ("interview" in
	// interview mode).
	Source string `json:"source"`
	// Greeting opens every scene, as a line of speaker "User" that the
	// first role answers. Default "Hello!" (the paper's "generic
	// greeting").
	Greeting string `json:"greeting"`
	// EndMarker is the text a reply appends to end the conversation
	// naturally; the system prompt asks for it. Default "[END]".
	EndMarker string `json:"end_marker"`
	// MaxTurns bounds the generated turns of a scene (the greeting not
	// counted). Default 12.
	MaxTurns int `json:"max_turns"`
	// MinTurns is the fewest turns before an end marker is honoured
	// (earlier, the marker is removed and the scene goes on). Default 2.
	MinTurns int `json:"min_turns"`
	// Pairs chooses which roles meet. Default PairsAll.
	Pairs Pairing `json:"pairs"`
	// SceneSize is the number of roles in a scene; they speak in turn.
	// Default 2 (the paper's pairs).
	SceneSize int `json:"scene_size"`
	// PerPair is the number of conversations per pair of roles, the two
	// roles taking turns to open. Default 1.
	PerPair int `json:"per_pair"`
	// Seed is the first scene's sampling seed (scene i gets Seed+i), sent
	// as the request's seed. Default 1.
	Seed int64 `json:"seed"`
	// Temperature, TopP and MaxTokens are sent with every request
	// (TopP and MaxTokens only when > 0). Defaults 0.7, 0 (server's),
	// 256.
	Temperature float64 `json:"temperature"`
	TopP        float64 `json:"top_p"`
	MaxTokens   int     `json:"max_tokens"`
	// SceneTemplate is appended to each role's persona prompt in
	// self-play; %[1]s is the speaker, %[2]s the other roles, %[3]s the
	// end marker. Default DefaultSceneTemplate.
	SceneTemplate string `json:"scene_template"`
	// InterviewTemplate is appended to the persona prompt in interview
	// mode; %[1]s is the role. Default DefaultInterviewTemplate.
	InterviewTemplate string `json:"interview_template"`
	// Concurrency is the number of scenes (or questions) generated at
	// once. Default 4.
	Concurrency int `json:"concurrency"`
	// RPS bounds the requests started per second (0: no bound).
	RPS float64 `json:"rps"`
}

// DefaultSceneTemplate is the self-play instruction added to a persona.
const DefaultSceneTemplate = `You are in a conversation with %[2]s. Stay in character as %[1]s. Reply with %[1]s's next line only: what %[1]s says, without your name, quotation marks or stage directions. When the conversation has come to a natural end, finish your last line with %[3]s.`

// DefaultInterviewTemplate is the interview instruction added to a
// persona.
const DefaultInterviewTemplate = `Stay in character as %[1]s and answer the question as %[1]s would, in %[1]s's own words, without your name or stage directions.`

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Greeting:          "Hello!",
		EndMarker:         "[END]",
		MaxTurns:          12,
		MinTurns:          2,
		Pairs:             PairsAll,
		PerPair:           1,
		SceneSize:         2,
		Seed:              1,
		Temperature:       0.7,
		MaxTokens:         256,
		SceneTemplate:     DefaultSceneTemplate,
		InterviewTemplate: DefaultInterviewTemplate,
		Concurrency:       4,
	}
}

// fill sets zero fields to defaults.
func (c *Config) fill(interview bool) {
	d := DefaultConfig()
	if c.Source == "" {
		c.Source = "selfplay"
		if interview {
			c.Source = "interview"
		}
	}
	if c.Greeting == "" {
		c.Greeting = d.Greeting
	}
	if c.EndMarker == "" {
		c.EndMarker = d.EndMarker
	}
	if c.MaxTurns <= 0 {
		c.MaxTurns = d.MaxTurns
	}
	if c.MinTurns < 1 {
		c.MinTurns = 1
	}
	if c.Pairs == "" {
		c.Pairs = d.Pairs
	}
	if c.PerPair < 1 {
		c.PerPair = 1
	}
	if c.SceneSize < 2 {
		c.SceneSize = 2
	}
	if c.SceneTemplate == "" {
		c.SceneTemplate = d.SceneTemplate
	}
	if c.InterviewTemplate == "" {
		c.InterviewTemplate = d.InterviewTemplate
	}
	if c.Concurrency < 1 {
		c.Concurrency = d.Concurrency
	}
}
