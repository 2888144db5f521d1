package stats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// MarshalStruct encodes a struct as a JSON object with its fields in
// declaration order (json tags give the keys; "-" and unexported fields are
// skipped), writing its plain float32/float64 fields as Float does (NaN and
// ±Inf as null): encoding/json refuses them, and "undefined" (no voiced
// frame) is a normal outcome for a speech feature. It lets a struct keep
// float64 fields for arithmetic and still marshal like Float; a type uses
// it from its MarshalJSON method. Embedded structs are written as one
// field, not flattened.
func MarshalStruct(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, fmt.Errorf("MarshalStruct: %T is not a struct", v)
	}
	rt := rv.Type()
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fv := rv.Field(i)
		if strings.Contains(opts, "omitempty") && fv.IsZero() {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		key, _ := json.Marshal(name)
		buf.Write(key)
		buf.WriteByte(':')
		if fv.Kind() == reflect.Float64 || fv.Kind() == reflect.Float32 {
			buf.Write(appendJSON(nil, fv.Float(), fv.Type().Bits()))
			continue
		}
		b, err := json.Marshal(fv.Interface())
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", sf.Name, err)
		}
		buf.Write(b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalStruct decodes a JSON object into the struct v points to,
// reading null (what MarshalStruct writes for NaN) back as NaN for
// plain float fields, as Float does; other fields decode as encoding/json
// does.
func UnmarshalStruct(data []byte, v any) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("UnmarshalStruct: %T is not a pointer to a struct", v)
	}
	rv = rv.Elem()
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		sf := rt.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		msg, ok := raw[name]
		if !ok {
			continue
		}
		fv := rv.Field(i)
		if (fv.Kind() == reflect.Float64 || fv.Kind() == reflect.Float32) && string(bytes.TrimSpace(msg)) == "null" {
			fv.SetFloat(math.NaN())
			continue
		}
		if err := json.Unmarshal(msg, fv.Addr().Interface()); err != nil {
			return fmt.Errorf("field %s: %w", name, err)
		}
	}
	return nil
}
