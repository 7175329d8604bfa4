// cclens plan limits: the share of each usage window used over time, one stepped line per
// agent and window, dropping to 0 at each reset (dashed vertical lines), from /api/limits (the
// figures of `cclens limits --json`). Fetched again when the index changes.
"use strict";

(function () {
  var C = window.cclensCharts;
  var chart = null;

  function seconds(text) {
    return text ? new Date(text).getTime() / 1000 : null;
  }

  // One window's points: its samples, and a 0 at each reset that came before the next
  // sample (and before now), so the line falls where the window started again.
  function points(window, now) {
    var found = [];
    var history = window.history;
    for (var i = 0; i < history.length; i++) {
      var sample = history[i];
      found.push([seconds(sample.at), sample.used_percent]);
      var reset = seconds(sample.resets_at);
      var next = i + 1 < history.length ? seconds(history[i + 1].at) : now;
      if (reset !== null && reset > seconds(sample.at) && reset < next) found.push([reset, 0]);
    }
    return found;
  }

  function resets(windows, from, to) {
    var found = {};
    windows.forEach(function (window) {
      window.history.forEach(function (sample) {
        var reset = seconds(sample.resets_at);
        if (reset !== null && reset >= from && reset <= to) found[Math.round(reset / 60)] = reset;
      });
    });
    return Object.keys(found).map(function (key) { return found[key]; });
  }

  // The series on one time axis: the union of every window's times, each series null where it
  // has no point (uPlot joins across them with spanGaps).
  function aligned(lines) {
    var times = {};
    lines.forEach(function (line) { line.forEach(function (p) { times[p[0]] = true; }); });
    var xs = Object.keys(times).map(Number).sort(function (a, b) { return a - b; });
    var position = {};
    xs.forEach(function (x, i) { position[x] = i; });
    var data = [xs];
    lines.forEach(function (line) {
      var ys = xs.map(function () { return null; });
      line.forEach(function (p) { ys[position[p[0]]] = p[1]; });
      data.push(ys);
    });
    return data;
  }

  function draw(panel, figures) {
    var place = panel.querySelector('[data-chart="limits"]');
    if (!place) return;
    C.destroy(chart);
    chart = null;
    var windows = figures.windows.filter(function (w) { return w.history.length; });
    if (!windows.length) return;
    var now = Date.now() / 1000;
    var palette = C.colors();
    var lines = windows.map(function (w) { return points(w, now); });
    var data = aligned(lines);
    var first = data[0][0];
    var last = Math.max(data[0][data[0].length - 1], now);
    var marks = resets(windows, first, last);
    var series = [{}];
    windows.forEach(function (w, i) {
      series.push({
        label: w.agent + " " + w.label,
        stroke: palette.series[i % palette.series.length],
        width: 2,
        spanGaps: true,
        paths: uPlot.paths.stepped({ align: 1 }),
        points: { show: false },
        value: function (u, v) { return v === null || v === undefined ? "" : Math.round(v) + "%"; },
      });
    });
    function paintResets(u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = palette.muted;
      ctx.setLineDash([4, 4]);
      ctx.lineWidth = 1;
      marks.forEach(function (time) {
        var x = Math.round(u.valToPos(time, "x", true));
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
      });
      ctx.restore();
    }
    chart = C.draw(
      place,
      {
        height: 240,
        series: series,
        legend: { show: false },
        scales: {
          x: { time: true, range: function () { return [first, last]; } },
          y: { range: function (u, min, max) { return [0, Math.max(100, max || 0)]; } },
        },
        axes: [
          C.axis(palette),
          C.axis(palette, {
            size: 48,
            values: function (u, splits) { return splits.map(function (v) { return v + "%"; }); },
          }),
        ],
        hooks: { draw: [paintResets] },
      },
      data
    );
    place.dataset.series = String(windows.length);
    place.dataset.resets = String(marks.length);
    var legend = panel.querySelector('[data-legend="limits"]');
    if (legend) {
      legend.textContent = "";
      windows.forEach(function (w, i) {
        var entry = document.createElement("span");
        entry.appendChild(C.swatch(palette.series[i % palette.series.length]));
        entry.appendChild(document.createTextNode(w.agent + " " + w.label));
        legend.appendChild(entry);
      });
    }
  }

  function load(panel) {
    C.fetchJSON(panel.dataset.api).then(
      function (figures) {
        draw(panel, figures);
        panel.dataset.drawn = "true";
      },
      function (error) {
        var note = document.createElement("p");
        note.className = "problem";
        note.setAttribute("role", "alert");
        note.textContent = "The plan limits could not be drawn: " + error.message;
        panel.appendChild(note);
      }
    );
  }

  function start() {
    var panel = document.querySelector("[data-limits]");
    if (!panel || !panel.querySelector('[data-chart="limits"]')) return;
    load(panel);
    C.onSchemeChange(function () { load(panel); });
    if (window.EventSource) {
      var events = new EventSource("/api/events");
      events.addEventListener("update", function () { load(panel); });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
