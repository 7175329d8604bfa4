// cclens session timeline: a compact strip of turns and tool calls over time, and (opened with
// "More") the context size of each response, from /api/sessions/{id}/timeline. Idle gaps are
// squeezed to a sliver (marked with how long they were), so a session of days shows its work,
// not its nights. Clicking a call opens it in the transcript below (#tool-<id>); clicking a
// turn or a response opens that message. Both charts share their axis: drag across either to
// zoom, double-click to zoom out.
"use strict";

(function () {
  var C = window.cclensCharts;
  var charts = [];
  var FAILED = { error: true, rejected: true, interrupted: true };

  function seconds(iso) {
    if (!iso) return null;
    var parsed = Date.parse(iso);
    return isNaN(parsed) ? null : parsed / 1000;
  }

  // Open the element with this id in the page (app.js reveals it on hashchange).
  function go(id) {
    if (!id) return;
    var hash = "#" + encodeURIComponent(id);
    if (window.location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
    else window.location.hash = hash;
  }

  // Calls into lanes: each goes into the first lane whose last call ended before it starts
  // (at most LANES, 4 in the compact strip: calls made at the same moment beyond that share
  // the last lane).
  var LANES = 8;
  var COMPACT_LANES = 4;
  function pack(calls, gap, most) {
    var ends = [];
    calls.forEach(function (call) {
      var lane = 0;
      while (lane < ends.length && ends[lane] > call.start - gap) lane++;
      lane = Math.min(lane, most - 1);
      ends[lane] = Math.max(ends[lane] || 0, call.end, call.start + gap);
      call.lane = lane + 1; // lane 0 holds the turns
    });
    return Math.max(ends.length, 1);
  }

  // A colour for each tool: the most used first, so that few tools get distinct colours.
  function toolColors(calls, palette) {
    var counts = {};
    calls.forEach(function (call) { counts[call.name] = (counts[call.name] || 0) + 1; });
    var names = Object.keys(counts).sort(function (a, b) {
      return counts[b] - counts[a] || (a < b ? -1 : 1);
    });
    var colors = {};
    names.forEach(function (name, i) {
      colors[name] = palette.series[i % palette.series.length];
    });
    return { names: names, counts: counts, of: function (name) { return colors[name]; } };
  }

  function text(element, value) {
    if (element) element.textContent = value;
  }

  function describeCall(call) {
    var parts = [call.name, call.status];
    if (call.duration_seconds !== null) parts.push(C.duration(call.duration_seconds));
    if (call.subagents) parts.push(call.subagents + " subagent" + (call.subagents === 1 ? "" : "s"));
    return parts.join(" · ") + " — turn " + (call.turn + 1) + "; click to open it";
  }

  function legend(panel, calls, tools, palette) {
    var box = panel.querySelector("[data-legend]");
    if (!box) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    tools.names.forEach(function (name) {
      var item = document.createElement("span");
      item.className = "legend-item";
      item.appendChild(C.swatch(tools.of(name)));
      item.appendChild(document.createTextNode(name + " " + tools.counts[name]));
      box.appendChild(item);
    });
    if (calls.some(function (call) { return FAILED[call.status]; })) {
      var failed = document.createElement("span");
      failed.className = "legend-item";
      var mark = C.swatch(palette.error);
      mark.classList.add("failed");
      failed.appendChild(mark);
      failed.appendChild(document.createTextNode("failed (error, rejected, interrupted)"));
      box.appendChild(failed);
    }
  }

  // Idle time squeezed: a gap longer than a threshold (10 minutes, or 3 % of the session) with
  // nothing in it is drawn as the threshold's width. fwd: seconds -> the axis's position;
  // bwd: back; gaps: [[start, end]] of the squeezed spans, in seconds.
  function squeeze(intervals) {
    intervals = intervals.slice().sort(function (a, b) { return a[0] - b[0]; });
    var first = intervals[0][0];
    var last = intervals.reduce(function (most, span) { return Math.max(most, span[1]); }, first);
    var threshold = Math.max(600, (last - first) * 0.03);
    var gaps = [];
    var end = intervals[0][1];
    intervals.forEach(function (span) {
      if (span[0] - end > threshold) gaps.push([end, span[0]]);
      end = Math.max(end, span[1]);
    });
    function fwd(t) {
      var cut = 0;
      for (var i = 0; i < gaps.length; i++) {
        var gap = gaps[i];
        if (t <= gap[0]) break;
        var length = gap[1] - gap[0];
        if (t >= gap[1]) cut += length - threshold;
        else cut += (t - gap[0]) * (1 - threshold / length);
      }
      return t - cut;
    }
    function bwd(x) {
      var cut = 0;
      for (var i = 0; i < gaps.length; i++) {
        var gap = gaps[i];
        var at = gap[0] - cut; // where the gap starts on the axis
        if (x <= at) break;
        var length = gap[1] - gap[0];
        if (x >= at + threshold) cut += length - threshold;
        else return gap[0] + (x - at) * (length / threshold);
      }
      return x + cut;
    }
    return { fwd: fwd, bwd: bwd, gaps: gaps };
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }
  // A time on the axis: hours and minutes, with the day when the session spans several.
  function clock(seconds, days) {
    var when = new Date(seconds * 1000);
    var time = two(when.getHours()) + ":" + two(when.getMinutes());
    return days ? two(when.getMonth() + 1) + "-" + two(when.getDate()) + " " + time : time;
  }
  function idle(seconds) {
    if (seconds >= 86400) return Math.round(seconds / 86400) + " d idle";
    if (seconds >= 3600) return Math.round(seconds / 3600) + " h idle";
    return Math.round(seconds / 60) + " min idle";
  }

  function draw(panel, payload) {
    charts.forEach(C.destroy);
    charts = [];
    var expanded = panel.classList.contains("is-expanded");
    var palette = C.colors();
    var timeline = payload.timeline;
    var turns = timeline.turns
      .map(function (turn) {
        return { index: turn.index, anchor: turn.anchor, prompt: turn.prompt,
                 start: seconds(turn.started), end: seconds(turn.ended) };
      })
      .filter(function (turn) { return turn.start !== null; });
    var calls = timeline.calls
      .map(function (call) {
        var start = seconds(call.started);
        var end = seconds(call.finished);
        return Object.assign({}, call, { start: start, end: end === null ? start : Math.max(end, start) });
      })
      .filter(function (call) { return call.start !== null; })
      .sort(function (a, b) { return a.start - b.start; });
    var points = timeline.context.filter(function (point) { return seconds(point.timestamp) !== null; });
    var compactions = timeline.compactions
      .map(function (mark) { return seconds(mark.timestamp); })
      .filter(function (when) { return when !== null; });

    var times = [];
    turns.forEach(function (turn) { times.push(turn.start, turn.end === null ? turn.start : turn.end); });
    calls.forEach(function (call) { times.push(call.start, call.end); });
    points.forEach(function (point) { times.push(seconds(point.timestamp)); });
    // The session's own figures (subagents included), as its header and every list give
    // them; the strip draws the calls of the main line.
    var figures = payload.figures || { tool_calls: calls.length, failed: 0 };
    var summary = panel.querySelector("[data-timeline-summary]");
    if (!times.length) {
      text(summary, "Nothing in this session has a timestamp to draw.");
      return;
    }
    var spans = [];
    turns.forEach(function (turn) { spans.push([turn.start, turn.end === null ? turn.start : turn.end]); });
    calls.forEach(function (call) { spans.push([call.start, call.end]); });
    points.forEach(function (point) { var t = seconds(point.timestamp); spans.push([t, t]); });
    var axis = squeeze(spans);
    var days = Math.max.apply(null, times) - Math.min.apply(null, times) > 20 * 3600;
    // Every time on the axis is squeezed.
    turns.forEach(function (turn) {
      turn.start = axis.fwd(turn.start);
      if (turn.end !== null) turn.end = axis.fwd(turn.end);
    });
    calls.forEach(function (call) { call.start = axis.fwd(call.start); call.end = axis.fwd(call.end); });
    compactions = compactions.map(axis.fwd);
    times = times.map(axis.fwd);
    var first = Math.min.apply(null, times);
    var last = Math.max.apply(null, times);
    if (last - first < 1) last = first + 1;
    var pad = (last - first) * 0.01;
    var range = [first - pad, last + pad];
    text(
      summary,
      turns.length + " turn" + (turns.length === 1 ? "" : "s") + ", " + figures.tool_calls +
        " tool call" + (figures.tool_calls === 1 ? "" : "s") +
        (figures.failed ? " (" + figures.failed + " failed)" : "") +
        (figures.tool_calls !== calls.length ? " (" + calls.length + " on the main line, drawn)" : "") +
        ", peak context " + C.compact(payload.peak_context) + " tokens."
    );
    if (summary) summary.title = "Drag to zoom, double-click to zoom out; click a call to open it.";
    var stripElement = panel.querySelector('[data-chart="strip"]');
    var contextElement = panel.querySelector('[data-chart="context"]');
    var readout = panel.querySelector('[data-readout="strip"]');
    // A call lasts at least ~3 pixels, so calls closer than that go in different lanes.
    var gap = ((last - first) * 3) / Math.max(stripElement.clientWidth, 240);
    var laneCount = pack(calls, gap, expanded ? LANES : COMPACT_LANES);
    var tools = toolColors(calls, palette);
    var syncKey = "cclens-timeline";
    var whole = C.fitted(function () { return range; });
    var hovered = null;
    var syncing = false;

    function span(u, start, end, lane) {
      var left = u.valToPos(start, "x", true);
      var right = Math.max(u.valToPos(end, "x", true), left + 3 * devicePixelRatio);
      var top = u.valToPos(lane, "y", true) + 2 * devicePixelRatio;
      var bottom = u.valToPos(lane + 1, "y", true) - 2 * devicePixelRatio;
      return [left, top, right - left, bottom - top];
    }

    function paintStrip(u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      turns.forEach(function (turn, i) {
        var box = span(u, turn.start, turn.end === null ? turn.start : turn.end, 0);
        ctx.fillStyle = i % 2 ? palette.line : palette.panel;
        ctx.fillRect(box[0], box[1], box[2], box[3]);
        ctx.strokeStyle = palette.muted;
        ctx.lineWidth = devicePixelRatio;
        ctx.strokeRect(box[0], box[1], box[2], box[3]);
        if (box[2] > 28 * devicePixelRatio) {
          ctx.fillStyle = palette.fg;
          ctx.font = 11 * devicePixelRatio + "px system-ui, sans-serif";
          ctx.textBaseline = "middle";
          ctx.fillText("#" + (turn.index + 1), box[0] + 4 * devicePixelRatio, box[1] + box[3] / 2);
        }
      });
      calls.forEach(function (call) {
        var box = span(u, call.start, call.end, call.lane);
        ctx.fillStyle = tools.of(call.name);
        ctx.fillRect(box[0], box[1], box[2], box[3]);
        if (FAILED[call.status]) {
          ctx.strokeStyle = palette.error;
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.strokeRect(box[0], box[1], box[2], box[3]);
          ctx.fillStyle = palette.error;
          ctx.beginPath();
          ctx.moveTo(box[0], box[1]);
          ctx.lineTo(box[0] + 6 * devicePixelRatio, box[1]);
          ctx.lineTo(box[0], box[1] + 6 * devicePixelRatio);
          ctx.closePath();
          ctx.fill();
        } else if (call.status === "pending") {
          ctx.setLineDash([3 * devicePixelRatio, 2 * devicePixelRatio]);
          ctx.strokeStyle = palette.muted;
          ctx.lineWidth = devicePixelRatio;
          ctx.strokeRect(box[0], box[1], box[2], box[3]);
          ctx.setLineDash([]);
        }
      });
      ctx.restore();
      paintCompactions(u);
      paintGaps(u);
    }

    // Each squeezed gap: a dashed line, and how long it was where there is room for it.
    function paintGaps(u) {
      if (!axis.gaps.length) return;
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = palette.muted;
      ctx.fillStyle = palette.muted;
      ctx.lineWidth = devicePixelRatio;
      ctx.setLineDash([2 * devicePixelRatio, 3 * devicePixelRatio]);
      ctx.font = 10 * devicePixelRatio + "px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      var free = -Infinity; // where the last label ended: labels never overlap
      axis.gaps.forEach(function (gap) {
        var x = u.valToPos(axis.fwd((gap[0] + gap[1]) / 2), "x", true);
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        var label = idle(gap[1] - gap[0]);
        var width = ctx.measureText(label).width;
        if (x - width / 2 > free + 4 * devicePixelRatio) {
          ctx.fillText(label, x, u.bbox.top + 1);
          free = x + width / 2;
        }
      });
      ctx.restore();
    }

    function paintCompactions(u) {
      if (!compactions.length) return;
      var ctx = u.ctx;
      ctx.save();
      ctx.strokeStyle = palette.accent;
      ctx.lineWidth = 2 * devicePixelRatio;
      ctx.setLineDash([5 * devicePixelRatio, 4 * devicePixelRatio]);
      compactions.forEach(function (when) {
        var x = u.valToPos(when, "x", true);
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
      });
      ctx.restore();
    }

    // The call (or else the turn) under the cursor.
    function find(u) {
      var left = u.cursor.left;
      var top = u.cursor.top;
      if (left === undefined || left < 0 || top < 0) return null;
      var when = u.posToVal(left, "x");
      var lane = Math.floor(u.posToVal(top, "y"));
      var slack = ((u.scales.x.max - u.scales.x.min) * 4) / Math.max(u.bbox.width / devicePixelRatio, 1);
      if (lane === 0) {
        var turn = turns.find(function (t) {
          return when >= t.start - slack && when <= (t.end === null ? t.start : t.end) + slack;
        });
        return turn ? { turn: turn } : null;
      }
      var call = calls.find(function (c) {
        return c.lane === lane && when >= c.start - slack && when <= c.end + slack;
      });
      return call ? { call: call } : null;
    }

    function hover(u) {
      hovered = find(u);
      u.over.style.cursor = hovered ? "pointer" : "";
      if (!hovered) text(readout, "");
      else if (hovered.call) text(readout, describeCall(hovered.call));
      else text(readout, "Turn " + (hovered.turn.index + 1) + (hovered.turn.prompt ? ": " + hovered.turn.prompt : ""));
    }

    // Zooming one chart zooms the other.
    function follow(u) {
      if (syncing) return;
      syncing = true;
      charts.forEach(function (other) {
        if (other !== u) other.setScale("x", { min: u.scales.x.min, max: u.scales.x.max });
      });
      syncing = false;
    }

    // The time axis: squeezed positions labelled with their real times, far enough apart that
    // no two labels overlap.
    function timeAxis() {
      return C.axis(palette, {
        space: days ? 110 : 70,
        values: function (u, splits) { return splits.map(function (x) { return clock(axis.bwd(x), days); }); },
      });
    }

    var laneLabels = function (u, splits) {
      return splits.map(function (v) { return v === 0.5 ? "turns" : v === 1.5 ? "calls" : ""; });
    };
    var stripChart = C.draw(
      stripElement,
      {
        height: expanded ? 56 + 28 + laneCount * 16 : 44 + (laneCount + 1) * 15,
        legend: { show: false },
        cursor: { y: false, points: { show: false }, sync: { key: syncKey }, drag: { x: true, y: false } },
        series: [{}, { paths: function () { return null; }, points: { show: false } }],
        scales: {
          x: { time: false, range: whole },
          y: { range: [0, laneCount + 1], dir: -1 },
        },
        axes: [
          timeAxis(),
          C.axis(palette, {
            size: 48,
            grid: { show: false },
            splits: function () { return [0.5, 1.5]; },
            values: laneLabels,
          }),
        ],
        hooks: { draw: [paintStrip], setCursor: [hover], setScale: [follow] },
      },
      [range, [null, null]]
    );
    stripChart.over.addEventListener("click", function () {
      if (!hovered) return;
      if (hovered.call) go("tool-" + hovered.call.id);
      else go(hovered.turn.anchor);
    });
    charts.push(stripChart);

    var details = panel.querySelector("[data-timeline-details]");
    if (details) details.hidden = !expanded;
    if (points.length && expanded) {
      var xs = points.map(function (point) { return axis.fwd(seconds(point.timestamp)); });
      var contextChart = C.draw(
        contextElement,
        {
          height: 200,
          cursor: { sync: { key: syncKey }, drag: { x: true, y: false } },
          series: [
            {},
            {
              label: "context",
              stroke: palette.series[0],
              fill: C.translucent(palette.series[0]),
              width: 2,
              points: { show: true, size: 4 },
              value: function (u, v) { return v === null || v === undefined ? "" : C.compact(v) + " tokens"; },
            },
            {
              label: "output",
              stroke: palette.series[1],
              width: 1,
              points: { show: false },
              value: function (u, v) { return v === null || v === undefined ? "" : C.compact(v); },
            },
          ],
          scales: {
            x: { time: false, range: whole },
            y: { range: function (u, min, max) { return [0, Math.max(max, 1) * 1.08]; } },
          },
          axes: [
            timeAxis(),
            C.axis(palette, { size: 56, values: function (u, splits) { return splits.map(C.compact); } }),
          ],
          hooks: { draw: [paintCompactions], setScale: [follow] },
        },
        [
          xs,
          points.map(function (point) { return point.context; }),
          points.map(function (point) { return point.output; }),
        ]
      );
      contextChart.over.addEventListener("click", function () {
        var index = contextChart.cursor.idx;
        if (index !== null && index !== undefined) go(points[index].anchor);
      });
      charts.push(contextChart);
    }
    legend(panel, calls, tools, palette);
    panel.dataset.drawn = String(payload.revision) + (expanded ? "+" : "");
    panel.dataset.gaps = String(axis.gaps.length); // idle gaps squeezed (for tests and tools)
  }

  // The revision the charts were drawn for.
  function drawnFor(panel) {
    return (panel.dataset.drawn || "").replace("+", "");
  }

  // Draw when the session changed since the charts were drawn (a live update), never again
  // for the same revision: redrawing destroys and rebuilds both charts.
  function load(panel) {
    return C.fetchJSON(panel.dataset.timeline).then(function (payload) {
      panel.cclensPayload = payload;
      if (drawnFor(panel) !== String(payload.revision)) draw(panel, payload);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var panel = document.querySelector("[data-timeline]");
    if (!panel) return;
    var failed = function (error) {
      text(panel.querySelector("[data-timeline-summary]"), "The timeline could not be drawn: " + error.message);
    };
    load(panel).catch(failed);
    // "More": the context chart, every lane and the legend (or back to the compact strip).
    var more = panel.querySelector("[data-timeline-more]");
    if (more) {
      more.addEventListener("click", function () {
        var expanded = panel.classList.toggle("is-expanded");
        more.setAttribute("aria-expanded", expanded ? "true" : "false");
        more.textContent = expanded ? "Less" : "More";
        if (panel.cclensPayload) draw(panel, panel.cclensPayload);
      });
    }
    // The session grew (live updates): fetch and draw again.
    var again = null;
    document.addEventListener("cclens:updated", function () {
      window.clearTimeout(again);
      again = window.setTimeout(function () { load(panel).catch(failed); }, 300);
    });
    C.onSchemeChange(function () {
      if (panel.cclensPayload) draw(panel, panel.cclensPayload);
    });
  });
})();
