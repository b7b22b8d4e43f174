package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/surge-load/surge/atomicfile"
	"github.com/surge-load/surge/importer"
)

func newImportCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "import har|curl|openapi|postman",
		Short: "Write a scenario file from a HAR recording, curl commands, an OpenAPI description or a Postman collection",
		Long: `Write a scenario file from what you already have. The file has a comment
header saying where it came from; surge validate accepts it and surge run runs
it as is (each journey once, by one user: raise its load for a test).

Bad input is reported with where it is (file:line:col, or a path into the
document) and what to do; the exit code is then 2.`,
		Example: `  surge import har recording.har --host api.example.com -o journey.yaml
  surge import curl 'curl -X POST https://api.example.com/v1/users -d name=ann' -o users.yaml
  surge import openapi demo/openapi.yaml --target http://127.0.0.1:8080 -o api.yaml
  surge import postman collection.json -o collection.yaml`,
	}
	cmd.PersistentFlags().StringVarP(&out, "out", "o", "", "write the scenario file here (default: standard output)")
	write := func(cmd *cobra.Command, f *importer.File, err error) error {
		if err != nil {
			if ie, ok := errors.AsType[*importer.Error](err); ok {
				return &codeError{code: exitInvalid, err: ie}
			}
			return &codeError{code: exitInvalid, err: err}
		}
		if out == "" {
			_, err := cmd.OutOrStdout().Write(f.YAML())
			return err
		}
		if err := atomicfile.WriteBytes(out, f.YAML()); err != nil {
			return &codeError{code: exitError, err: fmt.Errorf("write the scenario file: %w", err)}
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: check it with surge validate %s\n", out, out)
		return nil
	}
	read := func(name string) ([]byte, error) {
		if name == "-" {
			return io.ReadAll(os.Stdin)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, &codeError{code: exitInvalid, err: fmt.Errorf("read %s: %w", name, unwrapPathError(err))}
		}
		return b, nil
	}

	var har importer.HAROptions
	harCmd := &cobra.Command{
		Use:   "har FILE",
		Short: "Import a browser recording (HAR): the requests of one host, grouped by page",
		Long: `Import a HAR file saved by a browser's developer tools (Network, Save all as
HAR) or a proxy. The requests of the chosen hosts (--host, default the most
requested) become a flow in the order they started, one group of steps per
page, with the recorded gaps of half a second or more as sleeps. Static assets
(scripts, styles, images, fonts) are left out unless --include-static; headers
the browser adds (User-Agent, Accept-*, Sec-*, Referer, Cookie, ...) are
dropped, cookies being the scenario's cookie jar's; the recorded status is
expected; and a value that came from an earlier JSON response (an id, a CSRF
token) is captured from that response and reused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := read(args[0])
			if err != nil {
				return err
			}
			f, err := importer.HAR(filepath.Base(args[0]), src, har)
			return write(cmd, f, err)
		},
	}
	harCmd.Flags().StringArrayVar(&har.Hosts, "host", nil, "import the requests of this host (host or host:port; repeatable); default the most requested")
	harCmd.Flags().BoolVar(&har.IncludeStatic, "include-static", false, "keep requests for scripts, styles, images and fonts")

	curlCmd := &cobra.Command{
		Use:   "curl 'curl ...' ['curl ...']...",
		Short: "Import curl commands as written in API documentation, one step each",
		Long: `Import curl commands, one step each in order: the method (-X, -G, -I), the
URL, headers (-H, -A, -e, -b), data (-d, --data-raw, --data-binary,
--data-urlencode, --json, -F) and -u. Give each command as an argument, or
several in one argument (one per line, continued with a backslash as docs
write them), or - to read them from standard input.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && args[0] == "-" {
				b, err := read("-")
				if err != nil {
					return err
				}
				args = []string{string(b)}
			}
			f, err := importer.Curl(args, importer.CurlOptions{})
			return write(cmd, f, err)
		},
	}

	var oa importer.OpenAPIOptions
	openapiCmd := &cobra.Command{
		Use:   "openapi FILE",
		Short: "Import an OpenAPI 3.0 or 3.1 description (YAML or JSON), one task per operation",
		Long: `Import an OpenAPI 3.0 or 3.1 description, YAML or JSON: one task per
operation; path and query parameters from their examples or schemas' types;
request bodies from their examples or schemas; the documented 2xx and 3xx
responses as the expected statuses. --target gives the base URL when the
description has no server or a relative one, and replaces its server's host.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := read(args[0])
			if err != nil {
				return err
			}
			f, err := importer.OpenAPI(filepath.Base(args[0]), src, oa)
			return write(cmd, f, err)
		},
	}
	openapiCmd.Flags().StringVar(&oa.Target, "target", "", "base URL of the operations, such as http://127.0.0.1:8080")

	postmanCmd := &cobra.Command{
		Use:   "postman FILE",
		Short: "Import a Postman collection (v2.1): folders as flows, variables as vars",
		Long: `Import a Postman collection exported as v2.1: each top-level folder becomes a
scenario whose flow is its requests in order (subfolders as groups), the
requests outside folders a scenario of their own; collection variables become
vars and {{name}} uses them; variables of a Postman environment are read with
env(), so --env NAME=VALUE gives them when the file runs. Bearer, basic and
API-key auth become headers; scripts are left out (the header says which).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := read(args[0])
			if err != nil {
				return err
			}
			f, err := importer.Postman(filepath.Base(args[0]), src)
			return write(cmd, f, err)
		},
	}
	cmd.AddCommand(harCmd, curlCmd, openapiCmd, postmanCmd)
	return cmd
}

// unwrapPathError drops the operation of an *os.PathError, which repeats
// the name the message already has.
func unwrapPathError(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	return err
}
