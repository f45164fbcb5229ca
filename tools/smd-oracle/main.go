// Command smd-oracle replays merge cases (JSON on stdin) with the reference implementation,
// sigs.k8s.io/structured-merge-diff/v4, and prints what they leave (JSON on stdout), so that
// libs/field-management can be diffed against it. Run through `npm run oracle:smd`.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

type op struct {
	Manager    string          `json:"manager"`
	Apply      json.RawMessage `json:"apply,omitempty"`
	Update     json.RawMessage `json:"update,omitempty"`
	Force      bool            `json:"force,omitempty"`
	APIVersion string          `json:"apiVersion,omitempty"`
}

type mergeCase struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Type   string          `json:"type"`
	Ops    []op            `json:"ops"`
}

type opResult struct {
	Conflicts []string `json:"conflicts,omitempty"`
	Error     string   `json:"error,omitempty"`
}

type managed struct {
	APIVersion string   `json:"apiVersion"`
	Applied    bool     `json:"applied"`
	FieldsV1   string   `json:"fieldsV1"`
	Paths      []string `json:"paths"`
}

type caseResult struct {
	Ops     []opResult         `json:"ops"`
	Object  string             `json:"object"`
	Managed map[string]managed `json:"managed"`
}

// identity is conversion "None": every version has the same fields.
type identity struct{}

func (identity) Convert(o *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return o, nil
}
func (identity) IsMissingVersionError(error) bool { return false }

// decode reads JSON as kube does: integers as int64, other numbers as float64.
func decode(raw []byte) (interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func numbers(v interface{}) interface{} {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]interface{}:
		for k, x := range t {
			t[k] = numbers(x)
		}
	case []interface{}:
		for i, x := range t {
			t[i] = numbers(x)
		}
	}
	return v
}

func run(c mergeCase) (caseResult, error) {
	parser, err := typed.NewParser(typed.YAMLObject(fmt.Sprintf(`{"types": %s}`, c.Schema)))
	if err != nil {
		return caseResult{}, err
	}
	t := parser.Type(c.Type)
	live, err := t.FromUnstructured(nil)
	if err != nil {
		return caseResult{}, err
	}
	updater := &merge.Updater{Converter: identity{}}
	managers := fieldpath.ManagedFields{}
	res := caseResult{Managed: map[string]managed{}}
	for _, o := range c.Ops {
		version := fieldpath.APIVersion(o.APIVersion)
		if version == "" {
			version = "v1"
		}
		raw := o.Apply
		if o.Update != nil {
			raw = o.Update
		}
		obj, err := decode(raw)
		if err != nil {
			return res, err
		}
		tv, err := t.FromUnstructured(obj)
		if err != nil {
			res.Ops = append(res.Ops, opResult{Error: err.Error()})
			continue
		}
		if o.Update != nil {
			var m fieldpath.ManagedFields
			_, m, err = updater.Update(live, tv, version, managers, o.Manager)
			if err == nil {
				live, managers = tv, m
			}
		} else {
			var n *typed.TypedValue
			var m fieldpath.ManagedFields
			n, m, err = updater.Apply(live, tv, version, managers, o.Manager, o.Force)
			if err == nil {
				managers = m
				if n != nil {
					live = n
				}
			}
		}
		switch e := err.(type) {
		case nil:
			res.Ops = append(res.Ops, opResult{})
		case merge.Conflicts:
			var cs []string
			for _, x := range e {
				cs = append(cs, fmt.Sprintf("%s: %s", x.Manager, x.Path.String()))
			}
			sort.Strings(cs)
			res.Ops = append(res.Ops, opResult{Conflicts: cs})
		default:
			res.Ops = append(res.Ops, opResult{Error: err.Error()})
		}
	}
	b, err := json.Marshal(live.AsValue().Unstructured())
	if err != nil {
		return res, err
	}
	res.Object = string(b)
	for m, vs := range managers {
		fields, err := vs.Set().ToJSON()
		if err != nil {
			return res, err
		}
		paths := []string{}
		vs.Set().Iterate(func(p fieldpath.Path) { paths = append(paths, p.String()) })
		sort.Strings(paths)
		res.Managed[m] = managed{APIVersion: string(vs.APIVersion()), Applied: vs.Applied(), FieldsV1: string(fields), Paths: paths}
	}
	return res, nil
}

func main() {
	var cases []mergeCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := []caseResult{}
	for _, c := range cases {
		r, err := run(c)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", c.Name, err)
			os.Exit(2)
		}
		out = append(out, r)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
