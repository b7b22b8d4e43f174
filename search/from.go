package search

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/scenario"
)

// DefaultWarmup is the warm-up of a search made by ConfigFrom when neither
// the scenario file nor the command line gives one.
const DefaultWarmup = 2 * time.Second

// Overrides are the settings of a search given on a command line, as
// surge find-max's flags name them; a nil field was not given. Each one
// given wins over the scenario file's search section, which wins over the
// defaults. Levels are as typed, read by the model: a whole number of
// users, or a rate such as 50, 50/s or 3000/1m (executor.ParseRate).
type Overrides struct {
	Model  *string        // --model: users or rate; the first level is then Start
	Users  *string        // --users: the closed model, from this many users
	Rate   *string        // --rate: the open model, from this rate
	Start  *string        // --start: the first level of Model
	Factor *float64       // --step-factor
	Add    *string        // --step-add
	Max    *string        // --max
	Step   *time.Duration // --step-duration
	Warmup *time.Duration // --warmup
	Budget *time.Duration // --budget
}

// flagNames are the flags of the checked fields; the first level's flag
// depends on which of --users, --rate and --start was given.
var flagNames = map[field]string{
	fieldModel: "--model", fieldFactor: "--step-factor", fieldAdd: "--step-add", fieldMax: "--max",
	fieldStep: "--step-duration", fieldWarmup: "--warmup", fieldBudget: "--budget",
}

// A source is where a setting came from.
type source int

const (
	fromDefault source = iota
	fromFile
	fromFlag
)

