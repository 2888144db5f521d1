package main

import "flag"

// joinedSettings is a repeatable flag of "key=value;key=value" settings:
// each occurrence is appended to *p, joined with ";" in the order given,
// so "--set a=1 --set b=2" is "--set 'a=1;b=2'" and a later key overrides
// an earlier one as within one value. (A plain string flag keeps only the
// last occurrence, silently.)
type joinedSettings struct{ p *string }

func (j joinedSettings) String() string {
	if j.p == nil { // flag.PrintDefaults' zero value
		return ""
	}
	return *j.p
}

func (j joinedSettings) Set(s string) error {
	if *j.p != "" && s != "" {
		*j.p += ";"
	}
	*j.p += s
	return nil
}

// settingsFlag defines a repeatable settings flag (joinedSettings) and
// returns the joined value; usage gets " (repeatable)" added.
func settingsFlag(fs *flag.FlagSet, name, usage string) *string {
	p := new(string)
	fs.Var(joinedSettings{p}, name, usage+" (repeatable)")
	return p
}
