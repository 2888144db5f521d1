package importers

import (
	"context"
	"encoding/json"
	"strings"
)

func init() {
	Register("friends-json", &FileFormat{
		Description: "Friends in the emorynlp character-mining schema (friends_season_XX.json and the " +
			"character-identification / emotion-detection splits): season → episodes → scenes → utterances " +
			"{speakers[], transcript}; source \"friends\", one scene = one conversation (ID = scene_id)",
		Extensions: []string{".json"},
		ReadFile:   readFriendsJSON,
	})
}

// emoryFile is the part of the character-mining schema the importer uses.
type emoryFile struct {
	SeasonID *string `json:"season_id"`
	Episodes []struct {
		EpisodeID string `json:"episode_id"`
		Scenes    []struct {
			SceneID    string `json:"scene_id"`
			Utterances []struct {
				UtteranceID string   `json:"utterance_id"`
				Speakers    []string `json:"speakers"`
				Transcript  string   `json:"transcript"`
			} `json:"utterances"`
		} `json:"scenes"`
	} `json:"episodes"`
}

const emoryExpect = `an emorynlp season file {"season_id", "episodes": [{"episode_id", "scenes": [{"scene_id", "utterances": [{"speakers": [...], "transcript"}]}]}]}`

// readFriendsJSON reads one season file. An utterance with several
// speakers is dropped as multiple_speakers (the seed paper's code credits
// it to each of them instead), one with none as no_speaker. Scene IDs are
// globally unique in this schema ("s01_e22_c01"), so a scene present in two
// files (the character-identification and emotion-detection splits
// overlap) is read once. Lines are located by utterance number within the
// file, since JSON has no useful line numbers after decoding.
func readFriendsJSON(_ context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	doc, err := readText(path, enc, emoryExpect)
	if err != nil {
		return err
	}
	var f emoryFile
	if err := json.Unmarshal([]byte(doc), &f); err != nil {
		return jsonError(path, []byte(doc), err, emoryExpect)
	}
	if f.SeasonID == nil || f.Episodes == nil {
		return Errorf(Pos{File: path, Line: 1}, "missing \"season_id\" or \"episodes\"; expected %s", emoryExpect)
	}
	source := opts.SourceOr("friends")
	// Locate utterances by the line of their ID in the document.
	search, line := 0, 1
	for _, ep := range f.Episodes {
		for _, sc := range ep.Scenes {
			if sc.SceneID == "" {
				return Errorf(Pos{File: path}, "episode %q has a scene without \"scene_id\"; expected %s", ep.EpisodeID, emoryExpect)
			}
			for _, u := range sc.Utterances {
				pos := Pos{File: path}
				if u.UtteranceID != "" {
					if i := strings.Index(doc[search:], `"`+u.UtteranceID+`"`); i >= 0 {
						line += strings.Count(doc[search:search+i], "\n")
						search += i
						pos.Line = line
					}
				}
				l := Line{Source: source, ConversationID: sc.SceneID, Episode: ep.EpisodeID, Pos: pos, Text: u.Transcript}
				switch len(u.Speakers) {
				case 0:
					c.Drop(l, DropNoSpeaker)
				case 1:
					l.Speaker = u.Speakers[0]
					c.Add(l)
				default:
					c.Drop(l, DropMultipleSpeakers)
				}
			}
		}
	}
	return nil
}
