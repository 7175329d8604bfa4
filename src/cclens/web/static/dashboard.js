// cclens dashboard: the charts of /stats, drawn from /api/stats (the same figures as the
// tables on the page). The filters are a plain form: changing them loads the page again.
"use strict";

(function () {
  var C = window.cclensCharts;
  var DAY = 86400;
  var SPACING = { day: DAY, week: 7 * DAY, month: 30 * DAY };
  var WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
  var TOOLS_SHOWN = 20;
  var drawn = [];

  // "2025-06-01" (a day or the Monday of a week) or "2025-06" (a month): its first instant,
  // in seconds, as a local time (the server's days are shown as days, not shifted).
  function keyTime(key) {
    var parts = key.split("-").map(Number);
    return new Date(parts[0], parts[1] - 1, parts[2] || 1).getTime() / 1000;
  }

  // The first instant of the period after `time` (a day, a week or a month later).
  function next(time, by) {
    var moment = new Date(time * 1000);
    if (by === "month") moment.setMonth(moment.getMonth() + 1);
    else moment.setDate(moment.getDate() + (by === "week" ? 7 : 1));
    return moment.getTime() / 1000;
  }

  // Rows keyed by period, with a row of nulls for each period that had none (the charts
  // break there, instead of joining distant periods). Long spans are left sparse.
  function periods(rows, by) {
    var known = rows.filter(function (row) { return row.key !== "unknown"; });
    var times = known.map(function (row) { return keyTime(row.key); });
    if (!known.length) return { times: [], rows: [] };
    var filled = { times: [], rows: [] };
    var at = 0;
    var limit = 2000;
    for (var time = times[0]; time <= times[times.length - 1] && limit > 0; limit--) {
      if (at < times.length && Math.abs(times[at] - time) < 3 * 3600) {
        filled.times.push(times[at]);
        filled.rows.push(known[at]);
        at++;
      } else {
        filled.times.push(time);
        filled.rows.push(null);
      }
      time = next(time, by);
      while (at < times.length && times[at] < time - 3 * 3600) {
        filled.times.push(times[at]); // a key off the expected step (a clock change): keep it
        filled.rows.push(known[at]);
        at++;
      }
    }
    for (; at < times.length; at++) {
      filled.times.push(times[at]);
      filled.rows.push(known[at]);
    }
    return filled;
  }

  function timeRange(spacing) {
    return C.fitted(function (first, last) {
      return [first - spacing * 0.6, last + spacing * 0.6];
    });
  }

  function bars(size) {
    return uPlot.paths.bars({ size: size || [0.75, 56], align: 0 });
  }

  function usageChart(element, figures, palette) {
    var by = figures.filters.by;
    var filled = periods(figures.over_time, by);
    var rows = filled.rows;
    var kinds = [
      { label: "input", of: function (t) { return t.input; }, color: palette.series[0] },
      { label: "output", of: function (t) { return t.output; }, color: palette.series[1] },
      {
        label: "cache write",
        of: function (t) { return t.cache_write_5m + t.cache_write_1h; },
        color: palette.series[2],
      },
      { label: "cache read", of: function (t) { return t.cache_read; }, color: palette.series[3] },
    ];
    var raw = kinds.map(function (kind) {
      return rows.map(function (row) { return row ? kind.of(row.tokens) : null; });
    });
    // Stacked bars: each series reaches the sum of its kind and the kinds below it, and the
    // tallest is drawn first so the shorter ones show on top of it.
    var stacked = [];
    var running = rows.map(function () { return 0; });
    raw.forEach(function (values) {
      running = running.map(function (sum, i) { return values[i] === null ? null : sum + values[i]; });
      stacked.push(running.slice());
    });
    var order = [3, 2, 1, 0];
    var series = [{}];
    var data = [filled.times];
    order.forEach(function (k) {
      series.push({
        label: kinds[k].label,
        scale: "tokens",
        fill: kinds[k].color,
        stroke: kinds[k].color,
        width: 0,
        paths: bars(),
        points: { show: false },
        value: function (u, v, s, i) {
          return i === null || i === undefined || raw[k][i] === null ? "" : C.compact(raw[k][i]);
        },
      });
      data.push(stacked[k]);
    });
    series.push({
      label: "cost",
      scale: "usd",
      stroke: palette.fg,
      width: 2,
      points: { show: true, size: 5, fill: palette.fg },
      value: function (u, v) { return v === null || v === undefined ? "" : C.usd(v); },
    });
    data.push(rows.map(function (row) { return row ? row.cost : null; }));
    return C.draw(
      element,
      {
        height: 300,
        series: series,
        scales: {
          x: { time: true, range: timeRange(SPACING[by]) },
          tokens: { range: function (u, min, max) { return [0, Math.max(max, 1) * 1.05]; } },
          usd: { range: function (u, min, max) { return [0, Math.max(max || 0, 0.01) * 1.1]; } },
        },
        axes: [
          C.axis(palette),
          C.axis(palette, {
            scale: "tokens",
            size: 60,
            values: function (u, splits) { return splits.map(C.compact); },
          }),
          C.axis(palette, {
            scale: "usd",
            side: 1,
            size: 60,
            grid: { show: false },
            values: function (u, splits) {
              return splits.map(function (v) { return "$" + C.compact(v); });
            },
          }),
        ],
      },
      data
    );
  }

  function sessionsChart(element, figures, palette) {
    var filled = periods(figures.days, "day");
    return C.draw(
      element,
      {
        height: 220,
        series: [
          {},
          {
            label: "sessions",
            fill: palette.series[4],
            stroke: palette.series[4],
            width: 0,
            paths: bars(),
            points: { show: false },
          },
        ],
        scales: {
          x: { time: true, range: timeRange(DAY) },
          y: { range: function (u, min, max) { return [0, Math.max(max, 1) * 1.1]; } },
        },
        axes: [
          C.axis(palette),
          C.axis(palette, {
            size: 44,
            values: function (u, splits) {
              return splits.map(function (v) { return v === Math.round(v) ? String(v) : ""; });
            },
          }),
        ],
      },
      [filled.times, filled.rows.map(function (row) { return row ? row.sessions : null; })]
    );
  }

  function toolsChart(element, figures, palette) {
    var rows = figures.tools
      .filter(function (row) { return row.tool && row.tool.calls > 0; })
      .sort(function (a, b) { return b.tool.calls - a.tool.calls || (a.key < b.key ? -1 : 1); })
      .slice(0, TOOLS_SHOWN);
    var names = rows.map(function (row) { return row.key; });
    var indexes = names.map(function (_, i) { return i; });
    return C.draw(
      element,
      {
        height: 320,
        series: [
          { label: "tool", value: function (u, v) { return v === null ? "" : names[v]; } },
          {
            label: "calls",
            scale: "calls",
            fill: palette.series[0],
            stroke: palette.series[0],
            width: 0,
            paths: bars([0.6, 40]),
            points: { show: false },
          },
          {
            label: "error rate",
            scale: "pct",
            stroke: palette.error,
            width: 0,
            paths: function () { return null; },
            points: { show: true, size: 9, fill: palette.error, stroke: palette.error },
            value: function (u, v) { return v === null || v === undefined ? "" : v.toFixed(1) + "%"; },
          },
        ],
        scales: {
          x: {
            time: false,
            range: function () { return [-0.6, Math.max(names.length - 1, 0) + 0.6]; },
          },
          calls: { range: function (u, min, max) { return [0, Math.max(max, 1) * 1.08]; } },
          pct: { range: [0, 100] },
        },
        axes: [
          C.axis(palette, {
            size: 110,
            rotate: -40,
            grid: { show: false },
            splits: function () { return indexes; },
            values: function (u, splits) {
              return splits.map(function (i) { return names[i] === undefined ? "" : names[i]; });
            },
          }),
          C.axis(palette, {
            scale: "calls",
            size: 56,
            values: function (u, splits) { return splits.map(C.compact); },
          }),
          C.axis(palette, {
            scale: "pct",
            side: 1,
            size: 50,
            grid: { show: false },
            values: function (u, splits) { return splits.map(function (v) { return v + "%"; }); },
          }),
        ],
      },
      [
        indexes,
        rows.map(function (row) { return row.tool.calls; }),
        rows.map(function (row) {
          return row.tool.results ? (100 * row.tool.errors) / row.tool.results : null;
        }),
      ]
    );
  }

  // Weekdays down, hours across; each cell's opacity grows with its responses.
  function activityChart(element, figures, palette, readout) {
    var grid = figures.activity;
    var peak = 0;
    grid.forEach(function (hours) {
      hours.forEach(function (count) { peak = Math.max(peak, count); });
    });
    var hours = [];
    for (var h = 0; h < 24; h++) hours.push(h);

    function paint(u) {
      var ctx = u.ctx;
      ctx.save();
      for (var day = 0; day < 7; day++) {
        var top = u.valToPos(day, "y", true);
        var bottom = u.valToPos(day + 1, "y", true);
        for (var hour = 0; hour < 24; hour++) {
          var left = u.valToPos(hour, "x", true);
          var right = u.valToPos(hour + 1, "x", true);
          var count = grid[day][hour];
          ctx.globalAlpha = 1;
          ctx.fillStyle = palette.panel;
          ctx.fillRect(left + 1, top + 1, right - left - 2, bottom - top - 2);
          if (count > 0) {
            ctx.globalAlpha = 0.15 + 0.85 * (count / peak);
            ctx.fillStyle = palette.accent;
            ctx.fillRect(left + 1, top + 1, right - left - 2, bottom - top - 2);
          }
        }
      }
      ctx.restore();
    }

    function describe(u) {
      var left = u.cursor.left;
      var top = u.cursor.top;
      if (left === undefined || left < 0 || top < 0) {
        readout.textContent = "\u00a0";
        return;
      }
      var hour = Math.floor(u.posToVal(left, "x"));
      var day = Math.floor(u.posToVal(top, "y"));
      if (hour < 0 || hour > 23 || day < 0 || day > 6) {
        readout.textContent = "\u00a0";
        return;
      }
      var count = grid[day][hour];
      readout.textContent =
        WEEKDAYS[day] + " " + String(hour).padStart(2, "0") + ":00–" +
        String(hour + 1).padStart(2, "0") + ":00: " + count + " response" + (count === 1 ? "" : "s");
    }

    return C.draw(
      element,
      {
        height: 230,
        legend: { show: false },
        cursor: { x: false, y: false, points: { show: false }, drag: { x: false, y: false } },
        series: [{}, { paths: function () { return null; }, points: { show: false } }],
        scales: {
          x: { time: false, range: [0, 24] },
          y: { range: [0, 7], dir: -1 },
        },
        axes: [
          C.axis(palette, {
            grid: { show: false },
            splits: function () { return [0, 3, 6, 9, 12, 15, 18, 21].map(function (v) { return v + 0.5; }); },
            values: function (u, splits) {
              return splits.map(function (v) { return String(Math.floor(v)).padStart(2, "0") + "h"; });
            },
          }),
          C.axis(palette, {
            size: 44,
            grid: { show: false },
            splits: function () { return [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]; },
            values: function (u, splits) {
              return splits.map(function (v) { return WEEKDAYS[Math.floor(v)]; });
            },
          }),
        ],
        hooks: { draw: [paint], setCursor: [describe] },
      },
      [hours, hours.map(function () { return null; })]
    );
  }

  function drawAll(root, figures) {
    drawn.forEach(C.destroy);
    drawn = [];
    var palette = C.colors();
    var place = function (name) { return root.querySelector('[data-chart="' + name + '"]'); };
    if (place("usage")) drawn.push(usageChart(place("usage"), figures, palette));
    if (place("sessions")) drawn.push(sessionsChart(place("sessions"), figures, palette));
    if (place("tools")) drawn.push(toolsChart(place("tools"), figures, palette));
    if (place("activity")) {
      var readout = root.querySelector('[data-readout="activity"]');
      drawn.push(activityChart(place("activity"), figures, palette, readout));
    }
    root.dataset.drawn = String(figures.generation);
  }

  function problem(root, message) {
    var note = document.createElement("p");
    note.className = "problem";
    note.setAttribute("role", "alert");
    note.textContent = "The charts could not be drawn: " + message;
    root.prepend(note);
  }

  // The live 5-hour block panel: filled again from /api/blocks each time the index changes
  // (the event stream says so), with the time left counted down in between.
  function liveBlock(panel) {
    var field = function (name) { return panel.querySelector("[data-block-" + name + "]"); };
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    var utc = function (text, withDate) {
      var d = new Date(text);
      var time = pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes());
      if (!withDate) return time;
      return d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) + " " + time;
    };
    function countDown() {
      var left = field("left");
      if (!left.dataset.blockEnd) return;
      var minutes = Math.max(0, Math.round((new Date(left.dataset.blockEnd) - Date.now()) / 60000));
      left.textContent = minutes + " min";
    }
    function render(figures) {
      var active = figures.active;
      field("idle").hidden = !!active;
      field("active").hidden = !active;
      if (active) {
        var info = active.block;
        field("window").textContent = utc(info.start, true) + "–" + utc(info.end, false);
        field("tokens").textContent = C.compact(active.tokens.total);
        field("cost").textContent = C.usd(active.cost);
        field("left").dataset.blockEnd = info.end;
        var rate = info.tokens_per_hour === null ? "" : C.compact(Math.round(info.tokens_per_hour)) + " tokens/h";
        if (info.cost_per_hour !== null) rate += ", " + C.usd(info.cost_per_hour) + "/h";
        field("rate").textContent = rate;
        var projected = info.projected_tokens === null ? "" : C.compact(info.projected_tokens) + " tokens";
        if (info.projected_cost !== null) projected += ", " + C.usd(info.projected_cost);
        field("projected").textContent = projected;
        countDown();
      } else {
        field("left").dataset.blockEnd = "";
      }
      field("largest").textContent = figures.largest === null ? "—" : C.compact(figures.largest);
      var body = field("recent").querySelector("tbody");
      body.textContent = "";
      figures.recent.forEach(function (row) {
        var line = document.createElement("tr");
        if (row.block.active) line.className = "active";
        [
          utc(row.block.start, true) + "–" + utc(row.block.end, false),
          row.responses.toLocaleString(),
          C.compact(row.tokens.total),
          C.usd(row.cost),
        ].forEach(function (text, column) {
          var cell = document.createElement("td");
          if (column) cell.className = "number";
          cell.textContent = text;
          line.appendChild(cell);
        });
        body.appendChild(line);
      });
      panel.dataset.updated = figures.now;
    }
    var busy = false;
    function refresh() {
      if (busy) return;
      busy = true;
      C.fetchJSON(panel.dataset.api)
        .then(render)
        .catch(function () { /* the panel keeps what it shows */ })
        .then(function () { busy = false; });
    }
    var source = new EventSource("/api/events");
    source.addEventListener("update", refresh);
    window.setInterval(countDown, 30000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.querySelector("[data-live-block]");
    if (panel) liveBlock(panel);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-dashboard]");
    if (!root || root.hasAttribute("data-pending") || !root.querySelector("[data-chart]")) return;
    C.fetchJSON(root.dataset.api)
      .then(function (figures) {
        drawAll(root, figures);
        C.onSchemeChange(function () { drawAll(root, figures); });
      })
      .catch(function (error) { problem(root, error.message); });
  });
})();
