package demo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The folder service models a field report: a Spring+MySQL service that
// stores one folder tree per user. Each tree has a lock with a bounded
// wait that every create and move takes, as the database's row locks
// would; moves hold it for time proportional to the moved subtree. Reads
// do not take it (MVCC reads do not block on row locks).

const (
	// maxFolderNameBytes bounds a folder name.
	maxFolderNameBytes = 255
	// maxSeedFolders bounds one seed request.
	maxSeedFolders = 1_000_000
	// defaultSeedFanout is the children per folder of a seeded tree.
	defaultSeedFanout = 10
	// maxSeedFanout bounds the seed fanout.
	maxSeedFanout = 100_000
)

// folderStore holds every user and folder in memory.
//
// Locking: st.mu guards the maps (held briefly). Each tree's lock
// serializes the tree's mutations; its mu additionally guards the mutable
// folder fields (parent, depth, children) against concurrent readers, and
// is held only while those fields change. A mutation thus reads them
// under the tree lock alone and writes them under both.
type folderStore struct {
	maxDepth        int
	lockWait        time.Duration
	moveCostPerNode time.Duration
	m               *metrics
	done            <-chan struct{}

	lastFolderID atomic.Int64
	lastUserID   atomic.Int64

	mu      sync.RWMutex
	folders map[int64]*folder
	users   map[int64]*user
}

// user owns one folder tree.
type user struct {
	id   int64
	name string
	root *folder
}

// tree is one user's folder tree.
type tree struct {
	lock treeLock
	mu   sync.RWMutex
	root *folder
}

// folder is one node of a tree. The first block of fields never changes.
type folder struct {
	id           int64
	name         string
	createdNanos int64 // creation time, unix nanoseconds
	creatorID    int64
	tree         *tree

	// Guarded as described on folderStore.
	parent   *folder // nil for a root
	depth    int     // 0 for a root
	children map[string]*folder
}

func newFolderStore(cfg Config, m *metrics, done <-chan struct{}) *folderStore {
	return &folderStore{
		maxDepth:        cfg.MaxDepth,
		lockWait:        cfg.LockWait,
		moveCostPerNode: cfg.MoveCostPerNode,
		m:               m,
		done:            done,
		folders:         make(map[int64]*folder),
		users:           make(map[int64]*user),
	}
}

func (st *folderStore) folder(id int64) *folder {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.folders[id]
}

func (st *folderStore) user(id int64) *user {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.users[id]
}

// createUser creates a user and its root folder.
func (st *folderStore) createUser(name string) *user {
	u := &user{id: st.lastUserID.Add(1), name: name}
	t := &tree{lock: newTreeLock()}
	root := &folder{
		id:           st.lastFolderID.Add(1),
		name:         "root",
		createdNanos: time.Now().UnixNano(),
		creatorID:    u.id,
		tree:         t,
	}
	t.root, u.root = root, root
	st.mu.Lock()
	st.folders[root.id] = root
	st.users[u.id] = u
	st.mu.Unlock()
	return u
}

// lockTree takes t's lock with the configured bounded wait, recording the
// wait in metrics. It answers 503 "lock wait timeout exceeded" when the
// wait runs out.
func (st *folderStore) lockTree(ctx context.Context, t *tree) error {
	start := time.Now()
	waited, err := t.lock.lock(ctx, st.lockWait)
	if waited {
		st.m.lockWaits.Inc()
		st.m.lockWaitSeconds.Add(time.Since(start).Seconds())
	}
	switch {
	case errors.Is(err, errLockWaitTimeout):
		st.m.lockWaitTimeouts.Inc()
		return errorf(http.StatusServiceUnavailable, "%s", errLockWaitTimeout)
	case err != nil:
		return errorf(http.StatusServiceUnavailable, "waiting for tree lock: %v", err)
	}
	return nil
}

