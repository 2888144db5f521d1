package options

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
)

// Key is one setting of an options struct.
type Key struct {
	// Name is the setting's key ("lr", "max_features").
	Name string `json:"key"`
	// Type is the expected value's type ("int", "float64", "bool",
	// "string", "duration", "[]string").
	Type string `json:"type"`
	// Default is the field's value in the struct Keys was given (the
	// component's Default…()), formatted as a setting value.
	Default string `json:"default"`
	// Doc is the field's doc comment (from Document; "" when none).
	Doc string `json:"doc"`
	// Field is the Go field path ("Train.LearningRate").
	Field string `json:"field"`

	index []int
}

// Parse splits "k=v;k2=v2" (also comma-separated) into a map. Blank items
// are skipped; an item without "=" or with an empty key is an error naming
// it.
func Parse(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' }) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("setting %q: expected key=value", item)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// Keys lists the settings of the struct v (a struct or a pointer to one)
// in field order, with their current values as defaults.
func Keys(v any) []Key {
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return nil
	}
	var out []Key
	walk(rv, nil, "", &out)
	return out
}

// Names returns the keys of v, sorted.
func Names(v any) []string {
	ks := Keys(v)
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name
	}
	sort.Strings(out)
	return out
}

// Has reports whether v has the setting key.
func Has(v any, key string) bool {
	for _, k := range Keys(v) {
		if k.Name == key {
			return true
		}
	}
	return false
}

var durationType = reflect.TypeFor[time.Duration]()

func walk(v reflect.Value, index []int, prefix string, out *[]Key) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		name, squash := tagName(f)
		if name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct && f.Type != durationType && (squash || (f.Anonymous && name == "")) {
			walk(v.Field(i), idx, prefix+f.Name+".", out)
			continue
		}
		if name == "" {
			continue
		}
		typ, ok := typeName(f.Type)
		if !ok {
			continue
		}
		*out = append(*out, Key{Name: name, Type: typ, Default: Format(v.Field(i).Interface()),
			Doc: docFor(t, f.Name), Field: prefix + f.Name, index: idx})
	}
}

// tagName returns the field's key from its opt tag, else its json tag,
// and whether the opt tag asks to squash a struct.
func tagName(f reflect.StructField) (string, bool) {
	if tag, ok := f.Tag.Lookup("opt"); ok {
		name, rest, _ := strings.Cut(tag, ",")
		return name, rest == "squash"
	}
	if tag, ok := f.Tag.Lookup("json"); ok {
		name, _, _ := strings.Cut(tag, ",")
		return name, false
	}
	return "", false
}

// typeName names a settable type, or reports that t is not one.
func typeName(t reflect.Type) (string, bool) {
	if t == durationType {
		return "duration", true
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return t.Kind().String(), true
	case reflect.Slice:
		if e, ok := typeName(t.Elem()); ok && t.Elem().Kind() != reflect.Slice {
			return "[]" + e, true
		}
	}
	return "", false
}

// Format writes a value the way a setting would give it: slices joined by
// "|", durations as time.Duration.String, floats in the shortest form.
func Format(x any) string {
	rv := reflect.ValueOf(x)
	if rv.Kind() == reflect.Slice {
		items := make([]string, rv.Len())
		for i := range items {
			items[i] = Format(rv.Index(i).Interface())
		}
		return strings.Join(items, "|")
	}
	if d, ok := x.(time.Duration); ok {
		return d.String()
	}
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		return fmt.Sprintf("%g", rv.Float())
	}
	return fmt.Sprint(x)
}

// Apply sets the fields of *dst named by kv. An unknown key is an error
// naming it and listing the valid keys; a value that does not convert is an
// error naming the key, the value and the expected type. Keys are applied
// in sorted order; dst is unchanged where a key fails, but earlier keys
// stay applied.
func Apply(dst any, kv map[string]string) error {
	unknown, err := apply(dst, kv)
	if err != nil {
		return err
	}
	if len(unknown) > 0 {
		return fmt.Errorf("unknown setting %q (valid: %s)", unknown[0], strings.Join(Names(dst), ", "))
	}
	return nil
}

// ApplyKnown is Apply that skips keys dst does not have and returns them,
// sorted (for settings meant for several components at once).
func ApplyKnown(dst any, kv map[string]string) (unknown []string, err error) {
	return apply(dst, kv)
}

// ApplyString is Apply of Parse(s).
func ApplyString(dst any, s string) error {
	kv, err := Parse(s)
	if err != nil {
		return err
	}
	return Apply(dst, kv)
}

func apply(dst any, kv map[string]string) ([]string, error) {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("options: %T is not a pointer to a struct", dst)
	}
	byName := map[string]Key{}
	for _, k := range Keys(dst) {
		byName[k.Name] = k
	}
	names := make([]string, 0, len(kv))
	for k := range kv {
		names = append(names, k)
	}
	sort.Strings(names)
	var unknown []string
	for _, name := range names {
		k, ok := byName[name]
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		f := rv.Elem().FieldByIndex(k.index)
		if err := decode(kv[name], f); err != nil {
			return unknown, fmt.Errorf("setting %s=%q: expected %s", name, kv[name], expected(k.Type))
		}
	}
	return unknown, nil
}

// decode converts s into the field f with mapstructure (into a fresh value,
// so that a failure leaves f as it was).
func decode(s string, f reflect.Value) error {
	tmp := reflect.New(f.Type())
	var in any = strings.TrimSpace(s)
	if f.Kind() == reflect.Slice {
		// Items are separated by "|" (";" and "," separate settings);
		// mapstructure then converts each item.
		items := []string{}
		for _, it := range strings.Split(strings.TrimSpace(s), "|") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, it)
			}
		}
		in = items
	}
	d, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		WeaklyTypedInput: true,
		DecodeHook:       mapstructure.StringToTimeDurationHookFunc(),
		Result:           tmp.Interface(),
	})
	if err != nil {
		return err
	}
	if err := d.Decode(in); err != nil {
		return err
	}
	f.Set(tmp.Elem())
	return nil
}

// expected says in words what a value of type t looks like.
func expected(t string) string {
	switch {
	case t == "bool":
		return "true or false"
	case t == "duration":
		return `a duration ("90s", "2m")`
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "an integer (" + t + ")"
	case strings.HasPrefix(t, "float"):
		return "a number (" + t + ")"
	case strings.HasPrefix(t, "[]"):
		return "a list of " + strings.TrimPrefix(t, "[]") + ` separated by "|"`
	}
	return "a " + t
}
