package demo

import (
	"io"
	"net/http"
)

func handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(OpenAPI)
}

// appPage is GET /app: a small page whose script runs a login journey the
// way a single-page application does, so that a browser's recording of it
// (HAR) holds a session cookie, a CSRF token and an id that later requests
// reuse. When it is done, the body has data-done="1".
const appPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>surge demo app</title>
<link rel="stylesheet" href="/app/style.css"></head>
<body><p id="out">working…</p>
<script>
(async () => {
  const login = await fetch("/api/v1/login", {method: "POST",
    headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: "userName=ann&password=secret"});
  const session = await login.json();
  await fetch("/api/v1/session");
  const created = await fetch("/api/v1/notes", {method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": session.csrfToken},
    body: JSON.stringify({text: "hello from the browser"})});
  const note = await created.json();
  const read = await fetch("/api/v1/notes/" + note.id);
  document.getElementById("out").textContent = "note " + note.id + ": " + read.status;
  document.body.dataset.done = "1";
})();
</script></body></html>
`

const appStyle = "body { font-family: sans-serif; }\n"

func handleApp(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = io.WriteString(w, appPage)
}

func handleAppStyle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/css")
	_, _ = io.WriteString(w, appStyle)
}
