// Package sanitize makes text safe to leave surge for people and their
// tools: secrets redacted (Secret, URL, Text), control characters that came
// from the network escaped (Text), and spreadsheet formulas defused
// (CSVCell). Every output (the terminal, the result document, the HTML,
// Markdown and CSV reports) goes through it, by way of
// result.Result.Sanitize.
package sanitize