// validFolderName reports why name cannot name a folder, or nil.
func validFolderName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errorf(http.StatusBadRequest, "uploadFolderName is required")
	case len(name) > maxFolderNameBytes:
		return errorf(http.StatusBadRequest, "uploadFolderName is %d bytes, longer than %d", len(name), maxFolderNameBytes)
	}
	return nil
}

// create makes a folder named name inside parentID on behalf of userID.
// creatorID 0 means userID. Ownership of the parent is not checked: any
// known user may write to any tree, which keeps load-test scripts simple.
func (st *folderStore) create(ctx context.Context, userID, parentID int64, name string, creatorID int64) (*folder, error) {
	if err := validFolderName(name); err != nil {
		return nil, err
	}
	if userID == 0 {
		return nil, errorf(http.StatusBadRequest, "userId is required")
	}
	if parentID == 0 {
		return nil, errorf(http.StatusBadRequest, "parentFolderId is required")
	}
	if st.user(userID) == nil {
		return nil, errorf(http.StatusNotFound, "user %d not found", userID)
	}
	p := st.folder(parentID)
	if p == nil {
		return nil, errorf(http.StatusNotFound, "parent folder %d not found", parentID)
	}
	if creatorID == 0 {
		creatorID = userID
	}
	t := p.tree
	if err := st.lockTree(ctx, t); err != nil {
		return nil, err
	}
	defer t.lock.unlock()

	if p.depth+1 > st.maxDepth {
		return nil, errorf(http.StatusBadRequest, "maximum folder depth %d exceeded: parent folder %d is at depth %d", st.maxDepth, p.id, p.depth)
	}
	if _, dup := p.children[name]; dup {
		return nil, errorf(http.StatusConflict, "a folder named %q already exists in folder %d", name, p.id)
	}
	f := &folder{
		id:           st.lastFolderID.Add(1),
		name:         name,
		createdNanos: time.Now().UnixNano(),
		creatorID:    creatorID,
		tree:         t,
		parent:       p,
		depth:        p.depth + 1,
	}
	// Index first, so that an id seen in a listing can always be fetched.
	st.mu.Lock()
	st.folders[f.id] = f
	st.mu.Unlock()
	t.mu.Lock()
	if p.children == nil {
		p.children = make(map[string]*folder)
	}
	p.children[name] = f
	t.mu.Unlock()
	return f, nil
}

// moveResult describes a completed move.
type moveResult struct {
	ID       int64 `json:"id"`
	ParentID int64 `json:"parentId"`
	Depth    int   `json:"depth"`
	Moved    int   `json:"movedFolders"` // folders in the moved subtree
}

