package scenario

import (
	"net/http"
	"sync"
	"time"

	"github.com/surge-load/surge/executor"
	"github.com/surge-load/surge/internal/expr"
	"github.com/surge-load/surge/protocol/grpcc"
	"github.com/surge-load/surge/protocol/httpc"
)

// A program is a compiled Spec: everything the virtual users run, with
// templates and expressions compiled.
type program struct {
	http           httpc.Options
	cookies        bool   // each user has a cookie jar
	seed           uint64 // of every random draw
	funcs          *expr.Funcs
	vars           map[string]any // evaluated
	pools          map[string]*Pool
	initial        map[string][]any // the pools' first values
	sources        map[string]*source
	setup          []*step
	captured       []string       // variables the setup captures
	globals        map[string]any // their values after the setup ran
	scenarios      []*compiled
	endpoints      []string // statistics rows, indexed by request.ep
	streams        streamClients
	protoSets      map[string]*grpcc.Files // compiled .proto files, by file list
	reflection     *grpcc.Reflection       // methods found by server reflection
	reflectionOnce sync.Once
}

// A compiled scenario.
type compiled struct {
	name       string
	index      int // in Spec.Scenarios: with the seed, it seeds its users' draws
	load       executor.Load
	startAfter time.Duration
	onStart    []*step
	tasks      []*step
	cumWeights []int // cumulative weights of tasks
	flow       []*step
	vars       []string       // variables its steps set
	uniques    map[string]int // unique data sources it uses: offset of its users
	uses       map[string]bool
	endpoints  []int
}

// The kinds of steps.
type stepKind int

const (
	kindNone stepKind = iota // a step in error
	kindRequest
	kindSleep
	kindGroup
	kindSet
	kindSSE // see streamcompile.go
	kindWS
	kindGRPC // see grpc.go
)

// A compiled step.
type step struct {
	path   string // for messages, as in scenarios.browse.tasks[2]
	kind   stepKind
	when   *expr.Expression
	req    *request
	expect *expect
	sleep  Pause
	steps  []*step
	repeat int
	while  *expr.Expression
	// goOn: on_failure: continue, so the iteration goes on past a
	// failure of this step.
	goOn bool
	// errorKey is the gjson path of the body field that names a failure's
	// cause (error_key: json.PATH), errorKeySrc as written.
	errorKey, errorKeySrc string

	capture, set   []assign
	append, remove []assign

	// What the expressions after the request read of the response.
	slots       []slot // simple JSON paths, read with gjson
	needJSON    bool   // the decoded body
	needBody    bool
	needHeaders bool
	keepBody    bool

	sse  *sseStep  // kindSSE
	ws   *wsStep   // kindWS
	grpc *grpcStep // kindGRPC
}

// A slot is a simple JSON path an expression reads, and the variable that
// holds its value.
type slot struct {
	path, name string
}

// An assign sets a variable, or adds to or removes from a pool, the value
// of an expression.
type assign struct {
	name string
	x    *expr.Expression
	pool *Pool
}

// A compiled request.
type request struct {
	method  string
	url     *expr.Template
	query   []keyValue
	headers []keyValue  // defaults merged in, Content-Type included
	static  http.Header // all headers, when none has a template
	json    expr.JSONNode
	form    []keyValue
	body    *expr.Template
	timeout time.Duration
	ep      int // index into program.endpoints
}

// A keyValue is a name and a template of its value.
type keyValue struct {
	key string
	val *expr.Template
}

// A compiled expectation.
type expect struct {
	status      []int
	contains    []byte
	maxDuration time.Duration
	that        []*expr.Expression
}
