package flagtag

import (
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Tags maps the JSON path of every field of the struct ptr points to (and
// of the structs it holds, groups included, as Bind walks them) to its tag
// key, joined with its enclosing structs' by ",": a tag on a struct field
// holds for every field inside it. Fields without one, themselves or
// around them, are left out.
func Tags(ptr any, key string) map[string]string {
	out := map[string]string{}
	tags(reflect.ValueOf(ptr).Elem(), key, "", "", out)
	return out
}

func tags(v reflect.Value, key, path, outer string, out map[string]string) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		p := join(path, jsonName(f))
		if f.Anonymous && f.Tag.Get("json") == "" {
			p = path
		}
		tag := joinTags(outer, f.Tag.Get(key))
		fv := v.Field(i)
		if f.Type.Kind() == reflect.Struct && !isValue(fv) {
			if tag != "" && p != path {
				out[p] = tag
			}
			tags(fv, key, p, tag, out)
			continue
		}
		if tag != "" {
			out[p] = tag
		}
	}
	if !v.CanAddr() || !v.Addr().CanInterface() {
		return
	}
	if g, ok := v.Addr().Interface().(Grouper); ok {
		groups := g.FlagGroups()
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			if gv := reflect.ValueOf(groups[k]); gv.Kind() == reflect.Pointer && gv.Elem().Kind() == reflect.Struct {
				tags(gv.Elem(), key, join(path, k), outer, out)
			}
		}
	}
}

func joinTags(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "," + strings.TrimSpace(b)
}
