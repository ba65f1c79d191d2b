package results

import "github.com/lockbench/lockbench/results/fielderr"

// FieldError and its constructors live in results/fielderr, a leaf the
// libraries import; these names serve the packages that already read
// results for them.
type FieldError = fielderr.Error

// Invalid is fielderr.Invalid.
func Invalid(field string, value any, format string, a ...any) *FieldError {
	return fielderr.Invalid(field, value, format, a...)
}

// Within is fielderr.Within.
func Within(prefix string, err error) error { return fielderr.Within(prefix, err) }
