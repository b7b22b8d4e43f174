// Package importer turns what users already have into scenario files: a
// browser recording (HAR), curl commands, an OpenAPI description and a
// Postman collection. Each importer returns a File, whose YAML a scenario
// file loader (package scenario/yamlfile) accepts and which runs as is,
// with a comment header saying where it came from.
//
// Input that cannot be imported is an *Error saying where (a line and
// column, or a path into the document) and what to do.
package importer
