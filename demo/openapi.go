package demo

import _ "embed"

// OpenAPI is the OpenAPI 3.1 description of the demo's request/response
// endpoints (demo/openapi.yaml), served at GET /openapi.yaml. Its examples
// work against a demo where one user exists.
//
//go:embed openapi.yaml
var OpenAPI []byte
