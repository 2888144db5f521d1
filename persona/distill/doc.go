// Package distill builds character personas from scripts the way VoxRole
// does: per chunk of a scene an event summary; per character a
// personality from the events it takes part in; per pair of characters
// that co-occur in at least MinCoEvents events a relationship; per
// character a linguistic style from its own lines; and finally a
// second-person role-play prompt ("You are Sheldon. …").
//
// Two backends do the work behind one interface, registered by name:
//
//   - "extractive" needs no server: keywords by TF-IDF, distinctive words
//     and phrases by log-odds with an informative Dirichlet prior (Monroe
//     et al. 2008), style statistics, and co-occurrence and address
//     counts. Its outputs say that they are extractive.
//   - "llm" asks an OpenAI-compatible model (package llm) for JSON
//     answers, rationale first where the step is a judgement, parses them
//     strictly and asks again on a malformed reply.
//
// Every unit of work (one event, one personality, ...) is stored as its
// own JSON file under OUT/units, keyed by a hash of the backend's
// fingerprint and the unit's input, and written atomically; a rerun
// reuses every unit whose key still matches, so an interrupted run
// resumes where it stopped (and the LLM's own cache makes sure that no
// answer is paid for twice). Aggregates are written as JSON and Parquet
// at the end: events, personalities, relationships, styles, personas, and
// a manifest.
package distill