// move makes targetID the parent of id. It holds the tree lock while it
// walks the subtree and for MoveCostPerNode per folder in it, so that big
// moves contend like the database updates they stand for.
func (st *folderStore) move(ctx context.Context, userID, id, targetID int64) (moveResult, error) {
	var res moveResult
	if userID == 0 {
		return res, errorf(http.StatusBadRequest, "userId is required")
	}
	if targetID == 0 {
		return res, errorf(http.StatusBadRequest, "targetFolderId is required")
	}
	if st.user(userID) == nil {
		return res, errorf(http.StatusNotFound, "user %d not found", userID)
	}
	f := st.folder(id)
	if f == nil {
		return res, errorf(http.StatusNotFound, "folder %d not found", id)
	}
	target := st.folder(targetID)
	if target == nil {
		return res, errorf(http.StatusNotFound, "target folder %d not found", targetID)
	}
	if f == target {
		return res, errorf(http.StatusBadRequest, "cannot move folder %d into itself", id)
	}
	if f == f.tree.root {
		return res, errorf(http.StatusBadRequest, "cannot move root folder %d", id)
	}
	if f.tree != target.tree {
		return res, errorf(http.StatusBadRequest, "cannot move folder %d into folder %d of another user's tree", id, targetID)
	}
	t := f.tree
	if err := st.lockTree(ctx, t); err != nil {
		return res, err
	}
	defer t.lock.unlock()

	for a := target; a != nil; a = a.parent {
		if a == f {
			return res, errorf(http.StatusBadRequest, "cannot move folder %d into its own subtree (folder %d is inside it)", id, targetID)
		}
	}
	if f.parent == target {
		return moveResult{ID: f.id, ParentID: target.id, Depth: f.depth}, nil
	}
	if _, clash := target.children[f.name]; clash {
		return res, errorf(http.StatusConflict, "a folder named %q already exists in folder %d", f.name, targetID)
	}
	size, height := subtreeSize(f)
	if deepest := target.depth + 1 + height; deepest > st.maxDepth {
		return res, errorf(http.StatusBadRequest,
			"maximum folder depth %d exceeded: the moved subtree is %d levels high and would reach depth %d under folder %d",
			st.maxDepth, height+1, deepest, targetID)
	}
	if err := st.spend(ctx, time.Duration(size)*st.moveCostPerNode); err != nil {
		return res, err
	}

	t.mu.Lock()
	delete(f.parent.children, f.name)
	if target.children == nil {
		target.children = make(map[string]*folder)
	}
	target.children[f.name] = f
	f.parent = target
	setDepths(f, target.depth+1)
	t.mu.Unlock()
	return moveResult{ID: f.id, ParentID: target.id, Depth: f.depth, Moved: size}, nil
}

// spend holds the caller (and its locks) for d, giving up with 503 if the
// request is cancelled or the service closes: the move is then rolled
// back, as a database transaction would be.
func (st *folderStore) spend(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return errorf(http.StatusServiceUnavailable, "move cancelled: %v", ctx.Err())
	case <-st.done:
		return errorf(http.StatusServiceUnavailable, "move cancelled: service closing")
	}
}

// subtreeSize returns the number of folders in f's subtree, f included,
// and its height (0 for a leaf). The caller holds the tree lock.
func subtreeSize(f *folder) (size, height int) {
	type item struct {
		f     *folder
		level int
	}
	stack := []item{{f, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		size++
		height = max(height, it.level)
		for _, c := range it.f.children {
			stack = append(stack, item{c, it.level + 1})
		}
	}
	return size, height
}

// setDepths sets the depth of f to depth and recomputes its subtree. The
// caller holds the tree lock and the tree's mu.
func setDepths(f *folder, depth int) {
	f.depth = depth
	stack := []*folder{f}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range p.children {
			c.depth = p.depth + 1
			stack = append(stack, c)
		}
	}
}

// Sort orders of a folder listing.
const (
	sortByCreatedAt = "createdAt"
	sortByName      = "name"
)

// pageQuery selects one page of a folder's children.
type pageQuery struct {
	sortBy    string
	size      int
	creatorID int64   // 0: any creator
	after     *cursor // nil: first page
}

// folderItem is one child in a listing.
type folderItem struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	ParentID  int64     `json:"parentId"`
	CreatedAt time.Time `json:"createdAt"`
	CreatorID int64     `json:"creatorId"`

	createdNanos int64
}

// page is one page of a listing.
type page struct {
	Items      []folderItem `json:"items"`
	NextCursor *string      `json:"nextCursor"`
}

