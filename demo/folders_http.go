package demo

import (
	"net/http"
	"strconv"
	"strings"
)

// Page sizes of a folder listing.
const (
	defaultPageSize = 10
	maxPageSize     = 100
)

// handleCreateUser serves POST /api/v1/users {"userName"}.
func (s *Service) handleCreateUser(w http.ResponseWriter, r *http.Request) {
	var req struct {
		UserName string `json:"userName"`
	}
	if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	if strings.TrimSpace(req.UserName) == "" {
		writeError(w, http.StatusBadRequest, "userName is required")
		return
	}
	u := s.folders.createUser(req.UserName)
	writeJSON(w, http.StatusCreated, map[string]int64{"id": u.id, "rootFolderId": u.root.id})
}

// handleListFolder serves GET /api/v1/folders/{id}: a page of the
// folder's children.
func (s *Service) handleListFolder(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	q, err := parsePageQuery(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	p, err := s.folders.list(id, q)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// handleCreateFolder serves POST /api/v1/folders.
func (s *Service) handleCreateFolder(w http.ResponseWriter, r *http.Request) {
	var req struct {
		UserID           flexID `json:"userId"`
		ParentFolderID   flexID `json:"parentFolderId"`
		UploadFolderName string `json:"uploadFolderName"`
		CreatorID        flexID `json:"creatorId"`
	}
	if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	f, err := s.folders.create(r.Context(), int64(req.UserID), int64(req.ParentFolderID), req.UploadFolderName, int64(req.CreatorID))
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": f.id})
}

// handleMoveFolder serves PATCH /api/v1/folders/{id} {"userId",
// "targetFolderId"}.
func (s *Service) handleMoveFolder(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r)
	if err != nil {
		writeErr(w, err)
		return
	}
	var req struct {
		UserID         flexID `json:"userId"`
		TargetFolderID flexID `json:"targetFolderId"`
	}
	if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	res, err := s.folders.move(r.Context(), int64(req.UserID), id, int64(req.TargetFolderID))
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// handleSeed serves POST /api/v1/seed {"userName","folders","fanout"}.
func (s *Service) handleSeed(w http.ResponseWriter, r *http.Request) {
	req := struct {
		UserName string `json:"userName"`
		Folders  int    `json:"folders"`
		Fanout   int    `json:"fanout"`
	}{UserName: "seed", Fanout: defaultSeedFanout}
	if err := decodeJSON(w, r, maxJSONBodyBytes, &req); err != nil {
		writeErr(w, err)
		return
	}
	res, err := s.folders.seed(req.UserName, req.Folders, req.Fanout)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, res)
}

// pathID parses the {id} path segment.
func pathID(r *http.Request) (int64, error) {
	s := r.PathValue("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, errorf(http.StatusBadRequest, "folder id %q is not a positive integer", s)
	}
	return id, nil
}

// parsePageQuery parses userId, cursorType, sortBy, size, creatorId and
// cursor. userId is checked for form only: any user may read any folder.
func parsePageQuery(r *http.Request) (pageQuery, error) {
	v := r.URL.Query()
	q := pageQuery{sortBy: sortByCreatedAt, size: defaultPageSize}
	optID := func(name string) (int64, error) {
		s := v.Get(name)
		if s == "" {
			return 0, nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, errorf(http.StatusBadRequest, "%s %q is not a positive integer", name, s)
		}
		return n, nil
	}
	if _, err := optID("userId"); err != nil {
		return q, err
	}
	var err error
	if q.creatorID, err = optID("creatorId"); err != nil {
		return q, err
	}
	if ct := v.Get("cursorType"); ct != "" && ct != "Folder" {
		return q, errorf(http.StatusBadRequest, "cursorType %q is not supported, want Folder", ct)
	}
	switch sb := v.Get("sortBy"); sb {
	case "", sortByCreatedAt:
	case sortByName:
		q.sortBy = sortByName
	default:
		return q, errorf(http.StatusBadRequest, "sortBy %q is not supported, want %s or %s", sb, sortByCreatedAt, sortByName)
	}
	if s := v.Get("size"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPageSize {
			return q, errorf(http.StatusBadRequest, "size %q must be an integer from 1 to %d", s, maxPageSize)
		}
		q.size = n
	}
	if s := v.Get("cursor"); s != "" {
		c, err := decodeCursor(s)
		if err != nil {
			return q, errorf(http.StatusBadRequest, "%v", err)
		}
		if c.sortBy != q.sortBy {
			return q, errorf(http.StatusBadRequest, "cursor was made for sortBy=%s, not sortBy=%s", c.sortBy, q.sortBy)
		}
		q.after = &c
	}
	return q, nil
}
