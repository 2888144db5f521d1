package main

import (
	"errors"
	"fmt"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/persona/align"
	"github.com/roleprint/roleprint/sv/neural"
)

// alignCheckJSON says what validated the aligned lines.
type alignCheckJSON struct {
	// Model is "mpnet", "lexical" or an encoder name; Encoder the encoder
	// that ran.
	Model           string `json:"model"`
	Encoder         string `json:"encoder"`
	OfflineFallback bool   `json:"offline_fallback"`
	Note            string `json:"note"`
}

// alignFlagJSON is an aligned line below the validation threshold.
type alignFlagJSON struct {
	Index      int      `json:"index"`
	Speaker    string   `json:"speaker"`
	Text       string   `json:"text"`
	Transcript string   `json:"transcript"`
	Similarity float64  `json:"similarity"`
	Start      *float64 `json:"start"`
}

// resolveAlignCheck resolves --check (or --encoder) into the validation
// encoder: mpnet is VoxRole's MPNet from the Hugging Face cache (an error
// naming the setup command when it is not there), lexical the hash-ngram
// check, auto the first when cached, else the second (said on stderr).
func resolveAlignCheck(e *env, check string) (alignCheckJSON, string, error) {
	mpnet := neural.HFScheme + ":" + align.VoxRoleCheckModel
	switch check {
	case "mpnet":
		if _, err := hub.Default().Local(hub.Ref{ID: align.VoxRoleCheckModel, Revision: "main"}); err != nil {
			return alignCheckJSON{}, "", fmt.Errorf("--check mpnet: %w", err)
		}
		return alignCheckJSON{Model: "mpnet", Encoder: mpnet}, mpnet, nil
	case "auto":
		_, err := hub.Default().Local(hub.Ref{ID: align.VoxRoleCheckModel, Revision: "main"})
		if err == nil {
			return alignCheckJSON{Model: "mpnet", Encoder: mpnet}, mpnet, nil
		}
		if !errors.Is(err, hub.ErrNotCached) {
			return alignCheckJSON{}, "", err
		}
		note := fmt.Sprintf("VoxRole's MPNet (%s) is not in the Hugging Face cache: lexical check (offline fallback); fetch it with `%s`",
			align.VoxRoleCheckModel, hub.SetupCommand(align.VoxRoleCheckModel))
		e.Logf("align: %s", note)
		return alignCheckJSON{Model: "lexical", Encoder: "hash-ngram", OfflineFallback: true, Note: note}, "hash-ngram", nil
	case "lexical", "hash-ngram", "":
		return alignCheckJSON{Model: "lexical", Encoder: "hash-ngram", OfflineFallback: true}, "hash-ngram", nil
	}
	return alignCheckJSON{Model: check, Encoder: check}, check, nil
}
