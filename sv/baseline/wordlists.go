package baseline

// Category is one word category of the style vector: a name, what it
// stands for, and its words (lower case, as Tokenize produces them; clitic
// tokens such as "n't" and "'ll" included). Categories may share words,
// as LIWC's do ("since" is both a preposition and a conjunction).
//
// No LIWC dictionary is available (it is proprietary), so these lists were
// written for RolePrint after the categories LIWC and Ireland &
// Pennebaker's Language Style Matching use, with the archaic forms of
// early-modern English added (thou, thee, hath, doth, 'tis) so the
// embedded Shakespeare corpus is measured fairly. They are deliberately
// short closed-class lists: function words, whose rates reflect style
// rather than topic.
type Category struct {
	Name, Describe string
	Words          []string
}

// LSMCategories are the nine function-word categories of Language Style
// Matching (Ireland & Pennebaker 2010; Gonzales et al. 2010), in order.
var LSMCategories = []Category{
	{"ppron", "personal pronouns", concat(iWords, weWords, youWords, sheheWords, theyWords)},
	{"ipron", "impersonal pronouns", []string{
		"it", "its", "itself", "this", "that", "these", "those", "something", "anything",
		"everything", "nothing", "someone", "anyone", "everyone", "somebody", "anybody",
		"everybody", "what", "whatever", "which", "whichever", "whoever", "another", "such",
		"'tis", "'twas", "aught", "naught"}},
	{"article", "articles", []string{"a", "an", "the"}},
	// Bare "cause" is left out: it is mostly the noun or the verb (337
	// times in the Shakespeare corpus: "it is the cause"; "can cause"),
	// while the spoken conjunction is written "'cause".
	{"conj", "conjunctions", []string{
		"and", "but", "or", "nor", "because", "'cause", "cos", "although", "though",
		"whereas", "while", "whilst", "unless", "if", "whether", "so", "yet", "also", "plus",
		"either", "neither", "until", "till", "'til", "once", "whenever", "wherever", "lest",
		"therefore", "however", "otherwise", "thus", "hence"}},
	{"prep", "prepositions", []string{
		"about", "'bout", "above", "across", "after", "against", "along", "amid", "among",
		"around", "'round", "as", "at", "before", "behind", "below", "beneath", "beside",
		"besides", "between", "beyond", "by", "despite", "down", "during", "except", "for",
		"from", "in", "inside", "into", "like", "near", "of", "off", "on", "onto", "out",
		"outside", "over", "o'er", "past", "per", "since", "through", "throughout", "to",
		"toward", "towards", "under", "underneath", "until", "unto", "up", "upon", "via",
		"with", "within", "without", "ere", "'tween", "betwixt"}},
	{"auxverb", "auxiliary verbs", []string{
		"am", "is", "are", "was", "were", "be", "been", "being", "'m", "'re", "'ve", "'d",
		"'ll", "have", "has", "had", "having", "do", "does", "did", "will", "would", "shall",
		"should", "can", "could", "may", "might", "must", "ought", "ai", "wo", "ca", "sha",
		"gonna", "gotta", "wanna", "art", "hast", "hath", "dost", "doth", "didst", "shalt",
		"wilt", "wouldst", "couldst", "shouldst", "canst", "mayst", "wast", "wert"}},
	{"adverb", "common adverbs", []string{
		"very", "really", "so", "just", "too", "quite", "rather", "pretty", "also", "only",
		"even", "still", "already", "always", "often", "sometimes", "usually", "now", "then",
		"here", "there", "again", "ever", "almost", "maybe", "perhaps", "actually", "probably",
		"definitely", "totally", "absolutely", "completely", "well", "soon", "anyway",
		"somehow", "indeed", "truly", "certainly", "exactly", "basically", "literally",
		"seriously", "honestly", "anyhow", "hither", "thither", "hence", "thence", "whence",
		"henceforth", "anon", "forsooth", "ay", "aye"}},
	{"negate", "negations", []string{
		"no", "not", "n't", "never", "nothing", "nobody", "none", "nowhere", "neither", "nor",
		"cannot", "nay", "naught", "nought", "ne'er", "nope", "nah"}},
	{"quant", "quantifiers", []string{
		"all", "any", "some", "many", "much", "more", "most", "few", "fewer", "less", "least",
		"lot", "lots", "several", "every", "each", "both", "enough", "plenty", "half", "whole",
		"entire", "little", "bit", "tons", "couple", "various", "numerous"}},
}

var (
	iWords     = []string{"i", "me", "my", "mine", "myself"}
	weWords    = []string{"we", "us", "our", "ours", "ourselves", "ourself"}
	youWords   = []string{"you", "your", "yours", "yourself", "yourselves", "ya", "y'all", "thou", "thee", "thy", "thine", "thyself", "ye"}
	sheheWords = []string{"he", "him", "his", "himself", "she", "her", "hers", "herself"}
	theyWords  = []string{"they", "them", "their", "theirs", "themselves", "'em"}
)

// ExtraCategories are the other word categories of the style vector:
// LIWC's personal-pronoun subcategories and spoken-language markers.
var ExtraCategories = []Category{
	{"i", "first person singular", iWords},
	{"we", "first person plural", weWords},
	{"you", "second person", youWords},
	{"shehe", "third person singular", sheheWords},
	{"they", "third person plural", theyWords},
	{"interrog", "interrogatives", []string{"what", "where", "when", "why", "how", "who", "whom", "whose", "which", "wherefore"}},
	{"assent", "assent", []string{"yes", "yeah", "yep", "yup", "okay", "ok", "alright", "sure", "aye", "yea", "uh-huh", "mhm", "mm-hmm", "absolutely", "exactly"}},
	{"nonflu", "non-fluencies", []string{"um", "umm", "uh", "uhh", "er", "erm", "hmm", "hm", "mm", "ah", "ahh", "oh", "ooh", "eh", "huh", "whoa", "wow"}},
	{"filler", "fillers", []string{"like", "whatever", "y'know", "kinda", "sorta", "basically", "literally", "anyway", "anyways"}},
	{"social", "address and social words", []string{"hey", "hi", "hello", "please", "thanks", "thank", "sorry", "sir", "madam", "lord", "lady", "man", "dude", "guys", "honey", "sweetie", "pray", "prithee"}},
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// lexicon maps a word to the indices of the categories (in a given list)
// that contain it.
type lexicon map[string][]int

func newLexicon(cats []Category) lexicon {
	lx := lexicon{}
	for ci, c := range cats {
		for _, w := range c.Words {
			if l := lx[w]; len(l) == 0 || l[len(l)-1] != ci {
				lx[w] = append(lx[w], ci)
			}
		}
	}
	return lx
}
