package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"

	"github.com/roleprint/roleprint/data"
)

// Fingerprint returns the hex SHA-256 of the utterances' content, field by
// field in order: two corpora have the same fingerprint exactly when they
// hold the same rows in the same order, however the Parquet files that
// store them are compressed or cut into row groups.
func Fingerprint(utts []data.Utterance) string {
	h := sha256.New()
	var buf [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(s)))
		h.Write(buf[:])
		h.Write([]byte(s))
	}
	num := func(p *float64) {
		if p == nil {
			h.Write([]byte{0})
			return
		}
		h.Write([]byte{1})
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(*p))
		h.Write(buf[:])
	}
	for i := range utts {
		u := &utts[i]
		str(u.Source)
		str(u.ConversationID)
		str(u.Episode)
		str(u.Scene)
		binary.LittleEndian.PutUint64(buf[:], uint64(u.Turn))
		h.Write(buf[:])
		str(u.Speaker)
		str(u.Text)
		num(u.StartS)
		num(u.EndS)
		str(u.AudioPath)
		str(u.AgentModel)
		str(u.Role)
	}
	return hex.EncodeToString(h.Sum(nil))
}
