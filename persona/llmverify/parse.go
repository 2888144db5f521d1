package llmverify

import (
	"regexp"
	"strings"
)

var (
	// answerRe finds an explicit final answer: "Answer: TRUE", "Final
	// answer - **False**", "Verdict: yes".
	answerRe = regexp.MustCompile(`(?i)\b(?:final\s+answer|answer|verdict|conclusion|prediction|label)\b\s*(?:is|would be)?\s*[:：=\-–—]?\s*[*_"'“”‘’\x60(\[]*\s*(true|false|yes|no)\b`)
	// upperRe finds the bare words TRUE and FALSE written in capitals.
	upperRe = regexp.MustCompile(`\b(TRUE|FALSE)\b`)
	// anyRe finds true/false in any case.
	anyRe = regexp.MustCompile(`(?i)\b(true|false)\b`)
	// leadRe finds a reply that starts with yes or no.
	leadRe = regexp.MustCompile(`(?i)^[\s*_"'“(\[]*(yes|no)\b`)
	// Phrases of replies that answer in words.
	differentRe = regexp.MustCompile(`(?i)\b(?:not|n't|unlikely to be)\s+(?:\w+\s+){0,2}(?:the\s+)?same\s+(?:speaker|person|individual|author|character)\b|\bdifferent\s+(?:speakers|people|persons|individuals|authors|characters)\b`)
	sameRe      = regexp.MustCompile(`(?i)\bsame\s+(?:speaker|person|individual|author|character)\b`)
)

// ParseVerdict reads a verifier's reply: same is the verdict and ok is
// false when the reply gives none. In order of trust:
//
//  1. the last explicit answer ("Answer: TRUE", "Final answer: **False**",
//     "Verdict: yes");
//  2. the last TRUE or FALSE written in capitals;
//  3. true or false in any case, when only one of them occurs, or else
//     when only one of them occurs on the reply's last line;
//  4. a reply that starts with "Yes" or "No";
//  5. "different speakers", "not the same person" (false) or "the same
//     speaker" (true) when only one kind of phrase occurs.
//
// So a chain of thought that says "it is true that both use slang" before
// "Answer: FALSE" is read as FALSE.
func ParseVerdict(reply string) (same, ok bool) {
	if m := answerRe.FindAllStringSubmatch(reply, -1); len(m) > 0 {
		return yes(m[len(m)-1][1]), true
	}
	if m := upperRe.FindAllString(reply, -1); len(m) > 0 {
		return m[len(m)-1] == "TRUE", true
	}
	if m := anyRe.FindAllString(reply, -1); len(m) > 0 {
		t, f := 0, 0
		for _, w := range m {
			if yes(w) {
				t++
			} else {
				f++
			}
		}
		switch {
		case f == 0:
			return true, true
		case t == 0:
			return false, true
		}
		if m := anyRe.FindAllString(lastLine(reply), -1); len(m) > 0 {
			v := yes(m[0])
			for _, w := range m[1:] {
				if yes(w) != v {
					return false, false // "true or false?": no verdict
				}
			}
			return v, true
		}
		return false, false
	}
	if m := leadRe.FindStringSubmatch(reply); m != nil {
		return yes(m[1]), true
	}
	d, s := differentRe.MatchString(reply), sameRe.MatchString(differentRe.ReplaceAllString(reply, ""))
	switch {
	case d && !s:
		return false, true
	case s && !d:
		return true, true
	}
	return false, false
}

func yes(w string) bool {
	w = strings.ToLower(w)
	return w == "true" || w == "yes"
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return t
		}
	}
	return ""
}
