/* surge live page: follows the run through Server-Sent Events (/events),
 * redraws the report with window.surgeDraw, and steers the run through the
 * JSON API with the token of the page's URL. */
(function () {
  "use strict";
  var token = new URLSearchParams(location.search).get("token") || "";
  var q = token ? "?token=" + encodeURIComponent(token) : "";

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text != null) e.textContent = text;
    return e;
  }
  var style = el("style");
  style.textContent = "#live-bar{position:sticky;top:0;z-index:10;background:#fff;border-bottom:1px solid #ccc;padding:8px 12px;" +
    "display:flex;flex-wrap:wrap;gap:12px;align-items:center;font:14px system-ui,sans-serif}" +
    "#live-bar .v{font-weight:600;font-variant-numeric:tabular-nums}#live-bar button{padding:4px 10px}" +
    "#live-msg{color:#555}#live-msg.err{color:#b3261e}#live-timeline{margin:0;padding-left:18px;font-size:13px}";
  document.head.appendChild(style);

  var bar = el("div", { id: "live-bar" });
  function fig(id, label) {
    var s = el("span", null, label + " ");
    s.appendChild(el("span", { id: id, class: "v" }, "–"));
    bar.appendChild(s);
  }
  fig("live-state", "");
  fig("live-elapsed", "elapsed");
  fig("live-requests", "requests");
  fig("live-rps", "rps");
  fig("live-p95", "p95");
  fig("live-users", "users");
  function button(id, text, fn) { var b = el("button", { id: id, type: "button" }, text); b.addEventListener("click", fn); bar.appendChild(b); return b; }
  button("live-stop", "Stop", function () { post("/api/stop", {}); });
  button("live-abort", "Abort", function () { post("/api/stop", { abort: true }); });
  button("live-hold", "Hold", function () { post("/api/load", { hold: true }); });
  button("live-resume", "Resume", function () { post("/api/load", { resume: true }); });
  var level = el("input", { id: "live-level", type: "number", min: "0", step: "any", size: "8", placeholder: "level" });
  bar.appendChild(level);
  var unit = el("span", { id: "live-unit" }, "");
  bar.appendChild(unit);
  button("live-apply", "Set load", function () {
    var v = parseFloat(level.value);
    if (isNaN(v)) { say("type a number first", true); return; }
    var body = unit.textContent === "users" ? { users: v } : { rate: v };
    post("/api/load", body);
  });
  var msg = el("span", { id: "live-msg" });
  bar.appendChild(msg);
  var tl = el("ol", { id: "live-timeline" });
  document.body.insertBefore(tl, document.body.firstChild);
  document.body.insertBefore(bar, document.body.firstChild);

  function say(text, err) { msg.textContent = text; msg.className = err ? "err" : ""; }
  function post(path, body) {
    fetch(path, { method: "POST", headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json", "X-Surge-Client": "page" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().then(function (j) { say(r.ok ? "done" : (j.error || r.statusText), !r.ok); }); })
      .catch(function (e) { say(String(e), true); });
  }
  function fmt(v, d) { return v == null ? "–" : (+v).toFixed(d); }

  function show(u) {
    var s = u.status;
    document.getElementById("live-state").textContent = s.state;
    document.getElementById("live-elapsed").textContent = fmt(s.elapsed_s, 0) + " / " + fmt(s.planned_s, 0) + " s";
    document.getElementById("live-requests").textContent = s.requests;
    document.getElementById("live-rps").textContent = s.last_second ? fmt(s.last_second.rps, 1) : "–";
    document.getElementById("live-p95").textContent = s.last_second ? fmt(s.last_second.latency_ms.p95, 2) + " ms" : "–";
    document.getElementById("live-users").textContent = s.last_second ? s.last_second.users : "–";
    var steerable = (s.scenarios || []).filter(function (c) { return c.unit; });
    unit.textContent = steerable.length ? steerable[0].unit : "(this load cannot change)";
    while (tl.firstChild) tl.removeChild(tl.firstChild);
    (s.timeline || []).forEach(function (e) {
      tl.appendChild(el("li", null, fmt(e.t, 1) + " s: " + e.kind + (e.level != null && e.kind === "load" ? " → " + e.level + " " + (e.unit || "") : "") +
        (e.scenario ? " (" + e.scenario + ")" : "") + " from " + e.by));
    });
    if (window.surgeDraw) window.surgeDraw(u.report);
    document.body.setAttribute("data-live", s.state);
  }

  var es = new EventSource("/events" + q);
  es.addEventListener("update", function (ev) {
    try { show(JSON.parse(ev.data)); } catch (e) { say("could not draw the update: " + e, true); }
  });
  es.addEventListener("done", function () { es.close(); say("the run is over; the result is written"); document.body.setAttribute("data-live", "done"); });
  es.onerror = function () { if (document.body.getAttribute("data-live") !== "done") say("lost the connection to surge; retrying", true); };
})();
