/* surge report page: draws a report or a comparison from the JSON data
 * section of this file (id "surge-data"). Numbers in tables are the strings
 * the data section holds, the same the terminal summary prints; the script
 * only lays them out, sorts tables and draws the charts with uPlot. */
(function () {
  "use strict";

  var CHART_HEIGHT = 260;
  var charts = [];

  // Colours: a calm palette, green for success, red for failure.
  var C = {
    ok: "#2a9d8f", failed: "#d62839", dropped: "#f4a261",
    p50: "#4c78a8", p95: "#f58518", p99: "#d62839", max: "#8c8c8c",
    users: "#4c78a8", busy: "#9ecae9", offered: "#b279a2",
    cpu: "#4c78a8", lag: "#f58518",
    open: "#4c78a8", events: "#54a24b", opened: "#b279a2", rps: "#8c8c8c"
  };
  // Bands shade a stretch of a chart, marks draw a line at one point: the
  // warm-up, an untrustworthy generator, a collapse; a capacity search's
  // maximum and failed levels.
  var BAND = {
    warmup: { fill: "rgba(110,110,110,0.11)", text: "#5b6475" },
    untrustworthy: { fill: "rgba(230,140,0,0.13)", hatch: "rgba(200,110,0,0.35)", text: "#8a5a00" },
    collapse: { fill: "rgba(214,40,57,0.10)", text: "#b3261e" },
    endpoint: { fill: "rgba(106,61,154,0.12)", text: "#4b2a6e" }
  };
  var MARK = { change: "#6a3d9a", peak: "#1e7f5c", collapse: "#d62839", recovered: "#54a24b", max: "#1e7f5c", failed: "#d62839" };
  var END_COLOURS = { held: "#54a24b", server_closed: "#f58518", reset: "#9d755d", timeout: "#b279a2",
    http_error: "#d62839", connect_failed: "#4c78a8", interrupted: "#79706e", error: "#e6b800" };
  var PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#d62839", "#b279a2", "#72b7b2", "#9d755d", "#e6b800", "#ff9da6", "#79706e"];

  // el builds an element: el("td", {class: "n"}, "text" or [children]).
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] == null || attrs[k] === false) return;
        if (k === "class") e.className = attrs[k];
        else e.setAttribute(k, attrs[k]);
      });
    }
    if (children == null) return e;
    if (!Array.isArray(children)) children = [children];
    children.forEach(function (c) {
      if (c == null) return;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return e;
  }

  // Formatting for axes and hover values. ms mirrors report.Ms.
  function ms(v) {
    if (v == null || isNaN(v)) return "–";
    if (v === 0) return "0";
    var a = Math.abs(v);
    if (a >= 10000) return (v / 1000).toFixed(1) + "s";
    if (a >= 1000) return (v / 1000).toFixed(2) + "s";
    if (a >= 100) return v.toFixed(0) + "ms";
    if (a >= 10) return v.toFixed(1) + "ms";
    if (a >= 1) return v.toFixed(2) + "ms";
    return (v * 1000).toFixed(0) + "µs";
  }
  function num(v) {
    if (v == null || isNaN(v)) return "–";
    var a = Math.abs(v);
    if (a >= 1e6) return +(v / 1e6).toFixed(2) + "M";
    if (a >= 1e4) return +(v / 1e3).toFixed(1) + "k";
    if (a >= 100) return v.toFixed(0);
    if (a >= 10) return +v.toFixed(1) + "";
    return +v.toFixed(2) + "";
  }
  function dur(s) {
    if (s == null || isNaN(s)) return "–";
    var out = "", neg = s < 0;
    s = Math.abs(s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = Math.round((s % 60) * 10) / 10;
    if (sec === 60) { m++; sec = 0; }
    if (h) out += h + "h";
    if (m) out += m + "m";
    if (sec || !out) out += sec + "s";
    return (neg ? "-" : "") + out;
  }
  function formatter(unit) {
    if (unit === "ms") return ms;
    if (unit === "%") return function (v) { return v == null || isNaN(v) ? "–" : +v.toFixed(2) + "%"; };
    if (unit === "users") return function (v) { return v == null || isNaN(v) ? "–" : num(v); };
    return function (v) { return v == null || isNaN(v) ? "–" : num(v) + " " + unit; };
  }
  function axisFormatter(unit) {
    if (unit === "ms") return ms;
    if (unit === "%") return function (v) { return v == null ? "" : +v.toFixed(2) + "%"; };
    return function (v) { return v == null ? "" : num(v); };
  }
  function fromZero(u, min, max) {
    return [0, max != null && max > 0 ? max * 1.08 : 1];
  }
  // fromZeroRoomy leaves room at the top for the labels of marks.
  function fromZeroRoomy(u, min, max) {
    return [0, max != null && max > 0 ? max * 1.3 : 1];
  }
  // spaced returns the values of vals, ascending, that are on the x axis
  // and at least 44 pixels from the one before: ticks that do not overlap.
  function spaced(u, vals) {
    var out = [], last = -Infinity, sx = u.scales.x;
    vals.forEach(function (v) {
      if (v < sx.min || v > sx.max) return;
      var p = u.valToPos(v, "x");
      if (p - last >= 44) { out.push(v); last = p; }
    });
    return out;
  }
  // padded keeps the first and last points of a chart off its edges.
  function padded(u, min, max) {
    var pad = max > min ? (max - min) * 0.05 : Math.max(Math.abs(min) * 0.1, 1);
    return [min - pad, max + pad];
  }
  function maxOf(values) {
    var m = 0;
    for (var i = 0; i < values.length; i++) if (values[i] > m) m = values[i];
    return m;
  }
  function anyPositive(values) {
    for (var i = 0; i < values.length; i++) if (values[i] > 0) return true;
    return false;
  }

  // chart draws a line chart into parent. spec: {key, title, x, yLabel,
  // unit, series: [{label, values, color, dash, fill, width, scale, unit,
  // points, pointsOnly}], y2: {label, unit}, note, bands, marks, key items
  // (keyItems), and for an x axis other than time: xLabel, xAxis (tick
  // format), xValue (hover format), xLog, xPad, xSplits (values to tick),
  // sync}.
  function chart(parent, spec) {
    var fig = el("figure", { class: "chart", "data-chart": spec.key || spec.title });
    fig.appendChild(el("figcaption", null, spec.title));
    var plot = el("div", { class: "plot" });
    fig.appendChild(plot);
    if (spec.keyItems && spec.keyItems.length) fig.appendChild(chartKey(spec.keyItems));
    if (spec.note) fig.appendChild(el("p", { class: "note" }, spec.note));
    parent.appendChild(fig);
    var gridStroke = "rgba(0,0,0,0.07)";
    var axes = [
      { label: spec.xLabel || "time since start", values: function (u, vals) { return vals.map(spec.xAxis || dur); },
        stroke: "#555", grid: { stroke: gridStroke }, ticks: { stroke: gridStroke } },
      { label: spec.yLabel, values: function (u, vals) { return vals.map(axisFormatter(spec.unit)); },
        size: 64, stroke: "#555", grid: { stroke: gridStroke }, ticks: { stroke: gridStroke } }
    ];
    var bands = (spec.bands || []).filter(function (b) { return !b.chart || b.chart === spec.key; });
    var marks = (spec.marks || []).filter(function (m) { return !m.chart || m.chart === spec.key; });
    var yRange = marks.length ? fromZeroRoomy : fromZero;
    var scales = { x: { time: false }, y: { range: yRange } };
    if (spec.xSplits) {
      axes[0].splits = function (u) { return spaced(u, spec.xSplits); };
      axes[0].filter = function (u, splits) { return splits; }; // a log axis would label only some
    }
    if (spec.xLog) scales.x = { time: false, distr: 3, log: 10, range: function (u, min, max) { return [min / 1.15, max * 1.15]; } };
    else if (spec.xPad) scales.x = { time: false, range: padded };
    if (spec.y2) {
      axes.push({ scale: "y2", side: 1, label: spec.y2.label, size: 64, stroke: "#555",
        values: function (u, vals) { return vals.map(axisFormatter(spec.y2.unit)); }, grid: { show: false } });
      scales.y2 = { range: yRange };
    }
    var series = [{ label: spec.xName || "time", value: spec.xValue || function (u, v) { return dur(v); } }];
    spec.series.forEach(function (s) {
      var f = formatter(s.unit || spec.unit);
      var o = {
        label: s.label, stroke: s.color, width: s.width || 2, dash: s.dash, fill: s.fill,
        scale: s.scale || "y", spanGaps: false,
        value: function (u, v) { return f(v); }
      };
      if (s.points || s.pointsOnly) o.points = { show: true, size: s.pointsOnly ? 9 : 6, fill: s.pointsOnly ? s.color : "#fff", stroke: s.color, width: 2 };
      if (s.pointsOnly) o.paths = function () { return null; };
      series.push(o);
    });
    var data = [spec.x].concat(spec.series.map(function (s) { return s.values; }));
    var u = new uPlot({
      width: Math.max(plot.clientWidth, 300), height: CHART_HEIGHT,
      cursor: { sync: { key: spec.sync || "surge" }, drag: { x: true, y: false } },
      legend: { live: true },
      scales: scales, axes: axes, series: series,
      hooks: {
        drawAxes: [function (u) { drawBands(u, bands); }],
        draw: [function (u) { drawMarks(u, marks); }]
      }
    }, data, plot);
    charts.push({ u: u, plot: plot });
    return u;
  }

  // px converts CSS pixels to the canvas's pixels.
  function px(n) { return n * uPlot.pxRatio; }
  function canvasFont(ctx) { ctx.font = px(11) + "px system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif"; }

  // hatch is the diagonal stripes of an untrustworthy band.
  var hatches = {};
  function hatch(ctx, colour) {
    var key = colour + uPlot.pxRatio;
    if (hatches[key]) return hatches[key];
    var n = Math.round(px(8)), c = document.createElement("canvas");
    c.width = c.height = n;
    var g = c.getContext("2d");
    g.strokeStyle = colour;
    g.lineWidth = px(1);
    g.beginPath(); g.moveTo(0, n); g.lineTo(n, 0); g.moveTo(-1, 1); g.lineTo(1, -1); g.moveTo(n - 1, n + 1); g.lineTo(n + 1, n - 1); g.stroke();
    return (hatches[key] = ctx.createPattern(c, "repeat"));
  }

  // drawBands shades each band's stretch of the x axis, under the series,
  // with its label at the bottom when it fits.
  function drawBands(u, bands) {
    if (!bands.length) return;
    var ctx = u.ctx, b = u.bbox;
    ctx.save();
    canvasFont(ctx);
    ctx.textBaseline = "bottom";
    ctx.textAlign = "left";
    bands.forEach(function (band) {
      var style = BAND[band.kind] || BAND.warmup;
      var x0 = Math.max(u.valToPos(band.from, "x", true), b.left), x1 = Math.min(u.valToPos(band.to, "x", true), b.left + b.width);
      if (!(x1 > x0)) return;
      ctx.fillStyle = style.fill;
      ctx.fillRect(x0, b.top, x1 - x0, b.height);
      if (style.hatch) { ctx.fillStyle = hatch(ctx, style.hatch); ctx.fillRect(x0, b.top, x1 - x0, b.height); }
      var w = ctx.measureText(band.label).width;
      if (w + px(8) <= x1 - x0) {
        var ty = b.top + b.height - px(4);
        ctx.fillStyle = "rgba(255,255,255,0.8)";
        ctx.fillRect(x0 + px(3), ty - px(13), w + px(2), px(13));
        ctx.fillStyle = style.text;
        ctx.fillText(band.label, x0 + px(4), ty);
      }
    });
    ctx.restore();
  }

  // drawMarks draws a dashed vertical line at each mark, with its label
  // near the top (one row per mark, so close marks do not overlap) and a
  // dot at its value if it has one.
  function drawMarks(u, marks) {
    if (!marks.length) return;
    var ctx = u.ctx, b = u.bbox;
    ctx.save();
    canvasFont(ctx);
    ctx.textBaseline = "top";
    marks.forEach(function (m, i) {
      var x = u.valToPos(m.at, "x", true);
      if (!(x >= b.left - 1 && x <= b.left + b.width + 1)) return;
      var colour = MARK[m.kind] || "#555";
      ctx.strokeStyle = colour;
      ctx.lineWidth = px(1.5);
      ctx.setLineDash([px(5), px(3)]);
      ctx.beginPath(); ctx.moveTo(x, b.top); ctx.lineTo(x, b.top + b.height); ctx.stroke();
      ctx.setLineDash([]);
      if (m.value != null) {
        var y = u.valToPos(m.value, "y", true);
        ctx.fillStyle = colour; ctx.strokeStyle = "#fff"; ctx.lineWidth = px(1.5);
        ctx.beginPath(); ctx.arc(x, y, px(4.5), 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      }
      var w = ctx.measureText(m.label).width, ty = b.top + px(4 + 15 * i);
      var right = x + px(4) + w <= b.left + b.width;
      ctx.textAlign = right ? "left" : "right";
      var tx = right ? x + px(4) : x - px(4);
      ctx.fillStyle = "rgba(255,255,255,0.85)";
      ctx.fillRect(right ? tx - px(1) : tx - w - px(1), ty - px(1), w + px(2), px(14));
      ctx.fillStyle = colour;
      ctx.fillText(m.label, tx, ty);
    });
    ctx.restore();
  }

  // chartKey explains bands and marks: [{kind, text, mark}].
  function chartKey(items) {
    return el("ul", { class: "chart-key" }, items.map(function (it) {
      return el("li", null, [el("span", { class: (it.mark ? "key-mark " : "key-band ") + it.kind,
        style: it.mark ? "border-color:" + (MARK[it.kind] || "#555") : null }), it.text]);
    }));
  }
  function keyItems(bands, marks) {
    return bands.map(function (b) { return { kind: b.kind, text: b.text + (b.chart ? " (on the " + b.chart + " chart)" : "") }; })
      .concat(marks.map(function (m) { return { kind: m.kind, text: m.text + (m.chart ? " (on the " + m.chart + " chart)" : ""), mark: true }; }));
  }

  window.addEventListener("resize", function () {
    charts.forEach(function (c) { c.u.setSize({ width: Math.max(c.plot.clientWidth, 300), height: CHART_HEIGHT }); });
  });

  // table builds a table. cols: [{label, key (for sorting), num, cell(row) → string|node, title}];
  // opts: {sortable, name, foot: [rows], rowClass(row) → class}.
  function table(cols, rows, opts) {
    opts = opts || {};
    var t = el("table", { class: "data" + (opts.sortable ? " sortable" : ""), "data-table": opts.name });
    var wrap = el("div", { class: "scroll" }, t);
    var tr = el("tr");
    cols.forEach(function (c, i) {
      var th = el("th", { class: c.num ? "n" : null, title: c.title, scope: "col" }, c.label);
      if (opts.sortable && c.sort) {
        th.tabIndex = 0;
        th.addEventListener("click", function () { sortBy(t, cols, i); });
        th.addEventListener("keydown", function (e) { if (e.key === "Enter") sortBy(t, cols, i); });
      }
      tr.appendChild(th);
    });
    t.appendChild(el("thead", null, tr));
    var body = el("tbody");
    rows.forEach(function (r) {
      var tr = rowOf(cols, r);
      if (opts.rowClass) tr.className = opts.rowClass(r) || "";
      body.appendChild(tr);
    });
    t.appendChild(body);
    if (opts.foot && opts.foot.length) {
      var foot = el("tfoot");
      opts.foot.forEach(function (r) { foot.appendChild(rowOf(cols, r)); });
      t.appendChild(foot);
    }
    return wrap;
  }
  function rowOf(cols, r) {
    var tr = el("tr");
    tr._row = r;
    cols.forEach(function (c) {
      var v = c.cell(r);
      var td = el("td", { class: (c.num ? "n " : "") + (c.cls ? c.cls(r) || "" : "") });
      if (v != null && typeof v === "object") td.appendChild(v); else td.textContent = v == null ? "" : v;
      tr.appendChild(td);
    });
    return tr;
  }
  function sortBy(t, cols, i) {
    var c = cols[i], ths = t.tHead.rows[0].cells;
    var dir = ths[i].getAttribute("aria-sort") === "descending" ? "ascending" : "descending";
    for (var k = 0; k < ths.length; k++) ths[k].removeAttribute("aria-sort");
    ths[i].setAttribute("aria-sort", dir);
    var body = t.tBodies[0];
    var trs = Array.prototype.slice.call(body.rows);
    trs.sort(function (a, b) {
      var x = c.sort(a._row), y = c.sort(b._row), r;
      if (typeof x === "string") r = x.localeCompare(y); else r = x - y;
      return dir === "ascending" ? r : -r;
    });
    trs.forEach(function (tr) { body.appendChild(tr); });
  }

  // figures lays out key figures: [[label, value, unit]].
  function figures(id, list) {
    return el("div", { class: "figures", id: id }, list.map(function (f) {
      return el("div", { class: "figure" }, [el("span", { class: "label" }, f[0]),
        el("span", { class: "value" }, [f[1], f[2] ? el("small", null, " " + f[2]) : null])]);
    }));
  }

  function section(app, title, id) {
    var s = el("section", { id: id });
    s.appendChild(el("h2", null, title));
    app.appendChild(s);
    return s;
  }
  function meta(pairs) {
    var dl = el("dl", { class: "meta" });
    pairs.forEach(function (p) {
      if (p[1] == null || p[1] === "") return;
      dl.appendChild(el("div", null, [el("dt", null, p[0]), el("dd", null, String(p[1]))]));
    });
    return dl;
  }

  // The report of one run.
  function renderReport(d, app) {
    var run = d.run;
    app.appendChild(el("header", null, [
      el("p", { class: "kicker" }, "surge report"),
      el("h1", null, run.title),
      meta([["Scenario", run.scenario], ["Target", run.target], ["Load model", run.load], ["Started", run.start],
        ["Duration", run.duration + (run.interrupted ? " (interrupted)" : "")], ["Warm-up", run.warmup], ["Tool", run.tool], ["Generator host", run.host],
        ["Run", run.id], ["Segments", run.segment || null]])
    ]));

    // Verdict.
    var v = d.verdict;
    var verdict = el("section", { id: "verdict", class: "verdict " + v.status });
    verdict.appendChild(el("h2", null, v.headline));
    if (v.thresholds.length) {
      verdict.appendChild(el("ul", { class: "thresholds" }, v.thresholds.map(function (t) {
        return el("li", { class: t.ok ? "pass" : "fail" }, [
          el("span", { class: "badge" }, t.ok ? "PASS" : "FAIL"), " ", el("code", null, t.expr),
          " actual " + t.actual + (t.note ? " (" + t.note + ")" : "")]);
      })));
    }
    if (v.findings.length) {
      verdict.appendChild(el("ul", { class: "findings" }, v.findings.map(function (f) {
        return el("li", { class: f.kind }, f.text);
      })));
    }
    var g = v.generator;
    var gen = el("div", { class: "generator " + (g.healthy ? "healthy" : "warn") }, [
      el("strong", null, g.healthy ? "Generator healthy: " : "Generator under strain: "), g.text]);
    if (g.warnings.length) gen.appendChild(el("ul", null, g.warnings.map(function (w) { return el("li", null, w); })));
    verdict.appendChild(gen);
    app.appendChild(verdict);

    if (d.capacity) renderCapacity(d.capacity, app);

    // Key figures.
    var t = d.totals;
    app.appendChild(figures("figures", [
      ["Requests", t.text.requests], ["Throughput", t.text.rps, "req/s"], ["Error rate", t.error_rate],
      ["p50", t.text.p50], ["p95", t.text.p95], ["p99", t.text.p99], ["max", t.text.max]
    ]));

    // Charts.
    var ch = d.charts, x = ch.t;
    var cs = section(app, "Over time", "charts");
    if (d.capacity) cs.appendChild(el("p", { class: "note" }, "The key figures, charts and tables from here on are of one step of the search: " + run.load + "."));
    if (ch.bands.length || ch.marks.length) cs.appendChild(chartKey(keyItems(ch.bands, ch.marks)));
    var grid = el("div", { class: "charts" });
    cs.appendChild(grid);
    if (ch.intervals > x.length) {
      cs.insertBefore(el("p", { class: "note" }, ch.intervals + " intervals drawn as " + x.length + " points of " + ch.step_s +
        " s each: rates are averaged over each point, p50–p99 averaged weighted by requests, max and users are the highest in it."), grid);
    }
    // timeChart draws a chart over time, with the run's bands and marks.
    grid.__x = x; grid.__bands = ch.bands; grid.__marks = ch.marks;
    var timeChart = function (spec) {
      spec.x = x; spec.bands = ch.bands; spec.marks = ch.marks;
      return chart(grid, spec);
    };
    if (!x.length) {
      grid.appendChild(el("p", { class: "empty" }, "This result has no per-second series to draw."));
    } else {
      var load = [{ label: "users", values: ch.users, color: C.users, fill: "rgba(76,120,168,0.08)" },
        { label: "busy", values: ch.busy, color: C.busy }];
      var loadSpec = { key: "load", title: ch.open_model ? "Load: arrival rate and users" : "Load: virtual users", yLabel: "users", unit: "users", series: load };
      if (ch.open_model) {
        load.push({ label: "arrivals (sent + dropped)", values: ch.offered_s, color: C.offered, scale: "y2", unit: "/s" });
        loadSpec.y2 = { label: "arrivals per second", unit: "/s" };
      }
      timeChart(loadSpec);
      // When failures outnumber successes many times over (after a
      // collapse), they go on an axis of their own, so that they do not
      // squash the successful line to the bottom of the chart.
      var apart = maxOf(ch.failed_s.concat(ch.dropped_s)) > 2 * maxOf(ch.ok_s);
      var failScale = apart ? "y2" : undefined;
      var tput = [{ label: "ok", values: ch.ok_s, color: C.ok, fill: "rgba(42,157,143,0.12)" },
        { label: "failed", values: ch.failed_s, color: C.failed, scale: failScale }];
      if (anyPositive(ch.dropped_s)) tput.push({ label: "dropped", values: ch.dropped_s, color: C.dropped, dash: [6, 4], scale: failScale });
      var tputSpec = { key: "throughput", title: "Throughput: requests per second, ok and failed", yLabel: "requests per second", unit: "req/s", series: tput };
      if (apart) {
        tputSpec.title = "Throughput: ok requests per second (left), failed and dropped (right axis)";
        tputSpec.yLabel = "ok per second";
        tputSpec.y2 = { label: "failed per second", unit: "req/s" };
      }
      timeChart(tputSpec);
      if (ch.streams) streamCharts(ch.streams, timeChart);
      timeChart({ key: "latency", title: "Latency (from the intended start)", yLabel: "latency", unit: "ms", series: [
        { label: "p50", values: ch.p50_ms, color: C.p50 },
        { label: "p95", values: ch.p95_ms, color: C.p95 },
        { label: "p99", values: ch.p99_ms, color: C.p99 },
        { label: "max", values: ch.max_ms, color: C.max, dash: [4, 4], width: 1.5 }] });
      if (ch.errors.length) {
        timeChart({ key: "errors", title: "Errors by class", yLabel: "errors per second", unit: "/s",
          series: ch.errors.map(function (e, i) { return { label: e.class, values: e.values, color: errorColour(e.class, i) }; }) });
      } else {
        timeChart({ key: "errors", title: "Errors by class: none", yLabel: "errors per second", unit: "/s",
          series: [{ label: "errors", values: x.map(function () { return 0; }), color: C.ok }] });
      }
      timeChart({ key: "generator", title: "Generator: CPU and scheduling lag", yLabel: "CPU, % of all cores", unit: "%",
        y2: { label: "lag p99", unit: "ms" }, series: [
          { label: "CPU", values: ch.cpu_pct, color: C.cpu },
          { label: "lag p99", values: ch.lag_p99_ms, color: C.lag, scale: "y2", unit: "ms" }] });
      (ch.server || []).forEach(function (sc) { serverChart(sc, grid, timeChart); });
      if (ch.endpoints && ch.endpoints.length) endpointCharts(ch, section(app, "Over time, by endpoint", "endpoint-charts"));
    }

    // Endpoints.
    var es = section(app, "Endpoints", "endpoints");
    var numCol = function (label, key, get, text) { return { label: label, num: true, sort: get, cell: text }; };
    var cols = [
      { label: "Endpoint", sort: function (r) { return r.name; }, cell: function (r) { return r.name; } },
      numCol("Requests", "requests", function (r) { return r.requests; }, function (r) { return r.text.requests; }),
      numCol("Failures", "failures", function (r) { return r.failures; }, function (r) { return r.text.failures; }),
      numCol("RPS", "rps", function (r) { return r.rps; }, function (r) { return r.text.rps; }),
      numCol("p50", "p50", function (r) { return r.latency_ms.p50; }, function (r) { return r.text.p50; }),
      numCol("p90", "p90", function (r) { return r.latency_ms.p90; }, function (r) { return r.text.p90; }),
      numCol("p95", "p95", function (r) { return r.latency_ms.p95; }, function (r) { return r.text.p95; }),
      numCol("p99", "p99", function (r) { return r.latency_ms.p99; }, function (r) { return r.text.p99; }),
      numCol("max", "max", function (r) { return r.latency_ms.max; }, function (r) { return r.text.max; }),
      numCol("Error rate", "error_rate", function (r) { return r.error_rate_pct; }, function (r) { return r.error_rate; }),
      { label: "Traffic", sort: function (r) { return r.bytes_in; }, cell: function (r) { return r.traffic; } }
    ];
    es.appendChild(el("p", { class: "hint" }, "Latency counts from each request's intended start. Click a column to sort."));
    es.appendChild(table(cols, d.endpoints, { sortable: true, name: "endpoints", foot: d.endpoints.length !== 1 ? [d.totals] : [] }));

    if (d.streams) renderStreams(d.streams, app);

    // Timing breakdown.
    var ts = section(app, "Timing breakdown (mean per request)", "timing");
    var phaseCols = [{ label: "Endpoint", cell: function (r) { return r.name; } }];
    var names = d.timing.length ? d.timing[0].phases.map(function (p) { return p.phase; }) : [];
    names.forEach(function (n, i) {
      phaseCols.push({ label: n, num: true, cell: function (r) { return r.phases[i].text; } });
    });
    phaseCols.push({ label: "sum", num: true, cell: function (r) { return r.total.text; } });
    var slowest = Math.max.apply(null, d.timing.map(function (r) { return r.total.mean_ms; }).concat([0]));
    phaseCols.push({ label: "", cell: function (r) { return phaseBar(r, slowest); } });
    ts.appendChild(table(phaseCols, d.timing, { name: "timing" }));
    ts.appendChild(el("p", { class: "hint" }, "blocked: waiting for a connection · dns · connect · tls · send · wait: request sent to first byte · receive: first byte to body read. A phase that did not happen counts as 0."));

    // Errors.
    var ers = section(app, "Errors", "errors");
    if (!d.errors.length) {
      ers.appendChild(el("p", { class: "empty" }, "No errors: every request succeeded."));
    } else {
      ers.appendChild(table([
        { label: "Class", cell: function (r) { return el("code", null, r.class); } },
        { label: "Count", num: true, cell: function (r) { return String(r.count); } },
        { label: "Share", num: true, cell: function (r) { return r.share_pct.toFixed(1) + "%"; } },
        { label: "Statuses", cell: function (r) { return r.statuses; } },
        { label: "Endpoints", cell: function (r) { return r.endpoints; } },
        { label: "What it means", cell: function (r) { return r.hint; } },
        { label: "Sample messages", cell: function (r) {
          if (!r.samples.length) return "";
          return el("ul", { class: "samples" }, r.samples.map(function (m) {
            var where = m.endpoints ? Object.keys(m.endpoints).sort(function (a, b) { return m.endpoints[b] - m.endpoints[a]; })
              .map(function (ep) { return ep + " ×" + m.endpoints[ep]; }).join(", ") : "";
            return el("li", null, [el("code", null, m.message), " ×" + m.count + (where ? " (" + where + ")" : ""),
              m.example && m.example !== m.message ? el("div", { class: "example" }, ["e.g. ", el("code", null, m.example)]) : null]);
          }));
        } }
      ], d.errors, { name: "errors" }));
    }
  }

  // streamCharts draws the charts of a run's long-lived connections: open
  // streams with events per second, and how streams ended.
  function streamCharts(st, timeChart) {
    timeChart({ key: "streams", title: "Streams: open, and events per second", yLabel: "open streams", unit: "streams",
      y2: { label: "per second", unit: "/s" }, series: [
        { label: "open streams", values: st.open, color: C.open, fill: "rgba(76,120,168,0.08)" },
        { label: "events received", values: st.events_s, color: C.events, scale: "y2", unit: "/s" },
        { label: "streams opened", values: st.opened_s, color: C.opened, scale: "y2", unit: "/s", dash: [6, 4], width: 1.5 }] });
    if (st.ends.length) {
      timeChart({ key: "stream-ends", title: "Streams ended, by cause", yLabel: "streams ended per second", unit: "/s",
        series: st.ends.map(function (e, i) { return { label: e.class, values: e.values, color: END_COLOURS[e.class] || PALETTE[i % PALETTE.length] }; }) });
    }
  }

  // renderStreams draws the streams section: key figures, the streams of
  // each endpoint and how they ended, and their timings.
  function renderStreams(st, app) {
    var s = section(app, "Streams (server-sent events, WebSocket)", "streams");
    s.appendChild(figures("stream-figures", [["Streams opened", st.opened], ["Open at most", st.open_max], ["Events", st.events],
      ["Events per second", st.events_per_sec, "/s"], ["Reconnections", st.reconnects], ["Received on streams", st.bytes_in]]));
    var cols = [
      { label: "Endpoint", cell: function (r) { return r.name; } },
      { label: "Opened", num: true, cell: function (r) { return r.opened; } },
      { label: "Reconnections", num: true, cell: function (r) { return r.reconnects; } },
      { label: "Events", num: true, cell: function (r) { return r.events; } },
      { label: "Events/s", num: true, cell: function (r) { return r.events_per_sec; } },
      { label: "Messages sent", num: true, cell: function (r) { return r.sent; } },
      { label: "Received", num: true, cell: function (r) { return r.bytes_in; } }
    ];
    st.ends.forEach(function (e, i) {
      cols.push({ label: "ended: " + e.replace(/_/g, " "), num: true, title: END_HINTS[e], cell: function (r) { return r.ends[i]; } });
    });
    cols.push({ label: "Close codes", cell: function (r) { return r.close_codes; } });
    s.appendChild(table(cols, st.rows, { name: "streams", foot: st.total ? [st.total] : [] }));
    s.appendChild(el("p", { class: "hint" }, "Every connection attempt is also a request in the endpoint table, measured to its response headers (WebSocket: the completed handshake). Events per second are per second of the run."));
    s.appendChild(table([
      { label: "Endpoint", cell: function (r) { return r.name; } },
      { label: "Time", cell: function (r) { return r.measure; } },
      { label: "p50", num: true, cell: function (r) { return r.p50; } },
      { label: "p90", num: true, cell: function (r) { return r.p90; } },
      { label: "p95", num: true, cell: function (r) { return r.p95; } },
      { label: "p99", num: true, cell: function (r) { return r.p99; } },
      { label: "max", num: true, cell: function (r) { return r.max; } }
    ], st.timings, { name: "stream-timings" }));
    s.appendChild(el("p", { class: "hint" }, "connect: name lookup, TCP and TLS · response headers: from the start of connecting (WebSocket: to the completed handshake) · first event: from the start of connecting · gap: between consecutive events of a stream · delivery delay: from the send time an event carried to its arrival."));
  }
  var END_HINTS = {
    held: "lasted as planned", server_closed: "the server ended the stream or closed the connection", reset: "connection reset",
    timeout: "no response headers within the timeout, or no data for the idle timeout", http_error: "the response was not a stream",
    connect_failed: "refused, connect timeout, DNS, TLS, local ports or files", interrupted: "the run stopped while the stream was open (not a failure)",
    error: "anything else, such as a malformed stream"
  };

  // renderCapacity draws the capacity section of a breaking-point search:
  // the verdict, throughput and p95 against the load, and the table.
  function renderCapacity(c, app) {
    var s = section(app, "Capacity: the breaking-point search", "capacity");
    s.appendChild(el("p", { class: "capacity-verdict " + (c.verdict.conclusive ? "conclusive" : "inconclusive") },
      [el("strong", null, c.verdict.label + ": "), c.verdict.detail]));
    s.appendChild(el("p", { class: "hint" }, c.heading));
    var steps = c.steps;
    if (steps.length) {
      var levels = steps.map(function (st) { return st.level; });
      var lo = levels[0], hi = levels[levels.length - 1];
      var series = [
        { label: "successful", values: steps.map(function (st) { return st.ok_rps; }), color: C.ok, points: true },
        { label: "completed", values: steps.map(function (st) { return st.rps; }), color: C.rps, dash: [4, 4], width: 1.5 }];
      if (c.model === "rate") series.push({ label: "offered", values: levels, color: C.offered, dash: [2, 4], width: 1.5 });
      series.push({ label: "p95", values: steps.map(function (st) { return st.p95_ms; }), color: C.p95, scale: "y2", unit: "ms", points: true });
      series.push({ label: "failed step", values: steps.map(function (st) { return st.ok ? null : st.ok_rps; }), color: C.failed, pointsOnly: true });
      var grid = el("div", { class: "charts" });
      s.appendChild(grid);
      chart(grid, { key: "capacity", title: "Throughput and p95 against the load", sync: "capacity",
        x: levels, xName: "load", xLabel: c.level_unit, xAxis: axisFormatter(""), xLog: lo > 0 && hi / lo >= 16, xPad: true, xSplits: levels,
        xValue: function (u, v, si, i) { return i == null ? "–" : steps[i].text.load; },
        yLabel: "requests per second", unit: "req/s", y2: { label: "p95 latency", unit: "ms" },
        series: series, marks: c.marks, keyItems: keyItems([], c.marks) });
    }
    s.appendChild(table([
      { label: "Load", num: true, cell: function (r) { return r.text.load; } },
      { label: "Phase", cell: function (r) { return r.phase; } },
      { label: "Throughput", num: true, cell: function (r) { return r.text.throughput; } },
      { label: "Successful", num: true, cell: function (r) { return r.text.ok_rps; } },
      { label: "p50", num: true, cell: function (r) { return r.text.p50; } },
      { label: "p95", num: true, cell: function (r) { return r.text.p95; } },
      { label: "p99", num: true, cell: function (r) { return r.text.p99; } },
      { label: "Errors", num: true, cell: function (r) { return r.text.errors; } },
      { label: "Generator CPU", num: true, title: "the generator's busiest judged second, of all its cores", cell: function (r) { return r.text.cpu; } },
      { label: "Verdict", cell: function (r) { return r.text.verdict; } }
    ], steps, { name: "capacity", rowClass: function (r) { return r.max ? "max" : r.failed ? "failed" : r.ok ? null : "bad"; } }));
    s.appendChild(el("p", { class: "hint" }, "One row per level, from the lowest; every figure is of the step's judged window, after its warm-up. Throughput counts completed requests, successful ones only the successes."));
  }

  var PHASE_COLOURS = ["#bab0ac", "#9d755d", "#e6b800", "#b279a2", "#72b7b2", "#4c78a8", "#54a24b"];
  // phaseBar draws a row's phases as a stacked bar whose length is the row's
  // total against the slowest row's.
  function phaseBar(r, slowest) {
    var bar = el("div", { class: "bar", title: r.phases.map(function (p) { return p.phase + " " + p.text; }).join(" · ") });
    if (!(slowest > 0)) return bar;
    r.phases.forEach(function (p, i) {
      var w = 100 * p.mean_ms / slowest;
      if (w <= 0) return;
      var seg = el("span", { style: "width:" + w.toFixed(2) + "%;background:" + PHASE_COLOURS[i % PHASE_COLOURS.length] });
      bar.appendChild(seg);
    });
    return bar;
  }

  // serverChart draws a chart of a monitored server; one with options gets
  // a picker of the series to draw.
  function serverChart(sc, grid, timeChart) {
    var spec = function (list) {
      return { key: sc.key, title: sc.title, yLabel: sc.y_label, unit: sc.unit,
        series: list.map(function (s, i) { return { label: s.label, values: s.values, color: PALETTE[i % PALETTE.length] }; }) };
    };
    if (!sc.options) { timeChart(spec(sc.series)); return; }
    var box = el("div", { class: "server-pick" });
    grid.appendChild(box);
    var chosen = sc.series.map(function (s) { return s.label; });
    var sel = el("select", { multiple: "multiple", size: "6", "aria-label": "series to draw: " + sc.title },
      sc.options.map(function (o) {
        var opt = el("option", { value: o.label }, o.label);
        if (chosen.indexOf(o.label) >= 0) opt.selected = true;
        return opt;
      }));
    var holder = el("div");
    var draw = function () {
      holder.innerHTML = "";
      var picked = sc.options.filter(function (o) { return chosen.indexOf(o.label) >= 0; });
      if (!picked.length) { holder.appendChild(el("p", { class: "note" }, "Pick series to draw from the list.")); return; }
      var s = spec(picked);
      s.x = grid.__x; s.bands = grid.__bands; s.marks = grid.__marks;
      chart(holder, s);
    };
    sel.addEventListener("change", function () {
      chosen = Array.prototype.filter.call(sel.options, function (o) { return o.selected; }).map(function (o) { return o.value; });
      draw();
    });
    box.appendChild(holder);
    box.appendChild(el("label", null, ["Series of " + sc.key.split(".")[0] + " to draw" + (sc.left ? " (" + sc.left + " flatter ones left out)" : ""), sel]));
    draw();
  }

  // ENDPOINTS_PICKED is how many endpoints the charts by endpoint draw at
  // first: those with dips or spikes of their own, then those with
  // failures, then the busiest.
  var ENDPOINTS_PICKED = 5;
  // endpointPick is what was picked, and each endpoint's colour, kept while
  // the live page redraws.
  var endpointPick = null;

  // endpointCharts draws, for the endpoints picked in a list of
  // checkboxes, their successful and failed requests per second and a
  // latency percentile picked in a select, one line per endpoint.
  function endpointCharts(ch, s) {
    var rows = ch.endpoints;
    var failed = function (r) { return (r.failed_s || []).some(function (v) { return v > 0; }); };
    // Colours go by that order, so that the endpoints drawn at first never
    // share one.
    var order = rows.slice().sort(function (a, b) {
      return (b.events > 0) - (a.events > 0) || failed(b) - failed(a) || b.requests - a.requests;
    });
    if (!endpointPick) {
      endpointPick = { picked: {}, pct: "p95", colour: {}, colours: 0 };
      order.slice(0, ENDPOINTS_PICKED).forEach(function (r) { endpointPick.picked[r.name] = true; });
    }
    order.forEach(function (r) {
      if (!endpointPick.colour[r.name]) endpointPick.colour[r.name] = PALETTE[endpointPick.colours++ % PALETTE.length];
    });
    var picked = endpointPick.picked, pct = endpointPick.pct, colour = endpointPick.colour;
    var holder = el("div", { class: "charts" });
    var draw = function () {
      dropCharts(holder);
      while (holder.firstChild) holder.removeChild(holder.firstChild);
      var list = rows.filter(function (r) { return picked[r.name]; });
      if (!list.length) {
        holder.appendChild(el("p", { class: "note" }, "Pick endpoints to draw from the list."));
      } else {
        var lines = function (get) { return list.map(function (r) { return { label: r.name, values: get(r), color: colour[r.name] }; }); };
        // The picked endpoints' own dips and spikes shade their charts.
        var own = [];
        list.forEach(function (r) { own = own.concat(r.bands || []); });
        var spec = function (o) {
          o.x = ch.t; o.bands = ch.bands.concat(own); o.marks = ch.marks;
          o.keyItems = keyItems(own.filter(function (b) { return b.chart === o.key; }).map(function (b) { return { kind: b.kind, text: b.text }; }), []);
          return chart(holder, o);
        };
        spec({ key: "endpoint-throughput", title: "Throughput by endpoint: ok requests per second", yLabel: "ok per second", unit: "req/s",
          series: lines(function (r) { return r.ok_s; }) });
        spec({ key: "endpoint-failures", title: "Failures by endpoint: failed requests per second", yLabel: "failed per second", unit: "req/s",
          series: lines(function (r) { return r.failed_s; }) });
        spec({ key: "endpoint-latency", title: "Latency by endpoint: " + pct + " (from the intended start)", yLabel: "latency", unit: "ms",
          series: lines(function (r) { return r[pct + "_ms"]; }) });
      }
      window.surgePlots = charts.map(function (c) { return c.u; });
    };
    var pick = el("fieldset", { class: "endpoint-pick" }, [el("legend", null, "Endpoints to draw")].concat(rows.map(function (r) {
      var cb = el("input", { type: "checkbox", value: r.name });
      cb.checked = !!picked[r.name];
      cb.addEventListener("change", function () { picked[r.name] = cb.checked; draw(); });
      return el("label", { "data-endpoint": r.name }, [cb, el("span", { class: "swatch", style: "background:" + colour[r.name] }), r.name]);
    })));
    var sel = el("select", { "aria-label": "latency percentile", "data-pick": "percentile" }, ["p50", "p95", "p99"].map(function (p) {
      var o = el("option", { value: p }, p);
      if (p === pct) o.selected = true;
      return o;
    }));
    sel.addEventListener("change", function () { pct = endpointPick.pct = sel.value; draw(); });
    pick.appendChild(el("label", { class: "percentile" }, ["latency percentile ", sel]));
    s.appendChild(pick);
    if (rows.length > ENDPOINTS_PICKED) s.appendChild(el("p", { class: "note" }, "Of " + rows.length + " endpoints, " + ENDPOINTS_PICKED + " are drawn at first (those that dipped or spiked on their own, then those that failed, then the busiest); tick others to add them."));
    if (ch.endpoints_note) s.appendChild(el("p", { class: "note" }, ch.endpoints_note));
    s.appendChild(holder);
    draw();
  }

  // dropCharts destroys the charts drawn inside parent and forgets them.
  function dropCharts(parent) {
    charts = charts.filter(function (c) {
      if (!parent.contains(c.plot)) return true;
      c.u.destroy();
      return false;
    });
  }

  function errorColour(cls, i) {
    var fixed = { http_5xx: "#d62839", http_4xx: "#f58518", dropped: "#f4a261", timeout: "#b279a2", reset: "#9d755d",
      connect_refused: "#4c78a8", connect_timeout: "#72b7b2", closed: "#e6b800", interrupted: "#79706e" };
    return fixed[cls] || PALETTE[i % PALETTE.length];
  }

  // The comparison of runs.
  function renderCompare(d, app) {
    app.appendChild(el("header", null, [
      el("p", { class: "kicker" }, "surge compare"),
      el("h1", null, d.title),
      el("p", { class: "hint" }, "Each change is against the run before it.")
    ]));
    var rs = section(app, "Runs", "runs");
    rs.appendChild(table([
      { label: "Run", cell: function (r) { return el("span", null, [el("span", { class: "swatch", style: "background:" + runColour(r._i) }), r.label]); } },
      { label: "File", cell: function (r) { return r.file; } },
      { label: "Started", cell: function (r) { return r.run.start; } },
      { label: "Duration", num: true, cell: function (r) { return r.run.duration; } },
      { label: "Requests", num: true, cell: function (r) { return String(r.requests); } },
      { label: "Load model", cell: function (r) { return r.run.load; } },
      { label: "Target", cell: function (r) { return r.run.target; } },
      { label: "Noise (1 standard error)", cell: function (r) { return r.noise; } }
    ], d.runs.map(function (r, i) { r._i = i; return r; }), { name: "runs" }));

    if (d.fail_on.length) {
      var fs = section(app, "CI bounds (--fail-on)", "fail-on");
      fs.appendChild(el("ul", { class: "thresholds" }, d.fail_on.map(function (f) {
        return el("li", { class: f.failed ? "fail" : "pass" }, [el("span", { class: "badge" }, f.failed ? "FAIL" : "ok"), " " + f.message]);
      })));
    }

    var cs = section(app, "Comparison", "comparison");
    d.sections.forEach(function (s) {
      // With more than three runs, each run's change goes under its value
      // in the same column, so that every run fits the page's width.
      var many = d.runs.length > 3;
      var cols = [{ label: s.name, cell: function (r) { return r.metric; } },
        { label: d.runs[0].label, num: true, cell: function (r) { return r.text[0]; } }];
      for (var i = 1; i < d.runs.length; i++) {
        (function (i) {
          if (many) {
            cols.push({ label: d.runs[i].label, num: true,
              cell: function (r) { return el("span", null, [r.text[i], el("br"), changeCell(r.changes[i - 1], true)]); },
              cls: function (r) { return "change " + verdictClass(r.changes[i - 1].verdict); } });
            return;
          }
          cols.push({ label: d.runs[i].label, num: true, cell: function (r) { return r.text[i]; } });
          cols.push({ label: "change", num: true, cell: function (r) { return changeCell(r.changes[i - 1], d.runs.length > 2); },
            cls: function (r) { return "change " + verdictClass(r.changes[i - 1].verdict); } });
        })(i);
      }
      var ct = table(cols, s.rows, { name: "compare" });
      if (many) ct.querySelector("table").classList.add("many");
      cs.appendChild(ct);
    });
    cs.appendChild(el("p", { class: "hint" }, d.legend));
    d.notes.forEach(function (n) { cs.appendChild(el("p", { class: "note" }, n)); });

    var ch = d.charts;
    var os = section(app, "Over time, overlaid", "charts");
    if (ch.intervals > ch.t.length) {
      os.appendChild(el("p", { class: "note" }, "Drawn as points of " + ch.step_s + " s each: rates averaged, percentiles averaged weighted by requests."));
    }
    var grid = el("div", { class: "charts" });
    os.appendChild(grid);
    ch.charts.forEach(function (o) {
      chart(grid, { key: o.key, title: o.title, x: ch.t, yLabel: o.unit === "ms" ? "latency" : o.unit === "%" ? "percent" : o.unit, unit: o.unit,
        series: o.runs.map(function (v, i) { return { label: d.runs[i].label, values: v, color: runColour(i), dash: i === 0 ? [6, 3] : null }; }) });
    });
  }

  function runColour(i) { return ["#7f7f7f", "#f58518", "#4c78a8", "#54a24b", "#d62839", "#b279a2", "#72b7b2", "#9d755d"][i % 8]; }
  function verdictClass(v) { return { better: "better", worse: "worse", "~": "ns", same: "same" }[v] || "na"; }
  // changeCell shows a change and its verdict; compact for many runs.
  function changeCell(c, compact) {
    var label = { better: "better", worse: "worse", "~": compact ? "~" : "~ not significant" }[c.verdict];
    var title = c.noise_text ? "a change within ±" + c.noise_text + " is noise" : null;
    var span = el("span", { title: title }, c.text);
    if (!label) return span;
    return el("span", null, [span, " ", el("span", { class: "mark", title: c.verdict === "~" ? "not significant: " + title : title }, label)]);
  }

  // draw renders data d into the page, replacing what was there: the live
  // page calls it (window.surgeDraw) with every update.
  function draw(d) {
    var app = document.getElementById("app");
    charts.forEach(function (c) { c.u.destroy(); });
    charts = [];
    while (app.firstChild) app.removeChild(app.firstChild);
    if (d.kind === "compare") renderCompare(d, app); else renderReport(d, app);
    app.appendChild(el("footer", null, d.live ? "Live: redrawn every second from the run as it goes; the result document is written at the end." :
      "Made by surge from result documents alone; opens offline. Charts: drag to zoom, double-click to reset, hover for values, click a legend entry to hide a series."));
    window.surgePlots = charts.map(function (c) { return c.u; });
  }
  window.surgeDraw = draw;

  function main() {
    var app = document.getElementById("app");
    try {
      draw(JSON.parse(document.getElementById("surge-data").textContent));
      document.body.setAttribute("data-ready", "1");
    } catch (e) {
      app.appendChild(el("p", { class: "error" }, "This page could not be drawn: " + e));
      document.body.setAttribute("data-ready", "error");
      console.error(e);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main); else main();
})();
