// Package expr is the expression engine of scenarios: expressions in the
// expr-lang language and templates with expressions in double braces
// ("/folders/{{ pick(folders) }}"), JSON bodies with templates inside, the
// functions surge adds (pick, pickw, len, randInt, randFloat, normal,
// lognormal, exponential, zipf, uuid, seq, env, regex), each random draw
// from the virtual user's own generator, and the values they work on. Everything is compiled once, when a
// plan is compiled, in a Scope that declares the names it may use; an
// Evaluator runs the compiled code for one virtual user.
package expr