// list returns one page of the children of folder id. Pages use keyset
// pagination on (sort key, id): a cursor holds the last key returned, so
// paging never repeats or skips a child that stays put, even while other
// children are created.
func (st *folderStore) list(id int64, q pageQuery) (page, error) {
	f := st.folder(id)
	if f == nil {
		return page{}, errorf(http.StatusNotFound, "folder %d not found", id)
	}
	t := f.tree
	t.mu.RLock()
	items := make([]folderItem, 0, min(len(f.children), 1024))
	for _, c := range f.children {
		if q.creatorID != 0 && c.creatorID != q.creatorID {
			continue
		}
		it := folderItem{ID: c.id, Name: c.name, ParentID: f.id, CreatorID: c.creatorID, createdNanos: c.createdNanos}
		if q.after != nil && !q.after.precedes(it) {
			continue
		}
		items = append(items, it)
	}
	t.mu.RUnlock()

	slices.SortFunc(items, func(a, b folderItem) int {
		if q.sortBy == sortByName {
			return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
		}
		return cmp.Or(cmp.Compare(a.createdNanos, b.createdNanos), cmp.Compare(a.ID, b.ID))
	})
	var p page
	if len(items) > q.size {
		items = items[:q.size]
		next := cursorAfter(q.sortBy, items[len(items)-1]).encode()
		p.NextCursor = &next
	}
	for i := range items {
		items[i].CreatedAt = time.Unix(0, items[i].createdNanos).UTC()
	}
	p.Items = items
	return p, nil
}

// seedResult describes a seeded tree.
type seedResult struct {
	UserID       int64 `json:"userId"`
	RootFolderID int64 `json:"rootFolderId"`
	FirstID      int64 `json:"firstId"`
	LastID       int64 `json:"lastId"`
	Depth        int   `json:"depth"`
}

// seed creates a user whose tree holds n folders besides the root, with
// the contiguous ids firstId..lastId, laid out breadth first as a complete
// tree with fanout children per folder.
func (st *folderStore) seed(userName string, n, fanout int) (seedResult, error) {
	if n < 1 || n > maxSeedFolders {
		return seedResult{}, errorf(http.StatusBadRequest, "folders must be between 1 and %d, got %d", maxSeedFolders, n)
	}
	if fanout < 1 || fanout > maxSeedFanout {
		return seedResult{}, errorf(http.StatusBadRequest, "fanout must be between 1 and %d, got %d", maxSeedFanout, fanout)
	}
	// Folder i (0-based) has node number i+1 in a complete tree whose root
	// is node 0; its parent is node i/fanout.
	depth := 1
	for i := n - 1; i >= fanout; i = i/fanout - 1 {
		depth++
	}
	if depth > st.maxDepth {
		return seedResult{}, errorf(http.StatusBadRequest,
			"a tree of %d folders with fanout %d is %d levels deep, more than the maximum depth %d; raise fanout",
			n, fanout, depth, st.maxDepth)
	}

	u := &user{id: st.lastUserID.Add(1), name: userName}
	t := &tree{lock: newTreeLock()}
	rootID := st.lastFolderID.Add(int64(n)+1) - int64(n)
	now := time.Now().UnixNano()
	nodes := make([]*folder, n+1)
	nodes[0] = &folder{id: rootID, name: "root", createdNanos: now - int64(n+1)*1000, creatorID: u.id, tree: t}
	for i := range n {
		p := nodes[i/fanout]
		f := &folder{
			id:           rootID + 1 + int64(i),
			name:         fmt.Sprintf("folder-%d", i+1),
			createdNanos: now - int64(n-i)*1000, // a microsecond apart, in id order
			creatorID:    u.id,
			tree:         t,
			parent:       p,
			depth:        p.depth + 1,
		}
		if p.children == nil {
			p.children = make(map[string]*folder, fanout)
		}
		p.children[f.name] = f
		nodes[i+1] = f
	}
	t.root, u.root = nodes[0], nodes[0]

	// Publish in chunks to keep other requests moving; the user, and with
	// it the way to the tree, appears last.
	const chunk = 10000
	for lo := 0; lo < len(nodes); lo += chunk {
		st.mu.Lock()
		for _, f := range nodes[lo:min(lo+chunk, len(nodes))] {
			st.folders[f.id] = f
		}
		st.mu.Unlock()
	}
	st.mu.Lock()
	st.users[u.id] = u
	st.mu.Unlock()
	return seedResult{UserID: u.id, RootFolderID: rootID, FirstID: rootID + 1, LastID: rootID + int64(n), Depth: depth}, nil
}
