// Package flagtag registers the fields of a config struct as command-line
// flags (pflag), from tags written beside the fields, and names the flag
// that sets a field when a library reports bad input in it by the field's
// path (fielderr.Error). A flag is so described once, where its field
// is, and a command of anyone's gets the same flags as lockbench's.
//
// It owns nothing of lockbench's and imports no package of the project.
// The CLI (cmd/lockbench) and workloads/lab.BindFlags use it.
package flagtag

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"
)

// The tags a field may carry:
//
//	flag:"name"        the field is set by --name (its value now is the default)
//	flag:"name,array"  a []string whose values are taken whole, commas kept (StringArray)
//	flag:"-"           neither the field nor what it holds gets a flag
//	short:"q"          a one-letter shorthand
//	help:"text"        the flag's help (required with flag)
//	value:"FILE"       the help's name of the flag's value (a word of the help), shown
//	                   as its placeholder: "--json FILE" rather than "--json string"
//
// A field of struct type is walked for its own tagged fields; its flag tag,
// if any, is how errors name the group ("tls-*", "etcd-user/etcd-cert"),
// else the group's flags joined by "/". Supported field types: string (and
// named string types), int, float64, bool, time.Duration, []string, []int,
// []time.Duration and any type whose pointer is a pflag.Value.
//
// A struct whose help depends on what the program holds at run time (a
// registry's names) implements Helper: its FlagHelp replaces the tag's.
// A struct that holds some of its settings outside its Go fields (a
// registry's configs, by key) implements Grouper: each group is walked
// after the struct's own fields, in the order of their keys, as a field of
// struct type named by its key in both its JSON and Go paths would be
// ("driver.etcd.mode", "Driver.etcd.Mode").

// Helper is a struct that writes some of its fields' help itself.
type Helper interface {
	// FlagHelp is the help of the field named field (its Go name), or ""
	// to keep the help tag's.
	FlagHelp(field string) string
}

// Grouper is a struct with groups of settings held outside its Go fields.
type Grouper interface {
	// FlagGroups are the groups by key, each a pointer to a struct whose
	// tagged fields the flags set.
	FlagGroups() map[string]any
}

// Set is the flags bound on one FlagSet and the field paths they set.
type Set struct {
	fs    *pflag.FlagSet
	names map[string]string // field path, JSON or Go → "--flag" (or a group's)
}

// New is an empty Set registering on fs.
func New(fs *pflag.FlagSet) *Set { return &Set{fs: fs, names: map[string]string{}} }

// Bind registers a flag for every tagged field of the struct ptr points
// to, except those under skip (field paths as the JSON serialises them,
// "workload.workers" or a whole "topology"). It panics on a field it
// cannot bind or without help: a programming error a test finds.
func (s *Set) Bind(ptr any, skip ...string) *Set {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("flagtag: Bind(%T): want a pointer to a struct", ptr))
	}
	sk := make(map[string]bool, len(skip))
	for _, p := range skip {
		sk[p] = true
	}
	s.walk(v.Elem(), "", "", sk)
	return s
}

// Flag names the flag that sets field, given by its JSON path
// ("workload.retry_delay") or Go field path ("Workload.RetryDelay"):
// "--retry-delay", a group's flags ("--tls-*"), or "" when no flag sets it.
func (s *Set) Flag(field string) string { return s.names[field] }

// Lookup names the flag of a command whose flags several Sets bound: that
// of the first of fields (a path each, as Flag takes) any of sets binds,
// sets in order; "" when none does.
func Lookup(sets []*Set, fields ...string) string {
	for _, s := range sets {
		for _, f := range fields {
			if name := s.Flag(f); name != "" {
				return name
			}
		}
	}
	return ""
}

// FieldAnnotation is the pflag annotation of a bound flag that holds the
// JSON path of the field it sets ("workload.workers"): a help renderer
// groups flags by it.
const FieldAnnotation = "flagtag-field"

// Field is the JSON path of the field flag f sets, "" for a flag Bind did
// not register.
func Field(f *pflag.Flag) string {
	if p := f.Annotations[FieldAnnotation]; len(p) == 1 {
		return p[0]
	}
	return ""
}

// FlagSet is the FlagSet the flags are registered on.
func (s *Set) FlagSet() *pflag.FlagSet { return s.fs }

