package config

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TOML writes the configuration as a TOML file that Parse reads back to the
// same configuration, as `2048 config show` prints it: a header comment
// naming the layers the configuration was built from, the ruleset and the
// preset, then the ruleset's keys, each under its doc comment, in struct
// order, with nested structs as tables after the plain keys.
func (c *Config) TOML() []byte {
	var b bytes.Buffer
	comment(&b, "The effective configuration of 2048, as `2048 config show` writes it.")
	if len(c.layers) > 0 {
		comment(&b, "Its layers, each over the ones before:")
		for _, l := range c.layers {
			b.WriteString("#   " + commentText(l) + "\n")
		}
	}
	b.WriteString("\n")
	comment(&b, "The ruleset: "+strings.Join(Rulesets(), " or ")+".")
	fmt.Fprintf(&b, "ruleset = %s\n\n", quote(c.Ruleset))
	comment(&b, "The built-in preset these settings start from.")
	fmt.Fprintf(&b, "preset = %s\n", quote(c.Preset))
	if s := c.settings(); s.IsValid() {
		writeTable(&b, s, "", false)
	}
	return b.Bytes()
}

// writeTable writes the plain keys of the struct v, then its tables; header
// says a table header was just written.
func writeTable(b *bytes.Buffer, v reflect.Value, prefix string, header bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Struct {
			continue
		}
		if !header {
			b.WriteString("\n")
		}
		header = false
		comment(b, f.Tag.Get("doc"))
		fmt.Fprintf(b, "%s = %s\n", f.Tag.Get("toml"), formatValue(v.Field(i)))
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Type.Kind() != reflect.Struct {
			continue
		}
		key := prefix + f.Tag.Get("toml")
		b.WriteString("\n")
		comment(b, f.Tag.Get("doc"))
		fmt.Fprintf(b, "[%s]\n", key)
		writeTable(b, v.Field(i), key+".", true)
	}
}

// formatValue writes a setting as a TOML value.
func formatValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Float64:
		return formatFloat(v.Float())
	case reflect.String:
		return quote(v.String())
	}
	return quote(fmt.Sprint(v.Interface()))
}

// formatFloat writes a float as the shortest TOML float that reads back to
// it exactly.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// quote writes s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// comment writes text as '#' lines of at most 78 columns.
func comment(b *bytes.Buffer, text string) {
	line := "#"
	for _, w := range strings.Fields(commentText(text)) {
		if line != "#" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > 78 {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + w
	}
	if line != "#" {
		b.WriteString(line + "\n")
	}
}

// commentText replaces what a TOML comment cannot hold (control characters,
// invalid UTF-8) with '?'.
func commentText(s string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t') || r == 0x7f || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}
