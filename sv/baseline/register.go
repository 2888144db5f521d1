package baseline

import (
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// Names of the encoders this package registers.
const (
	NameStyle    = "liwc"
	NameLSM      = "lsm"
	NamePOS      = "pos"
	NameGloVe    = "glove"
	NameGloVeSIF = "glove-sif"
	NameTFIDF    = "tfidf"
)

func init() {
	sv.RegisterEncoder(NameStyle, func(sv.EncoderOptions) (sv.Encoder, error) { return NewStyle(), nil })
	sv.RegisterEncoder(NameLSM, func(sv.EncoderOptions) (sv.Encoder, error) { return NewLSM(), nil })
	sv.RegisterEncoder(NamePOS, func(sv.EncoderOptions) (sv.Encoder, error) { return NewPOS(), nil })
	for _, sif := range []bool{false, true} {
		name := NameGloVe
		if sif {
			name = NameGloVeSIF
		}
		sv.RegisterEncoder(name, func(o sv.EncoderOptions) (sv.Encoder, error) {
			opts, err := GloVeOptionsFrom(o, sif)
			if err != nil {
				return nil, err
			}
			return NewGloVe(opts)
		})
		sv.RegisterOptions(name, func(o sv.EncoderOptions) (any, error) { return GloVeOptionsFrom(o, sif) })
	}
	sv.RegisterEncoder(NameTFIDF, func(o sv.EncoderOptions) (sv.Encoder, error) {
		opts, err := TFIDFOptionsFrom(o)
		if err != nil {
			return nil, err
		}
		return NewTFIDF(opts)
	})
	sv.RegisterOptions(NameTFIDF, func(o sv.EncoderOptions) (any, error) { return TFIDFOptionsFrom(o) })
}

// GloVeOptionsFrom resolves the "glove" (sif false) or "glove-sif" options:
// DefaultGloVeOptions with o.Settings applied (keys: `roleprint config
// glove-sif`), and the cache's GloVe when no "vectors" file is set.
func GloVeOptionsFrom(o sv.EncoderOptions, sif bool) (GloVeOptions, error) {
	opts := DefaultGloVeOptions(sif)
	if err := options.Apply(&opts, o.Settings); err != nil {
		return opts, err
	}
	if opts.Path == "" && o.CacheDir != "" {
		p, err := GloVePath(o.CacheDir)
		if err != nil {
			return opts, err
		}
		opts.Path = p
	}
	return opts, nil
}

// TFIDFOptionsFrom resolves the "tfidf" options: DefaultTFIDFOptions with
// o.Settings applied (keys: `roleprint config tfidf`), validated.
func TFIDFOptionsFrom(o sv.EncoderOptions) (TFIDFOptions, error) {
	opts := DefaultTFIDFOptions()
	if err := options.Apply(&opts, o.Settings); err != nil {
		return opts, err
	}
	return opts, opts.Validate()
}
