package llmverify

import (
	"embed"
	"text/template"

	"github.com/roleprint/roleprint/llm"
)

//go:embed prompts/*.tmpl
var embeddedPrompts embed.FS

// The prompt template files; a --prompts folder may replace any of them.
const (
	// TemplateSystem is the system message of every request.
	TemplateSystem = "system.tmpl"
	// TemplateUtterances is the question of the Utterances view; its data
	// has .Sets, the two lists of utterances (each on one line).
	TemplateUtterances = "question-utterances.tmpl"
	// TemplateConversation is the question of the Conversation view; its
	// data has .Conversations, the two conversations rendered one
	// "[Speaker 1]: …" / "[Other A]: …" line per turn.
	TemplateConversation = "question-conversation.tmpl"
	// TemplateInstruction follows the question in zero-shot and K-shot
	// prompts (and in their demonstrations).
	TemplateInstruction = "instruction.tmpl"
	// TemplateInstructionCoT follows the question in chain-of-thought
	// prompts; it ends with the paper's cue, "Let's analyse step by step:".
	TemplateInstructionCoT = "instruction-cot.tmpl"
)

// TemplateNames lists every prompt template file, in a fixed order.
var TemplateNames = []string{TemplateSystem, TemplateUtterances, TemplateConversation, TemplateInstruction, TemplateInstructionCoT}

// Templates are the prompt templates of a run (the function inc adds
// one, for 1-based numbering).
type Templates = llm.Prompts

// DefaultTemplates returns the embedded templates (prompts/*.tmpl). Their
// wording is RolePrint's, after the paper's Table 1 options: the
// chain-of-thought cue "Let's analyse step by step:" and the TRUE/FALSE
// answer are the paper's; its appendix's full prompts were not available
// when they were written, so replace them with --prompts DIR to use
// other wording.
func DefaultTemplates() (*Templates, error) {
	return llm.LoadPrompts(embeddedPrompts, "prompts", TemplateNames, "", templateFuncs)
}

// LoadTemplates returns the templates of dir: every file of TemplateNames
// found there replaces the embedded one, the others stay embedded. A file
// in dir ending in .tmpl that is not one of TemplateNames is an error (a
// misspelt name would otherwise be silently ignored).
func LoadTemplates(dir string) (*Templates, error) {
	return llm.LoadPrompts(embeddedPrompts, "prompts", TemplateNames, dir, templateFuncs)
}

var templateFuncs = template.FuncMap{"inc": func(i int) int { return i + 1 }}
