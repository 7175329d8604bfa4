// cclens session pages: find within the session (/ or Ctrl-F), folded parts and subagents
// included. The page's texts come from its text index (an exported file carries it compressed,
// the web app serves it: window.cclens.texts()), in page order, so a match in a part not drawn
// yet is counted like any other; stepping to it draws and opens what holds it, marks the
// matches there and scrolls to the current one. After landing from a search hit, the bar offers
// the next and previous hits of the same terms in this session.
(function () {
  "use strict";
  var api = window.cclens;
  var bar = document.querySelector("[data-find-bar]");
  if (!api || !api.texts || !bar) { return; }
  var input = bar.querySelector("input");
  var counter = bar.querySelector("[data-find-count]");

  var entries = null;   // [[target, kind, text], ...] in page order
  var lowered = null;   // the texts, lower-cased once
  var firstOf = null;   // target -> index of its first entry
  var loading = null;

  function load() {
    if (!loading) {
      loading = api.texts().then(function (list) {
        entries = list;
        lowered = new Array(list.length);
        firstOf = Object.create(null);
        for (var i = 0; i < list.length; i++) {
          lowered[i] = list[i][2].toLowerCase();
          if (!(list[i][0] in firstOf)) { firstOf[list[i][0]] = i; }
        }
        return list;
      });
      loading.catch(function (error) { loading = null; show("cannot search: " + (error.message || error)); });
    }
    return loading;
  }

  // ------------------------------------------------------------------ what is searched for
  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // A query: the typed text as one phrase (spaces match any run of white space), or the terms
  // of a search hit (any of them). Matching ignores case.
  function compile(words) {
    words = words.map(function (w) { return w.trim(); }).filter(Boolean);
    if (!words.length) { return null; }
    words.sort(function (a, b) { return b.length - a.length; });
    var parts = words.map(function (w) { return w.split(/\s+/).map(escapeRegExp).join("\\s+"); });
    var plain = words.length === 1 && !/\s/.test(words[0]) ? words[0].toLowerCase() : null;
    return { source: parts.join("|"), plain: plain, words: words };
  }

  function countIn(text, query, scan) {
    var count = 0;
    if (query.plain !== null) {
      var at = text.indexOf(query.plain);
      while (at >= 0) { count++; at = text.indexOf(query.plain, at + query.plain.length); }
      return count;
    }
    scan.lastIndex = 0;
    var match;
    while ((match = scan.exec(text)) !== null) {
      if (!match[0]) { scan.lastIndex++; continue; }
      count++;
    }
    return count;
  }

  // ------------------------------------------------------------------ state
  var query = null;       // compile()'s result
  var counts = [];        // matches per entry
  var total = 0;
  var at = -1;            // the entry of the current match
  var nth = 0;            // which match inside it
  var generation = 0;     // a newer step makes an older one stop where it is

  function search(words) {
    query = compile(words);
    counts = [];
    total = 0;
    at = -1;
    nth = 0;
    if (!query || !entries) { return; }
    var scan = new RegExp(query.source.toLowerCase(), "g");
    counts = new Array(entries.length);
    for (var i = 0; i < entries.length; i++) {
      counts[i] = countIn(lowered[i], query, scan);
      total += counts[i];
    }
  }

  function ordinal() {
    var before = 0;
    for (var i = 0; i < at; i++) { before += counts[i]; }
    return before + (nth < 0 ? counts[at] - 1 : nth) + 1;
  }

  function show(text) { counter.textContent = text; }

  function showCount() {
    if (!query) { show(""); return; }
    if (!entries) { show("…"); return; }
    if (!total) { show("no match"); bar.classList.add("find-none"); return; }
    bar.classList.remove("find-none");
    show(at < 0 ? total + (total === 1 ? " match" : " matches") : ordinal() + " of " + total);
  }

  function nextFrom(index, step) {
    var n = entries.length;
    for (var tries = 0; tries < n; tries++) {
      index = (index + step + n) % n;
      if (counts[index] > 0) { return index; }
    }
    return -1;
  }

  // The first entry at or after what the reader is looking at.
  function startIndex() {
    if (window.scrollY < 50) { return 0; }
    var elements = document.querySelectorAll("main.session .msg[id], main.session section.tool[id], main.session .event[id]");
    for (var i = 0; i < elements.length; i++) {
      var box = elements[i].getBoundingClientRect();
      if (box.bottom > 0 && box.height > 0 && elements[i].id in firstOf) { return firstOf[elements[i].id]; }
    }
    return 0;
  }

  function step(direction) {
    if (!query || !entries || !total) { showCount(); return Promise.resolve(null); }
    if (at < 0) {
      var start = startIndex();
      at = counts[start] > 0 ? start : nextFrom(start, 1);
      nth = 0;
    } else if (direction > 0) {
      if (nth + 1 < counts[at]) { nth++; } else { at = nextFrom(at, 1); nth = 0; }
    } else if (direction < 0) {
      // Into the entry before: its last match (-1 until the page says how many it shows).
      if (nth > 0) { nth--; } else { at = nextFrom(at, -1); nth = -1; }
    }
    return land();
  }

  // While the reader looks at a match (a quarter of a second: not while typing), the parts
  // holding the next one are asked for, so stepping to it does not wait for the server.
  var aheadTimer = null;
  function ahead() {
    if (aheadTimer) { window.clearTimeout(aheadTimer); }
    if (!api.prefetch || at < 0) { return; }
    var mine = generation;
    aheadTimer = window.setTimeout(function () {
      aheadTimer = null;
      var index = nextFrom(at, 1);
      if (mine === generation && index >= 0 && index !== at) { api.prefetch(entries[index][0]).catch(function () {}); }
    }, 250);
  }

  // Draw and open what holds the current match, mark the matches there, scroll to it.
  function land() {
    var mine = ++generation;
    var entry = entries[at];
    var index = at;
    showCount();
    return api.ensure(entry[0]).then(function (element) {
      if (mine !== generation || !element) { return null; }
      return api.openMatched(element, entry[1]).then(function (scopes) {
        if (mine !== generation) { return null; }
        api.clearMarks();
        var pattern = new RegExp(query.source, "gi");
        var marks = [];
        scopes.forEach(function (scope) { marks = marks.concat(api.markPattern(scope, pattern, "find")); });
        if (!marks.length && scopes[0] !== element) { marks = api.markPattern(element, pattern, "find"); }
        if (marks.length && marks.length !== counts[index]) {
          // The page shows this text otherwise than the transcript holds it: count what it shows.
          total += marks.length - counts[index];
          counts[index] = marks.length;
          if (nth >= marks.length) { nth = marks.length - 1; }
        }
        if (nth < 0) { nth = Math.max(0, counts[index] - 1); }
        var current = marks[nth] || null;
        if (current) {
          current.classList.add("find-current");
          api.focusMatch(current);
        } else {
          api.focusMatch(element);
        }
        bar.setAttribute("data-at", entry[0]);
        showCount();
        document.dispatchEvent(new CustomEvent("cclens:found", { detail: { element: current || element, target: entry[0], kind: entry[1] } }));
        ahead();
        return current || element;
      });
    }).catch(function (error) {
      if (window.console) { window.console.warn("cclens:", error); }
      return null;
    });
  }

  // ------------------------------------------------------------------ the bar
  var typed = "";
  var timer = null;

  function open(focus) {
    bar.hidden = false;
    document.documentElement.classList.add("finding");
    if (focus) { input.focus(); input.select(); }
    return load().then(function () { if (query && !counts.length) { search(query.words); } showCount(); });
  }

  function close() {
    generation++;
    bar.hidden = true;
    document.documentElement.classList.remove("finding");
    api.clearMarks();
    if (document.activeElement === input) { input.blur(); }
  }

  function find(words, go) {
    return load().then(function () {
      search(words);
      showCount();
      if (go && total) { return step(1); }
      // Nothing to go to: said all the same, so whoever waits for a find hears of it.
      document.dispatchEvent(new CustomEvent("cclens:found", { detail: { element: null, target: null, kind: null } }));
      return null;
    });
  }

  input.addEventListener("input", function () {
    if (timer) { window.clearTimeout(timer); }
    timer = window.setTimeout(function () {
      timer = null;
      if (input.value === typed) { return; }
      typed = input.value;
      find([typed], true);
    }, 60);
  });

  input.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === "F3") {
      event.preventDefault();
      if (timer) { window.clearTimeout(timer); timer = null; }
      if (input.value !== typed) { typed = input.value; find([typed], true); return; }
      step(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  });

  bar.addEventListener("click", function (event) {
    var b = event.target instanceof Element ? event.target.closest("button[data-find]") : null;
    if (!b) { return; }
    var action = b.getAttribute("data-find");
    if (action === "close") { close(); }
    else { load().then(function () { step(action === "previous" ? -1 : 1); }); }
  });

  function typing(target) {
    return target instanceof HTMLElement &&
      (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented) { return; }
    var key = event.key;
    var mod = event.ctrlKey || event.metaKey;
    if (mod && !event.altKey && (key === "f" || key === "F")) {
      // A second Ctrl-F in the bar is the browser's own find.
      if (document.activeElement === input) { return; }
      event.preventDefault();
      open(true);
    } else if (key === "/" && !mod && !event.altKey && !typing(event.target)) {
      event.preventDefault();
      open(true);
    } else if (key === "F3" && !bar.hidden) {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    } else if (key === "Escape" && !bar.hidden && !typing(event.target)) {
      close();
    }
  });

  // Landing from a search hit: the same terms, stepped through this session from that hit.
  document.addEventListener("cclens:revealed", function (event) {
    var terms = new URLSearchParams(window.location.search).getAll("hl");
    var detail = event.detail || {};
    if (!terms.length || !detail.id) { return; }
    var kind = new URLSearchParams(window.location.search).get("part") || "";
    input.value = terms.join(" ");
    typed = input.value;
    bar.classList.add("find-hit");
    open(false).then(function () {
      search(terms);
      var start = firstOf[detail.id];
      for (var i = start === undefined ? entries.length : start; i < entries.length; i++) {
        if (entries[i][0] === detail.id && counts[i] > 0 && (!kind || entries[i][1] === kind)) { at = i; nth = 0; break; }
      }
      showCount();
    });
  });

  api.find = {
    open: function (text) { input.value = text || ""; typed = ""; return open(false).then(function () { typed = input.value; return find([typed], true); }); },
    next: function () { return step(1); },
    previous: function () { return step(-1); },
    close: close,
    state: function () { return { total: total, at: at < 0 ? 0 : ordinal(), target: at < 0 ? null : entries[at][0] }; }
  };
})();
