package data

import (
	"encoding/json"
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/roleprint/roleprint/internal/fsx"
)

// ImportInfoKey is the Parquet key-value metadata key under which a corpus
// file records how it was imported (ImportInfo, as JSON).
const ImportInfoKey = "roleprint.import"

// ImportInfo says how a corpus file was made from transcripts: the format,
// the settings and columns the import was given, and the rule that cut the
// transcripts into conversations when a setting chose it. `roleprint
// import` writes it into the corpus file's footer and `roleprint stats`
// shows it, so a corpus whose conversations are pseudo-scenes (windows of
// lines) says so wherever it goes.
type ImportInfo struct {
	// Format is the importer's format name ("lines").
	Format string `json:"format"`
	// Settings are the format settings given (import --set, --scenes,
	// --scene-lines), as written.
	Settings map[string]string `json:"settings,omitempty"`
	// Columns is the lines format's field → column map (--map), when given.
	Columns map[string]string `json:"columns,omitempty"`
	// ConversationRule says in words what a conversation of the file is,
	// for formats whose settings choose it (the lines format); empty
	// when the format's own documented unit applies.
	ConversationRule string `json:"conversation_rule,omitempty"`
	// SceneLines is the window length, in utterances, when conversations
	// were cut into consecutive windows (ids end in "#wK"); 0 otherwise.
	SceneLines int `json:"scene_lines,omitempty"`
}

// WriteUtterancesInfo writes utterances as WriteUtterances does, recording
// info in the file's key-value metadata (ImportInfoKey) when it is not nil.
func WriteUtterancesInfo(path string, utts []Utterance, info *ImportInfo) error {
	if info == nil {
		return WriteUtterances(path, utts)
	}
	b, err := json.Marshal(info)
	if err != nil {
		return fmt.Errorf("write %s: import info: %w", path, err)
	}
	for i := range utts {
		if err := utts[i].Validate(); err != nil {
			return fmt.Errorf("write %s: row %d: %w", path, i, err)
		}
	}
	return WriteParquet(path, utts, parquet.KeyValueMetadata(ImportInfoKey, string(b)))
}

// ReadImportInfo returns the import record of a corpus file, or nil when
// the file has none (written by another tool, or by a writer that does not
// record one). A record that is not valid JSON is an error naming the file.
func ReadImportInfo(path string) (*ImportInfo, error) {
	f, _, err := fsx.OpenRegular(path, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("read %s: empty file, expected a Parquet file", path)
	}
	pf, err := openParquetGuarded(path, f, st.Size())
	if err != nil {
		return nil, err
	}
	v, ok := pf.Lookup(ImportInfoKey)
	if !ok {
		return nil, nil
	}
	var info ImportInfo
	if err := json.Unmarshal([]byte(v), &info); err != nil {
		return nil, fmt.Errorf("read %s: metadata %s: %w", path, ImportInfoKey, err)
	}
	return &info, nil
}
