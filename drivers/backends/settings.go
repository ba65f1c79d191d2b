package backends

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// A backend's own settings live in its package (Backend.Config), not in a
// field of Spec: a Spec holds them in a map by ConfigKey, each entry a
// pointer to the backend's config type. The map is never changed once a
// Spec holds it (Update and UnmarshalJSON put a new one in place), so
// copies of a Spec, which share it, never see each other's changes.

// configKeys and configTypes index the registered configs both ways.
var (
	configKeys  = map[reflect.Type]string{}
	configTypes = map[string]reflect.Type{}
)

func registerConfig(b Backend) {
	t := reflect.TypeOf(b.Config())
	switch {
	case t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct:
		panic(fmt.Sprintf("backends: %s: Config returns %v, want a pointer to a struct", b.Name, t))
	case b.ConfigKey == "" || slices.Contains(specKeys(), b.ConfigKey):
		panic(fmt.Sprintf("backends: %s: ConfigKey %q is empty or one of Spec's own keys", b.Name, b.ConfigKey))
	case configTypes[b.ConfigKey] != nil:
		panic(fmt.Sprintf("backends: %s: ConfigKey %q registered twice", b.Name, b.ConfigKey))
	case configKeys[t.Elem()] != "":
		panic(fmt.Sprintf("backends: %s: config type %v registered twice", b.Name, t.Elem()))
	}
	configKeys[t.Elem()], configTypes[b.ConfigKey] = b.ConfigKey, t.Elem()
}

// keyOf is the ConfigKey of the backend whose config type is T.
func keyOf[T any]() string {
	t := reflect.TypeFor[T]()
	key, ok := configKeys[t]
	if !ok {
		panic(fmt.Sprintf("backends: %v is no registered backend's config", t))
	}
	return key
}

// Settings is the settings of type T that s holds for the backend whose
// Config T is: a copy, so changing it changes no Spec. A Spec that holds
// none (one not built by DefaultSpec) gives T's zero value.
func Settings[T any](s Spec) T {
	if p, ok := s.settings[keyOf[T]()].(*T); ok {
		return *p
	}
	var zero T
	return zero
}

// Update changes the settings of type T that s holds (from T's zero value
// if it holds none) by change. Copies of s made before keep their own.
func Update[T any](s *Spec, change func(*T)) {
	v := Settings[T](*s)
	change(&v)
	m := maps.Clone(s.settings)
	if m == nil {
		m = map[string]any{}
	}
	m[keyOf[T]()] = &v
	s.settings = m
}

// FlagGroups are every registered backend's settings in s, by ConfigKey,
// for internal/flagtag to bind their fields' flags as groups of the
// Spec's; settings s does not hold are bound at their zero value, as a
// field of a zero struct is. The flags write into settings of this Spec
// alone: copies made before do not see them.
func (s *Spec) FlagGroups() map[string]any {
	own := make(map[string]any, len(configTypes))
	for key, t := range configTypes {
		p := reflect.New(t)
		if old, ok := s.settings[key]; ok {
			p.Elem().Set(reflect.ValueOf(old).Elem())
		}
		own[key] = p.Interface()
	}
	s.settings = own
	return maps.Clone(own)
}

// specFields is Spec without its JSON methods: its own fields' encoding.
type specFields Spec

// specKeys are the JSON keys of Spec's own fields.
func specKeys() []string {
	var keys []string
	t := reflect.TypeFor[specFields]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "-" && t.Field(i).IsExported() {
			keys = append(keys, name)
		}
	}
	return keys
}

// MarshalJSON writes Spec's own fields, then each backend's settings the
// Spec holds under its ConfigKey, sorted by key.
func (s Spec) MarshalJSON() ([]byte, error) {
	own, err := json.Marshal(specFields(s))
	if err != nil || len(s.settings) == 0 {
		return own, err
	}
	b := bytes.NewBuffer(own[:len(own)-1]) // without its closing brace
	for _, key := range slices.Sorted(maps.Keys(s.settings)) {
		v, err := json.Marshal(s.settings[key])
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(b, ",%q:", key)
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads Spec's own fields and, under each registered
// backend's ConfigKey present, its settings, decoded over those s holds
// (as encoding/json decodes into a struct). A key no registered backend
// has is ignored, as an unknown field is.
func (s *Spec) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, (*specFields)(s)); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	settings := maps.Clone(s.settings)
	for key, t := range configTypes {
		r, ok := raw[key]
		if !ok {
			continue
		}
		p := reflect.New(t)
		if old, ok := settings[key]; ok {
			p.Elem().Set(reflect.ValueOf(old).Elem())
		}
		if err := json.Unmarshal(r, p.Interface()); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if settings == nil {
			settings = map[string]any{}
		}
		settings[key] = p.Interface()
	}
	s.settings = settings
	return nil
}

// SettingsOf is the backend whose settings are held under key (a
// ConfigKey, "etcd"), if any.
func SettingsOf(key string) (Backend, bool) {
	for _, b := range registry {
		if b.Config != nil && b.ConfigKey == key {
			return b, true
		}
	}
	return Backend{}, false
}