// walk binds the fields of struct v, whose paths start with jsonPath and
// goPath, and returns the flags it registered.
func (s *Set) walk(v reflect.Value, jsonPath, goPath string, skip map[string]bool) []string {
	var flags []string
	var helper Helper
	var grouper Grouper
	if v.CanAddr() && v.Addr().CanInterface() {
		helper, _ = v.Addr().Interface().(Helper)
		grouper, _ = v.Addr().Interface().(Grouper)
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opt, _ := strings.Cut(f.Tag.Get("flag"), ",")
		if (!f.IsExported() && !f.Anonymous) || name == "-" {
			continue
		}
		jp, gp := join(jsonPath, jsonName(f)), join(goPath, f.Name)
		if f.Anonymous && f.Tag.Get("json") == "" { // promoted: its fields are the outer struct's
			jp, gp = jsonPath, goPath
		}
		if skip[jp] {
			continue
		}
		fv := v.Field(i)
		if f.Type.Kind() == reflect.Struct && !isValue(fv) {
			flags = append(flags, s.group(fv, name, jp, gp, jp != jsonPath, skip)...)
			continue
		}
		if name == "" {
			continue
		}
		help := f.Tag.Get("help")
		if help == "" {
			panic(fmt.Sprintf("flagtag: %s (--%s): no help tag", gp, name))
		}
		if value := f.Tag.Get("value"); value != "" {
			if !strings.Contains(help, value) {
				panic(fmt.Sprintf("flagtag: %s (--%s): value %q not in its help", gp, name, value))
			}
			help = strings.Replace(help, value, "`"+value+"`", 1) // pflag's placeholder quoting
		}
		if helper != nil {
			if own := helper.FlagHelp(f.Name); own != "" {
				help = own
			}
		}
		s.bind(fv, name, f.Tag.Get("short"), help, opt == "array", gp)
		_ = s.fs.SetAnnotation(name, FieldAnnotation, []string{jp})
		s.names[jp], s.names[gp] = "--"+name, "--"+name
		flags = append(flags, "--"+name)
	}
	if grouper != nil {
		groups := grouper.FlagGroups()
		for _, key := range slices.Sorted(maps.Keys(groups)) {
			jp, gp := join(jsonPath, key), join(goPath, key)
			gv := reflect.ValueOf(groups[key])
			if gv.Kind() != reflect.Pointer || gv.Elem().Kind() != reflect.Struct {
				panic(fmt.Sprintf("flagtag: %s: group %q holds %T, want a pointer to a struct", goPath, key, groups[key]))
			}
			if !skip[jp] {
				flags = append(flags, s.group(gv.Elem(), "", jp, gp, true, skip)...)
			}
		}
	}
	return flags
}

// group binds the fields of struct v at jp/gp and, when named (not
// promoted), names the group by its flag tag or its flags joined by "/".
func (s *Set) group(v reflect.Value, tag, jp, gp string, named bool, skip map[string]bool) []string {
	inner := s.walk(v, jp, gp, skip)
	if len(inner) > 0 && named {
		group := strings.Join(inner, "/")
		if tag != "" {
			group = "--" + strings.ReplaceAll(tag, "/", "/--")
		}
		s.names[jp], s.names[gp] = group, group
	}
	return inner
}

// bind registers field v as --name with its current value as the default.
func (s *Set) bind(v reflect.Value, name, short, help string, array bool, field string) {
	switch p := v.Addr().Interface().(type) {
	case pflag.Value:
		s.fs.VarP(p, name, short, help)
	case *string:
		s.fs.StringVarP(p, name, short, *p, help)
	case *int:
		s.fs.IntVarP(p, name, short, *p, help)
	case *float64:
		s.fs.Float64VarP(p, name, short, *p, help)
	case *bool:
		s.fs.BoolVarP(p, name, short, *p, help)
	case *time.Duration:
		s.fs.DurationVarP(p, name, short, *p, help)
	case *[]string:
		if array {
			s.fs.StringArrayVarP(p, name, short, *p, help)
		} else {
			s.fs.StringSliceVarP(p, name, short, *p, help)
		}
	case *[]int:
		s.fs.IntSliceVarP(p, name, short, *p, help)
	case *[]time.Duration:
		s.fs.DurationSliceVarP(p, name, short, *p, help)
	default:
		if v.Kind() != reflect.String {
			panic(fmt.Sprintf("flagtag: %s (--%s): unsupported type %s", field, name, v.Type()))
		}
		sp := v.Addr().Convert(reflect.TypeOf((*string)(nil))).Interface().(*string)
		s.fs.StringVarP(sp, name, short, *sp, help)
	}
}

// isValue: does the field's pointer set it from a flag itself? (An
// unexported embedded struct is only walked.)
func isValue(v reflect.Value) bool {
	if !v.CanInterface() {
		return false
	}
	_, ok := v.Addr().Interface().(pflag.Value)
	return ok
}

// jsonName is the field's key in its JSON form; a field that is not
// serialised is named in snake_case ("PasswordFile": "password_file").
func jsonName(f reflect.StructField) string {
	if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n != "" && n != "-" {
		return n
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range f.Name {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
		prev = r
	}
	return b.String()
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// Given are the JSON paths of the fields set by the flags of fs given on
// the command line (Changed), in fs's order; flags Bind did not register
// are left out.
func Given(fs *pflag.FlagSet) []string {
	var fields []string
	fs.Visit(func(f *pflag.Flag) {
		if field := Field(f); field != "" {
			fields = append(fields, field)
		}
	})
	return fields
}