// ConfigFrom returns the levels and durations of a search (the Config's
// Model, Start, Factor, Add, Max, Step, Warmup and Budget) from a scenario
// file's search section file, which may be nil, and the command line's
// overrides o, each setting taken from the first of o, file and the
// defaults (DefaultFactor, DefaultStep, DefaultWarmup, DefaultBudget) that
// has it. The step (Factor or Add) is taken whole from one of them.
//
// The result is checked once, by the rules search.Run applies. A problem
// of a flag is an error naming the flag; problems of the file's fields
// are scenario.Errors at their paths under "search" (such as
// "search.factor"), which the file's yamlfile.File.Locate places at their
// file:line:col. The caller sets Build, the objectives and the rest.
func ConfigFrom(file *scenario.Search, o Overrides) (Config, error) {
	var l levels
	src := map[field]source{}
	startFlag, startText := "", ""
	switch {
	case o.Users != nil && o.Rate != nil:
		return Config{}, errors.New("choose --users (closed model) or --rate (open model), not both")
	case o.Start != nil && (o.Users != nil || o.Rate != nil):
		return Config{}, errors.New("--users and --rate give the first level; drop --start")
	case o.Users != nil:
		if o.Model != nil && *o.Model != string(Users) {
			return Config{}, fmt.Errorf("--users is the closed model, not --model %s", *o.Model)
		}
		l.Model, startFlag, startText = Users, "--users", *o.Users
	case o.Rate != nil:
		if o.Model != nil && *o.Model != string(Rate) {
			return Config{}, fmt.Errorf("--rate is the open model, not --model %s", *o.Model)
		}
		l.Model, startFlag, startText = Rate, "--rate", *o.Rate
	case o.Model != nil:
		if o.Start == nil {
			return Config{}, errors.New("--model needs --start, the first level")
		}
		if m := Model(*o.Model); m != Users && m != Rate {
			return Config{}, fmt.Errorf("--model %q: want users or rate", *o.Model)
		}
		l.Model, startFlag, startText = Model(*o.Model), "--start", *o.Start
	case o.Start != nil:
		return Config{}, errors.New("--start needs --model users or --model rate")
	case file != nil:
		l.Model, l.Start = file.Model, file.Start
		src[fieldModel], src[fieldStart] = fromFile, fromFile
	default:
		return Config{}, errors.New("choose a load: --users N (closed model) or --rate R (open model), the first level")
	}
	if file != nil && l.Model == "" {
		return Config{}, scenario.Errors{{Path: "search", Msg: "the search has no model", Fix: "give the first level as users: N (closed model) or rate: R (open model)"}}
	}
	level := func(flag, s string) (float64, error) {
		if l.Model == Rate {
			r, err := executor.ParseRate(s)
			if err != nil {
				return 0, fmt.Errorf("%s: %s", flag, executor.Message(err))
			}
			return r, nil
		}
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || n != math.Trunc(n) || math.IsInf(n, 0) {
			return 0, fmt.Errorf("%s %q: want a whole number of users", flag, s)
		}
		return n, nil
	}
	var err error
	if startFlag != "" {
		src[fieldModel], src[fieldStart] = fromFlag, fromFlag
		if l.Start, err = level(startFlag, startText); err != nil {
			return Config{}, err
		}
	}

	switch {
	case o.Factor != nil || o.Add != nil:
		if o.Factor != nil {
			l.Factor, l.factorGiven, src[fieldFactor] = *o.Factor, true, fromFlag
		}
		if o.Add != nil {
			if l.Add, err = level("--step-add", *o.Add); err != nil {
				return Config{}, err
			}
			l.addGiven, src[fieldAdd] = true, fromFlag
		}
	case file != nil && (file.Factor != 0 || file.Add != 0):
		l.Factor, l.Add = file.Factor, file.Add
		src[fieldFactor], src[fieldAdd] = fromFile, fromFile
	}
	if l.Factor == 0 && l.Add == 0 && !l.factorGiven && !l.addGiven {
		l.Factor = DefaultFactor
	}
	switch {
	case o.Max != nil:
		if l.Max, err = level("--max", *o.Max); err != nil {
			return Config{}, err
		}
		src[fieldMax] = fromFlag
	case file != nil && file.Max != 0:
		l.Max, src[fieldMax] = file.Max, fromFile
	}
	duration := func(f field, flag *time.Duration, inFile func(*scenario.Search) time.Duration, def time.Duration) time.Duration {
		switch {
		case flag != nil:
			src[f] = fromFlag
			return *flag
		case file != nil && inFile(file) != 0:
			src[f] = fromFile
			return inFile(file)
		}
		return def
	}
	l.Step = duration(fieldStep, o.Step, func(s *scenario.Search) time.Duration { return s.Step }, DefaultStep)
	l.Warmup = duration(fieldWarmup, o.Warmup, func(s *scenario.Search) time.Duration { return s.Warmup }, DefaultWarmup)
	l.Budget = duration(fieldBudget, o.Budget, func(s *scenario.Search) time.Duration { return s.Budget }, DefaultBudget)

	// name calls a field by its flag, its key in the file (in a flag's
	// message, the file's key with its section) or its default.
	name := func(inFlagMsg bool) func(field) string {
		return func(f field) string {
			switch src[f] {
			case fromFlag:
				if f == fieldStart {
					return startFlag
				}
				return flagNames[f]
			case fromFile:
				key := string(f)
				if f == fieldStart {
					key = string(file.Model)
				}
				if inFlagMsg {
					return "search." + key
				}
				return key
			}
			return "the default " + flagNames[f]
		}
	}
	var fileErrs scenario.Errors
	flagMsgs := l.check(name(true))
	for i, p := range l.check(name(false)) {
		f := p.field
		if src[f] == fromDefault && p.other != "" {
			f = p.other // a default is not wrong alone
		}
		if src[f] != fromFile {
			return Config{}, errors.New(flagMsgs[i].msg)
		}
		path := "search." + string(f)
		switch f {
		case fieldModel:
			path = "search"
		case fieldStart:
			path = "search." + string(file.Model)
		}
		fileErrs = append(fileErrs, &scenario.Error{Path: path, Msg: p.msg, Fix: p.fix})
	}
	if len(fileErrs) > 0 {
		return Config{}, fileErrs
	}
	return Config{Search: l.Search}, nil
}
