// cclens charts: what the dashboard and the session timeline share. Drawn with uPlot
// (static/vendor, see its README.md), on <canvas>; colours come from the page's CSS variables,
// so light and dark follow the system. No inline script or style: sizes and colours are set
// through the DOM, which the Content-Security-Policy allows.
"use strict";

window.cclensCharts = (function () {
  var SERIES = 10;

  function cssVariable(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }

  // The page's colours now (read at each draw: the scheme may change while the page is open).
  function colors() {
    var series = [];
    for (var i = 1; i <= SERIES; i++) series.push(cssVariable("--chart-" + i));
    return {
      fg: cssVariable("--fg"),
      muted: cssVariable("--muted"),
      line: cssVariable("--line"),
      panel: cssVariable("--panel"),
      bg: cssVariable("--bg"),
      accent: cssVariable("--accent"),
      error: cssVariable("--error"),
      series: series,
    };
  }

  function compact(value) {
    if (value === null || value === undefined || isNaN(value)) return "";
    var size = Math.abs(value);
    if (size >= 1e9) return (value / 1e9).toFixed(1) + "B";
    if (size >= 1e6) return (value / 1e6).toFixed(1) + "M";
    if (size >= 1e3) return (value / 1e3).toFixed(1) + "k";
    return String(Math.round(value * 100) / 100);
  }

  function usd(value) {
    if (value === null || value === undefined) return "—";
    if (value > 0 && value < 0.01) return "$" + value.toFixed(4);
    return "$" + value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined) return "";
    if (seconds < 10) return seconds.toFixed(2) + " s";
    if (seconds < 120) return Math.round(seconds) + " s";
    if (seconds < 7200) return (seconds / 60).toFixed(1) + " min";
    return (seconds / 3600).toFixed(1) + " h";
  }

  // A "#rrggbb" colour at `alpha` opacity (for the area under a line).
  function translucent(color, alpha) {
    var match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
    if (!match) return color;
    var channels = match.slice(1).map(function (hex) { return parseInt(hex, 16); });
    return "rgba(" + channels.join(", ") + ", " + (alpha === undefined ? 0.18 : alpha) + ")";
  }

  // An x scale range: `initial(first, last)` for the data's own extent (uPlot widens a single
  // point by a thousand days by itself), and what a zoom asks for otherwise.
  function fitted(initial) {
    return function (u, min, max) {
      var xs = u.data[0];
      if (!xs || !xs.length || min === null || max === null) return [min, max];
      var first = xs[0];
      var last = xs[xs.length - 1];
      if (min === first && (max === last || xs.length === 1)) return initial(first, last);
      return [min, max];
    };
  }

  function axis(palette, extra) {
    var base = {
      stroke: palette.muted,
      grid: { stroke: palette.line, width: 1 },
      ticks: { stroke: palette.line, width: 1 },
    };
    return Object.assign(base, extra || {});
  }

  function fetchJSON(url) {
    return fetch(url, { headers: { Accept: "application/json" } }).then(function (response) {
      if (!response.ok) {
        return response.json().then(
          function (body) {
            throw new Error(body.error || "HTTP " + response.status);
          },
          function () {
            throw new Error("HTTP " + response.status);
          }
        );
      }
      return response.json();
    });
  }

  // A chart filling the width of `element`, redrawn at the new width when it changes.
  function draw(element, options, data) {
    while (element.firstChild) element.removeChild(element.firstChild);
    var width = Math.max(element.clientWidth, 240);
    var chart = new uPlot(Object.assign({ width: width }, options), data, element);
    if (window.ResizeObserver) {
      var last = width;
      var observer = new ResizeObserver(function () {
        var now = Math.max(element.clientWidth, 240);
        if (Math.abs(now - last) > 2) {
          last = now;
          chart.setSize({ width: now, height: options.height });
        }
      });
      observer.observe(element);
      chart.cclensObserver = observer;
    }
    return chart;
  }

  function destroy(chart) {
    if (!chart) return;
    if (chart.cclensObserver) chart.cclensObserver.disconnect();
    chart.destroy();
  }

  // Call `redraw` again when the colour scheme changes: the system's, or the page's theme
  // (the session view's theme button sets data-theme on <html>).
  function onSchemeChange(redraw) {
    if (window.matchMedia) {
      var query = window.matchMedia("(prefers-color-scheme: dark)");
      if (query.addEventListener) query.addEventListener("change", redraw);
    }
    if (window.MutationObserver) {
      new MutationObserver(redraw).observe(document.documentElement, {
        attributes: true,
        attributeFilter: ["data-theme"],
      });
    }
  }

  function swatch(color) {
    var mark = document.createElement("span");
    mark.className = "swatch";
    mark.style.backgroundColor = color;
    return mark;
  }

  return {
    colors: colors,
    compact: compact,
    usd: usd,
    duration: duration,
    axis: axis,
    fetchJSON: fetchJSON,
    draw: draw,
    destroy: destroy,
    onSchemeChange: onSchemeChange,
    swatch: swatch,
    translucent: translucent,
    fitted: fitted,
  };
})();
