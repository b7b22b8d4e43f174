package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// listPage is the decoded body of a folder listing.
type listPage struct {
	Items []struct {
		ID        int64     `json:"id"`
		Name      string    `json:"name"`
		ParentID  int64     `json:"parentId"`
		CreatedAt time.Time `json:"createdAt"`
		CreatorID int64     `json:"creatorId"`
	} `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

func listFolder(t *testing.T, h http.Handler, id int64, query string) listPage {
	t.Helper()
	rec := do(t, h, "GET", fmt.Sprintf("/api/v1/folders/%d?%s", id, query), nil)
	wantStatus(t, rec, http.StatusOK)
	return decodeAs[listPage](t, rec)
}

func TestCreateUser(t *testing.T) {
	s := newTestService(t, Config{})
	uid, root := createUser(t, s, "alice")
	if uid <= 0 || root <= 0 {
		t.Fatalf("ids %d, %d: want positive", uid, root)
	}
	p := listFolder(t, s, root, "")
	if len(p.Items) != 0 || p.NextCursor != nil {
		t.Fatalf("new root folder: got %+v, want no items and null cursor", p)
	}
	rec := do(t, s, "GET", fmt.Sprintf("/api/v1/folders/%d", root), nil)
	if !strings.Contains(rec.Body.String(), `"nextCursor":null`) {
		t.Errorf("body %s: want an explicit null nextCursor", rec.Body.String())
	}

	wantError(t, do(t, s, "POST", "/api/v1/users", map[string]any{}), http.StatusBadRequest, "userName is required")
	wantError(t, do(t, s, "POST", "/api/v1/users", map[string]any{"userName": "  "}), http.StatusBadRequest, "userName is required")
	wantError(t, do(t, s, "POST", "/api/v1/users", "{not json"), http.StatusBadRequest, "invalid JSON")
	wantError(t, do(t, s, "POST", "/api/v1/users", ""), http.StatusBadRequest, "empty")
}

func TestCreateFolder(t *testing.T) {
	s := newTestService(t, Config{MaxDepth: 3})
	uid, root := createUser(t, s, "alice")

	a := createFolder(t, s, uid, root, "a")
	wantError(t, do(t, s, "POST", "/api/v1/folders", map[string]any{
		"userId": uid, "parentFolderId": root, "uploadFolderName": "a",
	}), http.StatusConflict, `"a" already exists`)

	// Ids given as strings are accepted too; creatorId defaults to userId.
	rec := do(t, s, "POST", "/api/v1/folders", fmt.Sprintf(`{"userId":"%d","parentFolderId":"%d","uploadFolderName":"b"}`, uid, a))
	wantStatus(t, rec, http.StatusCreated)
	b := decodeAs[map[string]int64](t, rec)["id"]
	if p := listFolder(t, s, a, ""); len(p.Items) != 1 || p.Items[0].ID != b || p.Items[0].CreatorID != uid || p.Items[0].ParentID != a {
		t.Fatalf("listing of a: %+v, want one item b=%d created by %d", p, b, uid)
	}

	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		substr string
	}{
		{"unknown parent", map[string]any{"userId": uid, "parentFolderId": 9999, "uploadFolderName": "x"}, http.StatusNotFound, "parent folder 9999 not found"},
		{"unknown user", map[string]any{"userId": 9999, "parentFolderId": root, "uploadFolderName": "x"}, http.StatusNotFound, "user 9999 not found"},
		{"missing name", map[string]any{"userId": uid, "parentFolderId": root}, http.StatusBadRequest, "uploadFolderName is required"},
		{"long name", map[string]any{"userId": uid, "parentFolderId": root, "uploadFolderName": strings.Repeat("x", 300)}, http.StatusBadRequest, "longer than"},
		{"missing parent", map[string]any{"userId": uid, "uploadFolderName": "x"}, http.StatusBadRequest, "parentFolderId is required"},
		{"missing user", map[string]any{"parentFolderId": root, "uploadFolderName": "x"}, http.StatusBadRequest, "userId is required"},
		{"bad id", map[string]any{"userId": "abc", "parentFolderId": root, "uploadFolderName": "x"}, http.StatusBadRequest, "not an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, do(t, s, "POST", "/api/v1/folders", tc.body), tc.status, tc.substr)
		})
	}

	// Depth: root 0, a 1, b 2, c 3 = MaxDepth; nothing may go below c.
	c := createFolder(t, s, uid, b, "c")
	wantError(t, do(t, s, "POST", "/api/v1/folders", map[string]any{
		"userId": uid, "parentFolderId": c, "uploadFolderName": "d",
	}), http.StatusBadRequest, "maximum folder depth 3 exceeded")
	checkInvariants(t, s.folders)
}

func TestGetFolderOfAnyUser(t *testing.T) {
	s := newTestService(t, Config{})
	alice, aliceRoot := createUser(t, s, "alice")
	bob, _ := createUser(t, s, "bob")
	f := createFolder(t, s, alice, aliceRoot, "shared")
	createFolder(t, s, alice, f, "inner")
	p := listFolder(t, s, f, fmt.Sprintf("userId=%d", bob))
	if len(p.Items) != 1 || p.Items[0].Name != "inner" {
		t.Fatalf("bob listing alice's folder: %+v", p)
	}
	wantError(t, do(t, s, "GET", "/api/v1/folders/424242", nil), http.StatusNotFound, "folder 424242 not found")
	wantError(t, do(t, s, "GET", "/api/v1/folders/abc", nil), http.StatusBadRequest, "not a positive integer")
}

func TestMoveFolder(t *testing.T) {
	s := newTestService(t, Config{MaxDepth: 4, MoveCostPerNode: -1})
	uid, root := createUser(t, s, "alice")
	_, otherRoot := createUser(t, s, "bob")
	a := createFolder(t, s, uid, root, "a")
	a1 := createFolder(t, s, uid, a, "a1")
	a11 := createFolder(t, s, uid, a1, "a11")
	b := createFolder(t, s, uid, root, "b")
	createFolder(t, s, uid, b, "a1") // a name that clashes with a1
	c := createFolder(t, s, uid, root, "c")
	c1 := createFolder(t, s, uid, c, "c1")
	c11 := createFolder(t, s, uid, c1, "c11")

	// A good move: a under c; the subtree (a, a1, a11) goes to depths 2..4.
	rec := moveFolder(t, s, uid, a, c)
	wantStatus(t, rec, http.StatusOK)
	res := decodeAs[moveResult](t, rec)
	if res.ID != a || res.ParentID != c || res.Depth != 2 || res.Moved != 3 {
		t.Fatalf("move result %+v", res)
	}
	if p := listFolder(t, s, c, "sortBy=name"); len(p.Items) != 2 || p.Items[0].ID != a || p.Items[1].ID != c1 {
		t.Fatalf("c after move: %+v", p)
	}
	if p := listFolder(t, s, root, ""); len(p.Items) != 2 {
		t.Fatalf("root after move: %+v, want b and c", p)
	}
	checkInvariants(t, s.folders)

	// Moving to the current parent is a no-op.
	wantStatus(t, moveFolder(t, s, uid, a, c), http.StatusOK)

	for _, tc := range []struct {
		name         string
		id, target   int64
		status       int
		substr       string
		userOverride int64
	}{
		{"onto itself", a, a, http.StatusBadRequest, "into itself", 0},
		{"into own child", c, a, http.StatusBadRequest, "into its own subtree", 0},
		{"into own grandchild", a, a11, http.StatusBadRequest, "into its own subtree", 0},
		{"root", root, b, http.StatusBadRequest, "cannot move root", 0},
		{"name clash", a1, b, http.StatusConflict, `"a1" already exists`, 0},
		// c1 (with c11) under a11 (depth 4) would reach depth 6 > 4.
		{"too deep", c1, a11, http.StatusBadRequest, "maximum folder depth 4 exceeded", 0},
		{"other tree", a, otherRoot, http.StatusBadRequest, "another user's tree", 0},
		{"unknown folder", 9999, b, http.StatusNotFound, "folder 9999 not found", 0},
		{"unknown target", a, 9999, http.StatusNotFound, "target folder 9999 not found", 0},
		{"unknown user", a, b, http.StatusNotFound, "user 9999 not found", 9999},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := uid
			if tc.userOverride != 0 {
				u = tc.userOverride
			}
			wantError(t, moveFolder(t, s, u, tc.id, tc.target), tc.status, tc.substr)
		})
	}
	wantError(t, do(t, s, "PATCH", fmt.Sprintf("/api/v1/folders/%d", a), map[string]any{"userId": uid}),
		http.StatusBadRequest, "targetFolderId is required")

	// Depth exactly at the limit is allowed: c11 (depth 3, leaf) under a1 (depth 3) -> 4.
	wantStatus(t, moveFolder(t, s, uid, c11, a1), http.StatusOK)
	checkInvariants(t, s.folders)
}

// TestLockWaitTimeout holds a tree lock and checks that writers to that
// tree give up after LockWait with 503, while other trees are unaffected.
func TestLockWaitTimeout(t *testing.T) {
	s := newTestService(t, Config{LockWait: 50 * time.Millisecond})
	uid, root := createUser(t, s, "alice")
	a := createFolder(t, s, uid, root, "a")
	b := createFolder(t, s, uid, root, "b")
	other, otherRoot := createUser(t, s, "bob")

	tr := s.folders.folder(root).tree
	if _, err := tr.lock.lock(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	wantError(t, moveFolder(t, s, uid, a, b), http.StatusServiceUnavailable, "lock wait timeout exceeded")
	if el := time.Since(start); el < 45*time.Millisecond || el > time.Second {
		t.Errorf("lock wait took %v, want about 50ms", el)
	}
	rec := moveFolder(t, s, uid, a, b)
	if got := decodeAs[errorBody](t, rec); rec.Code != http.StatusServiceUnavailable || got.Error != "lock wait timeout exceeded" {
		t.Fatalf("got %d %+v, want 503 {\"error\":\"lock wait timeout exceeded\"}", rec.Code, got)
	}
	wantError(t, do(t, s, "POST", "/api/v1/folders", map[string]any{
		"userId": uid, "parentFolderId": root, "uploadFolderName": "x",
	}), http.StatusServiceUnavailable, "lock wait timeout exceeded")
	createFolder(t, s, other, otherRoot, "unaffected")
	listFolder(t, s, root, "") // reads do not take the lock

	if got := counterValue(t, s, "surge_demo_lock_wait_timeouts_total"); got != 3 {
		t.Errorf("lock wait timeouts = %v, want 3", got)
	}
	tr.lock.unlock()
	wantStatus(t, moveFolder(t, s, uid, a, b), http.StatusOK)
}

// TestMoveCostCausesContention checks that a big move holds the tree lock
// for MoveCostPerNode per folder, so a concurrent create with a short
// LockWait times out.
func TestMoveCostCausesContention(t *testing.T) {
	s := newTestService(t, Config{LockWait: 20 * time.Millisecond, MoveCostPerNode: time.Millisecond})
	rec := do(t, s, "POST", "/api/v1/seed", map[string]any{"userName": "big", "folders": 200, "fanout": 5})
	wantStatus(t, rec, http.StatusCreated)
	sr := decodeAs[seedResult](t, rec)
	// Folder firstId is the first child of the root; in a complete 5-ary
	// tree of 201 nodes its subtree holds 76 folders. Move it under its
	// sibling firstId+1.
	var wg sync.WaitGroup
	var moveRec = make(chan int, 1)
	start := time.Now()
	wg.Go(func() {
		moveRec <- moveFolder(t, s, sr.UserID, sr.FirstID, sr.FirstID+1).Code
	})
	eventually(t, time.Second, "move to take the lock", func() bool { return len(s.folders.folder(sr.RootFolderID).tree.lock.ch) == 1 })
	wantError(t, do(t, s, "POST", "/api/v1/folders", map[string]any{
		"userId": sr.UserID, "parentFolderId": sr.RootFolderID, "uploadFolderName": "late",
	}), http.StatusServiceUnavailable, "lock wait timeout exceeded")
	wg.Wait()
	if code := <-moveRec; code != http.StatusOK {
		t.Fatalf("move status %d", code)
	}
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Errorf("move of a 76-folder subtree at 1ms per folder took only %v", el)
	}
	if got := counterValue(t, s, "surge_demo_lock_waits_total"); got < 1 {
		t.Errorf("lock waits = %v, want at least 1", got)
	}
	checkInvariants(t, s.folders)
}

func TestPagination(t *testing.T) {
	s := newTestService(t, Config{})
	uid, root := createUser(t, s, "alice")
	other, _ := createUser(t, s, "bob")
	f := createFolder(t, s, uid, root, "big")
	want := map[int64]string{}
	names := rand.New(rand.NewPCG(1, 2)).Perm(25)
	for i, n := range names {
		creator := uid
		if i%5 == 0 {
			creator = other
		}
		rec := do(t, s, "POST", "/api/v1/folders", map[string]any{
			"userId": uid, "parentFolderId": f, "uploadFolderName": fmt.Sprintf("n%02d", n), "creatorId": creator,
		})
		wantStatus(t, rec, http.StatusCreated)
		id := decodeAs[map[string]int64](t, rec)["id"]
		want[id] = fmt.Sprintf("n%02d", n)
	}

	for _, sortBy := range []string{"createdAt", "name"} {
		t.Run(sortBy, func(t *testing.T) {
			seen := map[int64]bool{}
			var order []listPage
			cur := ""
			for pages := 0; ; pages++ {
				if pages > 10 {
					t.Fatal("too many pages")
				}
				q := url.Values{"userId": {fmt.Sprint(uid)}, "cursorType": {"Folder"}, "sortBy": {sortBy}, "size": {"7"}}
				if cur != "" {
					q.Set("cursor", cur)
				}
				p := listFolder(t, s, f, q.Encode())
				order = append(order, p)
				for _, it := range p.Items {
					if seen[it.ID] {
						t.Fatalf("folder %d listed twice", it.ID)
					}
					seen[it.ID] = true
					if it.ParentID != f || want[it.ID] != it.Name {
						t.Fatalf("item %+v does not match what was created", it)
					}
				}
				if p.NextCursor == nil {
					break
				}
				if len(p.Items) != 7 {
					t.Fatalf("non-final page has %d items", len(p.Items))
				}
				cur = *p.NextCursor
				if pages == 1 {
					// A folder created mid-way is listed at most once
					// and never repeats earlier items.
					want[createFolder(t, s, uid, f, "zz-"+sortBy)] = "zz-" + sortBy
				}
			}
			if len(order) != 4 {
				t.Errorf("got %d pages of size 7 for 26 items, want 4", len(order))
			}
			for id := range want {
				if !seen[id] {
					t.Errorf("folder %d (%s) never listed", id, want[id])
				}
			}
			var prev *struct {
				name string
				at   time.Time
				id   int64
			}
			for _, p := range order {
				for _, it := range p.Items {
					if prev != nil {
						ok := prev.at.Before(it.CreatedAt) || (prev.at.Equal(it.CreatedAt) && prev.id < it.ID)
						if sortBy == "name" {
							ok = prev.name < it.Name
						}
						if !ok {
							t.Fatalf("items out of %s order: %v then %+v", sortBy, *prev, it)
						}
					}
					prev = &struct {
						name string
						at   time.Time
						id   int64
					}{it.Name, it.CreatedAt, it.ID}
				}
			}
		})
	}

	t.Run("creatorId", func(t *testing.T) {
		p := listFolder(t, s, f, fmt.Sprintf("creatorId=%d&size=100", other))
		if len(p.Items) != 5 {
			t.Fatalf("got %d items created by bob, want 5", len(p.Items))
		}
		for _, it := range p.Items {
			if it.CreatorID != other {
				t.Fatalf("item %+v not created by %d", it, other)
			}
		}
	})

	t.Run("size", func(t *testing.T) {
		if p := listFolder(t, s, f, ""); len(p.Items) != 10 || p.NextCursor == nil {
			t.Fatalf("default page: %d items, cursor %v; want 10 and a cursor", len(p.Items), p.NextCursor)
		}
		if p := listFolder(t, s, f, "size=100"); len(p.Items) != 27 || p.NextCursor != nil {
			t.Fatalf("size=100: %d items, cursor %v; want 27 and null", len(p.Items), p.NextCursor)
		}
	})
}

func TestListBadParams(t *testing.T) {
	s := newTestService(t, Config{})
	uid, root := createUser(t, s, "alice")
	createFolder(t, s, uid, root, "a")
	createFolder(t, s, uid, root, "b")
	p := listFolder(t, s, root, "size=1")
	nameCursor := url.QueryEscape(*listFolder(t, s, root, "size=1&sortBy=name").NextCursor)
	for _, tc := range []struct{ query, substr string }{
		{"size=0", "size"},
		{"size=101", "size"},
		{"size=ten", "size"},
		{"sortBy=color", "sortBy"},
		{"cursorType=File", "cursorType"},
		{"userId=x", "userId"},
		{"creatorId=-3", "creatorId"},
		{"cursor=!!!", "invalid cursor"},
		{"cursor=" + "eDo1OjY", "invalid cursor"}, // base64 of "x:5:6"
		{"cursor=" + nameCursor, "cursor was made for sortBy=name"},
		{"sortBy=name&cursor=" + url.QueryEscape(*p.NextCursor), "cursor was made for sortBy=createdAt"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			wantError(t, do(t, s, "GET", fmt.Sprintf("/api/v1/folders/%d?%s", root, tc.query), nil), http.StatusBadRequest, tc.substr)
		})
	}
}

func TestSeed(t *testing.T) {
	s := newTestService(t, Config{})
	createUser(t, s, "before") // ids need not start at 1
	rec := do(t, s, "POST", "/api/v1/seed", map[string]any{"userName": "field-test-2", "folders": 8000})
	wantStatus(t, rec, http.StatusCreated)
	sr := decodeAs[seedResult](t, rec)
	if sr.LastID-sr.FirstID+1 != 8000 || sr.FirstID != sr.RootFolderID+1 {
		t.Fatalf("seed result %+v: want 8000 contiguous ids after the root", sr)
	}
	for id := sr.FirstID; id <= sr.LastID; id++ {
		f := s.folders.folder(id)
		if f == nil || f.tree.root.id != sr.RootFolderID {
			t.Fatalf("folder %d missing or in another tree", id)
		}
	}
	listFolder(t, s, sr.LastID, "")
	if p := listFolder(t, s, sr.RootFolderID, "size=100"); len(p.Items) != 10 {
		t.Fatalf("root of a fanout-10 seed has %d children, want 10", len(p.Items))
	}
	// The seeded tree takes new folders and moves like any other.
	createFolder(t, s, sr.UserID, sr.LastID, "new")
	wantStatus(t, moveFolder(t, s, sr.UserID, sr.FirstID+5, sr.LastID), http.StatusOK)
	checkInvariants(t, s.folders)

	wantError(t, do(t, s, "POST", "/api/v1/seed", map[string]any{"folders": 0}), http.StatusBadRequest, "folders must be between")
	wantError(t, do(t, s, "POST", "/api/v1/seed", map[string]any{"folders": 100, "fanout": 1}), http.StatusBadRequest, "maximum depth 20")
}

// TestConcurrentCreatesAndMoves hammers two trees with creates, moves and
// reads from many goroutines, then checks the tree invariants.
func TestConcurrentCreatesAndMoves(t *testing.T) {
	s := newTestService(t, Config{MaxDepth: 6, LockWait: 5 * time.Second, MoveCostPerNode: -1})
	type treeInfo struct{ user, root int64 }
	trees := make([]treeInfo, 2)
	for i := range trees {
		trees[i].user, trees[i].root = createUser(t, s, fmt.Sprint("user", i))
	}
	var (
		mu     sync.Mutex
		ids    = map[int][]int64{0: {trees[0].root}, 1: {trees[1].root}}
		counts sync.Map
	)
	pick := func(r *rand.Rand, tr int) int64 {
		mu.Lock()
		defer mu.Unlock()
		l := ids[tr]
		return l[r.IntN(len(l))]
	}
	const workers, ops = 16, 150
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 99))
			for range ops {
				tr := r.IntN(len(trees))
				switch op := r.IntN(10); {
				case op < 5:
					rec := do(t, s, "POST", "/api/v1/folders", map[string]any{
						"userId": trees[tr].user, "parentFolderId": pick(r, tr),
						"uploadFolderName": fmt.Sprintf("f%d", r.IntN(20)),
					})
					if rec.Code == http.StatusCreated {
						var v map[string]int64
						if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
							t.Errorf("decode create response: %v", err)
							return
						}
						mu.Lock()
						ids[tr] = append(ids[tr], v["id"])
						mu.Unlock()
					}
					countStatus(&counts, "create", rec.Code)
				case op < 9:
					rec := moveFolder(t, s, trees[tr].user, pick(r, tr), pick(r, tr))
					countStatus(&counts, "move", rec.Code)
				default:
					rec := do(t, s, "GET", fmt.Sprintf("/api/v1/folders/%d?size=5&sortBy=name", pick(r, tr)), nil)
					countStatus(&counts, "list", rec.Code)
				}
			}
		})
	}
	wg.Wait()
	counts.Range(func(k, v any) bool {
		key := k.(string)
		switch {
		case strings.HasSuffix(key, " 500"), strings.HasSuffix(key, " 503"), strings.HasSuffix(key, " 404"):
			t.Errorf("%s: %d responses", key, v.(int))
		}
		t.Logf("%s: %d", key, v.(int))
		return true
	})
	if _, ok := counts.Load("move 200"); !ok {
		t.Error("no move succeeded")
	}
	checkInvariants(t, s.folders)
}

func countStatus(m *sync.Map, op string, code int) {
	key := fmt.Sprintf("%s %d", op, code)
	for {
		v, loaded := m.LoadOrStore(key, 1)
		if !loaded || m.CompareAndSwap(key, v, v.(int)+1) {
			return
		}
	}
}

// checkInvariants verifies the store: every folder is reachable from its
// tree's root, depths match parent depth plus one and stay within
// MaxDepth, parent and children links agree, names are unique per parent
// and there are no cycles. The caller makes sure nothing runs
// concurrently.
func checkInvariants(t *testing.T, st *folderStore) {
	t.Helper()
	st.mu.RLock()
	defer st.mu.RUnlock()
	roots := map[*folder]bool{}
	for _, u := range st.users {
		if u.root.parent != nil || u.root.depth != 0 || u.root.tree.root != u.root {
			t.Fatalf("root %d of user %d is not a root", u.root.id, u.id)
		}
		roots[u.root] = true
	}
	for id, f := range st.folders {
		if f.id != id {
			t.Fatalf("folder %d indexed as %d", f.id, id)
		}
		steps := 0
		for a := f; a.parent != nil; a = a.parent {
			steps++
			if steps > len(st.folders) {
				t.Fatalf("cycle above folder %d", id)
			}
			if a.parent.tree != f.tree {
				t.Fatalf("folder %d has an ancestor in another tree", id)
			}
		}
		if f.depth != steps {
			t.Fatalf("folder %d has depth %d but %d ancestors", id, f.depth, steps)
		}
		if f.depth > st.maxDepth {
			t.Fatalf("folder %d at depth %d beyond max %d", id, f.depth, st.maxDepth)
		}
		if f.parent == nil {
			if f.tree.root != f || !roots[f] {
				t.Fatalf("folder %d has no parent but is no user's root", id)
			}
			continue
		}
		if f.parent.children[f.name] != f {
			t.Fatalf("folder %d (%q) missing from its parent %d's children", id, f.name, f.parent.id)
		}
		if f.depth != f.parent.depth+1 {
			t.Fatalf("folder %d depth %d, parent depth %d", id, f.depth, f.parent.depth)
		}
	}
	reached := 0
	for root := range roots {
		stack := []*folder{root}
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			reached++
			if st.folders[f.id] != f {
				t.Fatalf("folder %d reachable but not indexed", f.id)
			}
			for name, c := range f.children {
				if c.parent != f || c.name != name {
					t.Fatalf("child %d of %d has parent %v, name %q under key %q", c.id, f.id, c.parent.id, c.name, name)
				}
				stack = append(stack, c)
			}
		}
	}
	if reached != len(st.folders) {
		t.Fatalf("%d folders reachable from roots, %d indexed", reached, len(st.folders))
	}
}
