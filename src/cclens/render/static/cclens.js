// cclens session pages: folded parts drawn when opened, long sessions drawn in chunks as the
// reader scrolls, theme and fold preference (remembered for every page), details toggle,
// expanders, repeated events, keys (j/k, J/K, o/Enter, g/G, ?), deep links with highlighted
// terms, copy. Finding within the page is find.js's, on the API this one exports
// (window.cclens: ensure, openMatched, markPattern, clearMarks, focusMatch, texts).
// No inline handlers: everything is wired here, so the page's CSP can forbid inline script.
// Parts come from the page itself (an exported file: compressed blocks inflated with
// DecompressionStream) or from the server (the web app); both are HTML drawn by cclens's
// autoescaped templates.
(function () {
  "use strict";
  var root = document.documentElement;
  var THEMES = ["auto", "light", "dark"];
  var FOLD_KEY = "cclens-fold";
  var THEME_KEY = "cclens-theme";

  function store(key, value) {
    try {
      if (value === undefined) { return window.localStorage.getItem(key); }
      window.localStorage.setItem(key, value);
    } catch (error) { /* storage is unavailable on some file:// pages: keep the default */ }
    return null;
  }

  var saved = store(THEME_KEY);
  if (saved && THEMES.indexOf(saved) >= 0) { root.setAttribute("data-theme", saved); }

  // ---------------------------------------------------------------- the page's data and parts
  var dataElement = document.getElementById("cclens-data");
  var data = {};
  try { data = dataElement ? JSON.parse(dataElement.textContent || "{}") : {}; } catch (error) { data = {}; }
  var blocks = {};
  var fetched = {};

  function inflate(base64) {
    var binary = window.atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot open folded parts (no DecompressionStream)"));
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }

  var mapValue = null;
  var pageMap = (data.map ? inflate(data.map).then(JSON.parse) : Promise.resolve({ ids: {}, parents: {} }))
    .then(function (map) { mapValue = map; return map; });
  pageMap.catch(function () { /* reported when used */ });

  // Whether the element with this id is in a part not drawn yet.
  function isFolded(id) {
    if (document.getElementById(id) || !mapValue) { return false; }
    return Object.prototype.hasOwnProperty.call(mapValue.ids, id);
  }

  // Items a live update appended before the part holding them was drawn: the part's copy wins.
  function dropDuplicates(element) {
    document.querySelectorAll(".is-new[id]").forEach(function (old) {
      if (!element.contains(old) && element.querySelector('[id="' + CSS.escape(old.id) + '"]')) { old.remove(); }
    });
  }

  function fetchPart(id) {
    var packed = data.parts;
    if (packed && packed.where && Object.prototype.hasOwnProperty.call(packed.where, id)) {
      var number = packed.where[id];
      if (!blocks[number]) { blocks[number] = inflate(packed.blocks[number]).then(JSON.parse); }
      return blocks[number].then(function (block) { return block[id]; });
    }
    if (data.source) {
      if (!fetched[id]) {
        fetched[id] = window.fetch(data.source + encodeURIComponent(id), { headers: { Accept: "text/html" } })
          .then(function (response) {
            if (!response.ok) { throw new Error("HTTP " + response.status); }
            return response.text();
          });
        fetched[id].catch(function () { delete fetched[id]; });
      }
      return fetched[id];
    }
    return Promise.reject(new Error("part " + id + " is not in this page"));
  }

  // While the reader reads, inflate the blocks one at a time (kept as text, not drawn), so
  // opening anything later costs only putting it in place.
  function warmBlocks() {
    var packed = data.parts;
    if (!packed || !packed.blocks || typeof DecompressionStream === "undefined") { return; }
    var next = 0;
    var idle = window.requestIdleCallback || function (fn) { return window.setTimeout(fn, 50); };
    function step() {
      while (next < packed.blocks.length && blocks[next]) { next++; }
      if (next >= packed.blocks.length) { return; }
      var number = next++;
      blocks[number] = inflate(packed.blocks[number]).then(JSON.parse);
      blocks[number].then(function () { idle(step); }, report);
    }
    idle(step);
  }

  var loading = new WeakMap();

  // Draw the part an empty data-lazy element stands for (once; later calls share the promise).
  function materialise(element) {
    if (element.hasAttribute("data-ready")) { return Promise.resolve(element); }
    var pending = loading.get(element);
    if (pending) { return pending; }
    var id = element.getAttribute("data-lazy");
    element.classList.add("is-loading");
    pending = fetchPart(id).then(function (html) {
      element.innerHTML = html;
      element.setAttribute("data-ready", "");
      element.classList.remove("is-loading");
      element.style.height = "";
      dropDuplicates(element);
      if (foldOpen()) { openTools(element); }
      document.dispatchEvent(new CustomEvent("cclens:drawn", { detail: { part: id, element: element } }));
      return element;
    }, function (error) {
      loading.delete(element);
      element.classList.remove("is-loading");
      element.setAttribute("data-error", String(error.message || error));
      throw error;
    });
    loading.set(element, pending);
    return pending;
  }

  function lazyChild(details) {
    for (var child = details.firstElementChild; child; child = child.nextElementSibling) {
      if (child.hasAttribute("data-lazy")) { return child; }
    }
    return null;
  }

  // From a server, a part is asked for as soon as the pointer is over what opens it.
  document.addEventListener("pointerover", function (event) {
    if (!data.source || !(event.target instanceof Element)) { return; }
    var summary = event.target.closest("summary");
    var details = summary && summary.parentElement;
    if (!details || details.tagName !== "DETAILS" || details.open) { return; }
    var lazy = lazyChild(details);
    if (lazy && !lazy.hasAttribute("data-ready")) { fetchPart(lazy.getAttribute("data-lazy")).catch(function () {}); }
  });

  // Opening a folded block draws what it holds.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!(details instanceof HTMLDetailsElement) || !details.open) { return; }
    var lazy = lazyChild(details);
    if (lazy) { materialise(lazy).catch(report); }
  }, true);

  function report(error) { if (window.console) { window.console.warn("cclens:", error); } }

  function openDetails(details) {
    details.open = true;
    var lazy = lazyChild(details);
    return lazy ? materialise(lazy) : Promise.resolve(details);
  }

  // ---------------------------------------------------------------- chunks of a long session
  var ESTIMATED_ITEM_HEIGHT = 64;
  var chunkWatcher = null;
  function pendingChunks() {
    return Array.prototype.slice.call(document.querySelectorAll(".chunk[data-lazy]:not([data-ready])"));
  }
  function watchChunks() {
    var pending = pendingChunks();
    pending.forEach(function (chunk) {
      var count = parseInt(chunk.getAttribute("data-count") || "1", 10);
      chunk.style.height = (count * ESTIMATED_ITEM_HEIGHT) + "px";
    });
    if (!("IntersectionObserver" in window)) {
      pending.forEach(function (chunk) { materialise(chunk).catch(report); });
      return;
    }
    chunkWatcher = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          chunkWatcher.unobserve(entry.target);
          materialise(entry.target).catch(report);
        }
      });
    }, { rootMargin: "800px 0px" });
    pending.forEach(function (chunk) { chunkWatcher.observe(chunk); });
  }

  // ---------------------------------------------------------------- reveal any element
  function partElement(id) {
    return document.querySelector('[data-lazy="' + CSS.escape(id) + '"]');
  }

  function openPart(id) {
    var element = partElement(id);
    if (!element) { return Promise.resolve(null); }
    var details = element.parentElement && element.parentElement.closest("details");
    if (details && lazyChild(details) === element) { return openDetails(details); }
    return materialise(element);
  }

  function openAncestors(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) { node.open = true; }
      if (node.classList && node.classList.contains("noisy")) {
        var head = node.getAttribute("data-repeat-of");
        if (head) { openRepeats(head); } else { setDetails(true); }
      }
    }
  }

  // The element with this id, its chunk, subagent conversation, tool body or branch drawn
  // first: the map the page carries says which parts hold it.
  function ensure(id) {
    var found = document.getElementById(id);
    if (found) { return Promise.resolve(found); }
    return pageMap.then(function (map) {
      var chain = [];
      var part = map.ids[id];
      while (part && chain.indexOf(part) < 0) { chain.unshift(part); part = map.parents[part]; }
      return chain.reduce(function (previous, partId) {
        return previous.then(function () { return openPart(partId); });
      }, Promise.resolve()).then(function () { return document.getElementById(id); });
    });
  }

  // Keep an element where it was scrolled to while the page above it settles (chunks drawn,
  // charts laid out), until the reader scrolls or a second has passed.
  var settling = null;
  function keepInView(element, block) {
    if (settling) { settling(); }
    element.scrollIntoView({ block: block });
    var top = element.getBoundingClientRect().top;
    var until = Date.now() + 1200;
    var stopped = false;
    function stop() {
      stopped = true;
      ["wheel", "keydown", "touchstart", "mousedown"].forEach(function (name) {
        window.removeEventListener(name, stop, true);
      });
    }
    ["wheel", "keydown", "touchstart", "mousedown"].forEach(function (name) {
      window.addEventListener(name, stop, true);
    });
    settling = stop;
    function check() {
      if (stopped || !element.isConnected) { return; }
      if (Math.abs(element.getBoundingClientRect().top - top) > 4) {
        element.scrollIntoView({ block: block });
        top = element.getBoundingClientRect().top;
      }
      if (Date.now() < until) { window.requestAnimationFrame(check); } else { stop(); }
    }
    window.requestAnimationFrame(check);
  }

  // Ask for the parts that hold the element with this id (not drawn: fetched or inflated and
  // kept), so drawing them later costs only putting them in place.
  function prefetch(id) {
    if (document.getElementById(id)) { return Promise.resolve(); }
    return pageMap.then(function (map) {
      var part = map.ids[id];
      var chain = [];
      while (part && chain.indexOf(part) < 0) { chain.push(part); part = map.parents[part]; }
      return Promise.all(chain.map(function (partId) { return fetchPart(partId).catch(function () {}); }));
    });
  }

  function reveal(id) {
    return ensure(id).then(function (element) {
      if (!element) { return null; }
      openAncestors(element);
      keepInView(element, "start");
      return element;
    });
  }

  // ---------------------------------------------------------------- highlighted search terms
  function unclamp(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.classList && node.classList.contains("clamp") && node.classList.contains("is-clamped")) {
        node.classList.remove("is-clamped");
        var button = node.parentElement && node.parentElement.querySelector(":scope > button.expand");
        if (button) { button.textContent = "Show less"; }
      }
    }
  }

  function escapeRegExp(text) { return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // Scripts written without spaces (cclens.scripts): search reads each of their characters as a
  // word, so "推广产品" also finds "推广，产品" and "API接入" finds "API 接入". Such a term is
  // marked the same way: its words in order, anything but letters and digits between them.
  var UNSPACED = "\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\p{sc=Bopomofo}\\p{sc=Yi}" +
    "\\p{sc=Thai}\\p{sc=Lao}\\p{sc=Khmer}\\p{sc=Myanmar}";
  var HAS_UNSPACED = new RegExp("[" + UNSPACED + "]", "u");
  var TERM_WORDS = new RegExp("[" + UNSPACED + "]\\p{M}*|(?:(?![" + UNSPACED + "])[\\p{L}\\p{N}])+", "gu");

  function termPattern(term) {
    if (!HAS_UNSPACED.test(term)) { return escapeRegExp(term); }
    return (term.match(TERM_WORDS) || []).map(escapeRegExp).join("[^\\p{L}\\p{N}]*");
  }

  function mark(scope, terms) {
    var words = terms.map(function (t) { return t.trim(); }).filter(Boolean);
    if (!words.length) { return []; }
    words.sort(function (a, b) { return b.length - a.length; });
    return markPattern(scope, new RegExp(words.map(termPattern).join("|"), "giu"), "hl");
  }

  // Every match of pattern (global) in the text under scope, wrapped in <mark class="...">.
  function markPattern(scope, pattern, className) {
    // Folded rests of long texts that hold a match are drawn, so the match can be shown.
    scope.querySelectorAll("template.more").forEach(function (more) {
      pattern.lastIndex = 0;
      if (pattern.test(more.content.textContent || "")) {
        var clamp = more.closest(".clamp");
        if (clamp) { unfold(clamp); } else { more.replaceWith(more.content); }
      }
    });
    var walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        var parent = node.parentElement;
        if (!parent || parent.closest("mark.hl, mark.find, script, style, .find-bar") ||
            (className === "hl" && parent.closest("summary.tool-head"))) { return NodeFilter.FILTER_REJECT; }
        return NodeFilter.FILTER_ACCEPT;
      }
    });
    var nodes = [];
    while (walker.nextNode()) { nodes.push(walker.currentNode); }
    var marks = [];
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      pattern.lastIndex = 0;
      var match;
      var pieces = [];
      var last = 0;
      while ((match = pattern.exec(text)) !== null) {
        if (!match[0]) { pattern.lastIndex++; continue; }
        pieces.push([match.index, match.index + match[0].length]);
      }
      if (!pieces.length) { return; }
      var fragment = document.createDocumentFragment();
      pieces.forEach(function (piece) {
        if (piece[0] > last) { fragment.appendChild(document.createTextNode(text.slice(last, piece[0]))); }
        var element = document.createElement("mark");
        element.className = className;
        element.textContent = text.slice(piece[0], piece[1]);
        fragment.appendChild(element);
        marks.push(element);
        last = piece[1];
      });
      if (last < text.length) { fragment.appendChild(document.createTextNode(text.slice(last))); }
      node.parentNode.replaceChild(fragment, node);
    });
    return marks;
  }

  // Open what folds the matched kind of text inside the target, and give the scope to search.
  function openMatched(element, kind) {
    var tool = element.matches("section.tool") ? element : null;
    if (tool && (kind === "tool_input" || kind === "tool_output" || kind === "tool" || !kind)) {
      var details = tool.querySelector(":scope > details.tool-details");
      return openDetails(details).then(function () {
        var body = details.querySelector(".tool-body");
        if (kind === "tool_output") {
          own(body.querySelectorAll("details.collapsible-raw-result"), tool).forEach(function (d) { d.open = true; });
          // What the model read besides what the view shows is searched too; its fold opens
          // only when the first match is inside it.
          var results = own(body.querySelectorAll('[data-part="result"], .collapsible-raw-result, .collapsible-unshown-result'), tool);
          return results.length ? results : [body];
        }
        // The row says what the call did (a command's description is there only).
        var head = details.querySelector(":scope > summary.tool-head");
        if (kind === "tool_input") {
          var inputs = own(body.querySelectorAll('[data-part="input"]'), tool);
          return [head].concat(inputs.length ? inputs : [body]);
        }
        return [head, body];
      });
    }
    if (kind === "thinking") {
      var thoughts = Array.prototype.slice.call(element.querySelectorAll(":scope > .msg-body > details.thinking"));
      return Promise.all(thoughts.map(openDetails)).then(function () {
        return thoughts.length ? thoughts : [element];
      });
    }
    if (kind === "assistant") {
      var texts = Array.prototype.slice.call(element.querySelectorAll(":scope > .msg-body > .block-text"));
      return Promise.resolve(texts.length ? texts : [element]);
    }
    if (kind === "prompt") {
      var prompt = element.querySelector(":scope > .msg-body");
      return Promise.resolve([prompt || element]);
    }
    if (kind === "summary" && element.tagName === "DETAILS") {
      return openDetails(element).then(function () { return [element]; });
    }
    return Promise.resolve([element]);
  }

  // The elements of a list that belong to this call, not to a call of a subagent inside it.
  function own(list, tool) {
    return Array.prototype.filter.call(list, function (node) { return node.closest("section.tool") === tool; });
  }

  function highlightTerms(element, kind, terms) {
    return openMatched(element, kind).then(function (scopes) {
      var marks = [];
      scopes.forEach(function (scope) { marks = marks.concat(mark(scope, terms)); });
      if (!marks.length && scopes[0] !== element) { marks = mark(element, terms); }
      if (!marks.length) { return null; }
      marks.forEach(unclamp);
      openAncestors(marks[0]);
      keepInView(marks[0], "center");
      return marks[0];
    });
  }

  // ---------------------------------------------------------------- preferences and buttons
  function button(action) { return document.querySelector('.toolbar [data-action="' + action + '"]'); }

  function setDetails(on) {
    root.classList.toggle("show-details", on);
    var b = button("details");
    if (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.textContent = on ? "Hide details" : "Show details";
    }
  }

  function foldOpen() { return store(FOLD_KEY) === "open"; }

  function openTools(scope) {
    scope.querySelectorAll("details.tool-details").forEach(function (d) {
      if (!d.open) { openDetails(d).catch(report); }
    });
  }

  function showFold() {
    var b = button("fold");
    if (!b) { return; }
    var open = foldOpen();
    b.setAttribute("aria-pressed", open ? "true" : "false");
    b.textContent = open ? "Fold all" : "Open all";
  }

  function setFold(open) {
    store(FOLD_KEY, open ? "open" : "folded");
    if (open) { openTools(document); }
    else { document.querySelectorAll("details.tool-details").forEach(function (d) { d.open = false; }); }
    showFold();
  }

  function showTheme() {
    var b = button("theme");
    if (b) { b.textContent = "Theme: " + (root.getAttribute("data-theme") || "auto"); }
  }

  function copy(b) {
    var text = b.getAttribute("data-copy") || "";
    function done() {
      b.classList.add("copied");
      b.textContent = "Copied";
      window.setTimeout(function () { b.classList.remove("copied"); b.textContent = "Copy"; }, 1500);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { select(b); });
    } else {
      select(b);
    }
  }

  function select(b) {
    var code = b.parentElement && b.parentElement.querySelector("code");
    if (!code) { return; }
    var range = document.createRange();
    range.selectNodeContents(code);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // The rest of a long text, code block or diff waits in an inert <template>: put it in place.
  function unfold(container) {
    container.querySelectorAll("template.more").forEach(function (more) {
      more.replaceWith(more.content);
    });
  }

  function toggleExpand(b) {
    var clamp = b.previousElementSibling;
    if (!clamp || !clamp.classList.contains("clamp")) { return; }
    unfold(clamp);
    var clamped = clamp.classList.toggle("is-clamped");
    var lines = b.getAttribute("data-lines");
    b.textContent = clamped ? "Show all " + lines + " lines" : "Show less";
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) { return; }
    var b = target.closest("button");
    if (!b) { return; }
    if (b.classList.contains("expand")) { toggleExpand(b); return; }
    if (b.hasAttribute("data-close-dialog")) { var dialog = b.closest("dialog"); if (dialog) { dialog.close(); } return; }
    if (b.classList.contains("copy")) { copy(b); return; }
    var action = b.getAttribute("data-action");
    if (action === "details") { setDetails(!root.classList.contains("show-details")); }
    else if (action === "keys") { showKeys(); }
    else if (action === "find") { if (window.cclens.find) { window.cclens.find.open(""); } }
    else if (action === "fold") { setFold(!foldOpen()); }
    else if (action === "theme") {
      var next = THEMES[(THEMES.indexOf(root.getAttribute("data-theme") || "auto") + 1) % THEMES.length];
      root.setAttribute("data-theme", next);
      store(THEME_KEY, next);
      showTheme();
    }
  });

  // ---------------------------------------------------------------- keys
  // j / k (or Alt+ArrowDown / Alt+ArrowUp) move between visible messages, J / K between
  // prompts; a chunk not drawn yet is drawn on the way. g / G: the first or last message.
  // Enter or o opens (or folds) the current message's calls and thinking. ? lists the keys.
  var MESSAGES = ".msg";
  var PROMPTS = '.msg[data-kind="prompt"]';
  function messages(selector) {
    return Array.prototype.filter.call(document.querySelectorAll(selector), function (m) {
      return m.offsetParent !== null;
    });
  }
  function firstPendingAfter(node) {
    var chunks = pendingChunks();
    for (var i = 0; i < chunks.length; i++) {
      if (!node || (node.compareDocumentPosition(chunks[i]) & Node.DOCUMENT_POSITION_FOLLOWING)) { return chunks[i]; }
    }
    return null;
  }
  function lastPendingBefore(node) {
    var chunks = pendingChunks();
    for (var i = chunks.length - 1; i >= 0; i--) {
      if (node && (node.compareDocumentPosition(chunks[i]) & Node.DOCUMENT_POSITION_PRECEDING)) { return chunks[i]; }
    }
    return null;
  }
  function makeCurrent(next) {
    var previous = document.querySelector(".msg.current");
    if (previous) { previous.classList.remove("current"); }
    next.classList.add("current");
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "start" });
  }
  function move(step, selector) {
    var list = messages(selector);
    var previous = document.querySelector(".msg.current");
    var index = -1;
    if (previous) {
      index = list.indexOf(previous);
      if (index < 0) {  // the current one is not of this kind: from where it is
        index = step > 0 ? -1 : list.length;
        for (var i = 0; i < list.length; i++) {
          if (previous.compareDocumentPosition(list[i]) & Node.DOCUMENT_POSITION_FOLLOWING) { index = i - (step > 0 ? 1 : 0); break; }
        }
      }
    }
    var next = list[Math.max(0, Math.min(list.length - 1, index + step))];
    // A chunk not drawn yet between here and there (or past the end) is drawn first.
    var gap = step > 0 ? firstPendingAfter(previous) : lastPendingBefore(previous);
    if (gap && (!next || next === previous ||
        (step > 0 ? next.compareDocumentPosition(gap) & Node.DOCUMENT_POSITION_PRECEDING
                  : next.compareDocumentPosition(gap) & Node.DOCUMENT_POSITION_FOLLOWING))) {
      materialise(gap).then(function () { move(step, selector); }, report);
      return;
    }
    if (next) { makeCurrent(next); }
  }
  function toEnd(last) {
    var chunks = pendingChunks();
    var waiting = last && chunks.length ? materialise(chunks[chunks.length - 1]) : Promise.resolve();
    waiting.then(function () {
      var list = messages(MESSAGES);
      var target = last ? list[list.length - 1] : list[0];
      if (target) { makeCurrent(target); }
      if (last) { window.scrollTo(0, document.documentElement.scrollHeight); if (target) { target.scrollIntoView({ block: "end" }); } }
      else { window.scrollTo(0, 0); }
    }, report);
  }
  // The folds of a message itself, not of a subagent's messages inside it.
  function folds(message) {
    return Array.prototype.filter.call(message.querySelectorAll("details.tool-details, details.thinking"), function (d) {
      return d.closest(".msg") === message;
    });
  }
  function toggleFolds(message) {
    var list = folds(message);
    if (!list.length) { return; }
    var open = list.some(function (d) { return !d.open; });
    list.forEach(function (d) { if (open) { openDetails(d).catch(report); } else { d.open = false; } });
  }
  function showKeys() {
    var dialog = document.querySelector("dialog[data-keys-help]");
    if (!dialog) { return; }
    if (dialog.open) { dialog.close(); } else { dialog.showModal(); }
  }
  function typing(t) {
    return t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey) { return; }
    var t = event.target;
    if (typing(t) || document.querySelector("dialog[open]")) { return; }
    var key = event.key;
    var handled = true;
    if ((key === "j" && !event.altKey) || (key === "ArrowDown" && event.altKey)) { move(1, MESSAGES); }
    else if ((key === "k" && !event.altKey) || (key === "ArrowUp" && event.altKey)) { move(-1, MESSAGES); }
    else if (event.altKey) { handled = false; }
    else if (key === "J") { move(1, PROMPTS); }
    else if (key === "K") { move(-1, PROMPTS); }
    else if (key === "g") { toEnd(false); }
    else if (key === "G") { toEnd(true); }
    else if (key === "?") { showKeys(); }
    else if ((key === "o" || key === "Enter") && !(t instanceof Element && t.closest("a, button, summary"))) {
      var current = document.querySelector(".msg.current");
      if (current) { toggleFolds(current); } else { handled = false; }
    }
    else { handled = false; }
    if (handled) { event.preventDefault(); }
  });

  // ---------------------------------------------------------------- repeated events
  // The count on the first of repeated events shows (or folds again) the others, in place.
  var shownRepeats = {};
  function showRepeats(anchor, on, scope) {
    (scope || document).querySelectorAll('[data-repeat-of="' + CSS.escape(anchor) + '"]').forEach(function (event) {
      event.classList.toggle("repeat-shown", on);
    });
  }
  document.addEventListener("click", function (event) {
    var b = event.target instanceof Element ? event.target.closest("button[data-repeats]") : null;
    if (!b) { return; }
    var anchor = b.getAttribute("data-repeats");
    var on = b.getAttribute("aria-expanded") !== "true";
    b.setAttribute("aria-expanded", on ? "true" : "false");
    if (on) { shownRepeats[anchor] = true; } else { delete shownRepeats[anchor]; }
    showRepeats(anchor, on);
  });
  function openRepeats(anchor) {
    shownRepeats[anchor] = true;
    showRepeats(anchor, true);
    var b = document.querySelector('button[data-repeats="' + CSS.escape(anchor) + '"]');
    if (b) { b.setAttribute("aria-expanded", "true"); }
  }
  document.addEventListener("cclens:drawn", function (event) {
    Object.keys(shownRepeats).forEach(function (anchor) { showRepeats(anchor, true, event.detail.element); });
  });

  // ---------------------------------------------------------------- deep links
  function hashTarget() {
    var raw = window.location.hash.slice(1);
    if (!raw) { return ""; }
    try { return decodeURIComponent(raw); } catch (error) { return raw; }
  }

  function followLink(first) {
    var id = hashTarget();
    var params = new URLSearchParams(window.location.search);
    var terms = first ? params.getAll("hl") : [];
    var kind = first ? params.get("part") || "" : "";
    if (!id && !terms.length) { return Promise.resolve(null); }
    var target = id ? reveal(id) : Promise.resolve(document.querySelector("main.session"));
    return target.then(function (element) {
      if (!element) { return null; }
      element.classList.add("is-target");
      window.setTimeout(function () { element.classList.remove("is-target"); }, 2500);
      if (!terms.length) {
        // A link to a tool call (the timeline, a background task) opens it.
        var details = element.matches("section.tool") && element.querySelector(":scope > details.tool-details");
        return details ? openDetails(details).then(function () { return element; }) : element;
      }
      return highlightTerms(element, kind, terms).then(function (found) { return found || element; });
    }).then(function (result) {
      document.dispatchEvent(new CustomEvent("cclens:revealed", { detail: { id: id, element: result } }));
      return result;
    });
  }

  // The text index of the page (find.js): carried compressed in an exported file, asked of the
  // server in the web app. [[element id, kind, text], ...] in page order.
  var textIndex = null;
  // An entry [id, "tool", row, part] names the part of a call's body: its text is its row's
  // and the text the body shows.
  // The text of a part's HTML (cclens's own templates: tags and the entities they escape
  // with), the rests of long texts waiting in <template>s included. Read without building
  // any DOM: a session's calls are thousands of parts.
  var ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
  function htmlText(html) {
    return html.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, function (whole, name) {
      if (name[0] === "#") {
        var code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return isNaN(code) ? whole : String.fromCodePoint(code);
      }
      return Object.prototype.hasOwnProperty.call(ENTITIES, name) ? ENTITIES[name] : whole;
    });
  }
  function partTexts(list) {
    return Promise.all(list.map(function (entry) {
      if (!entry[3]) { return entry; }
      return fetchPart(entry[3]).then(function (html) { return [entry[0], entry[1], entry[2] + "\n" + htmlText(html)]; });
    }));
  }
  function texts() {
    if (!textIndex) {
      if (data.text) { textIndex = inflate(data.text).then(JSON.parse).then(partTexts); }
      else if (data.texts) {
        textIndex = window.fetch(data.texts, { headers: { Accept: "application/json" } }).then(function (response) {
          if (!response.ok) { throw new Error("HTTP " + response.status); }
          return response.json();
        });
      } else { textIndex = Promise.reject(new Error("this page has no text index")); }
      textIndex.catch(function () { textIndex = null; });
    }
    return textIndex;
  }

  function clearMarks() {
    document.querySelectorAll("mark.find, mark.hl").forEach(function (m) {
      var parent = m.parentNode;
      parent.replaceChild(document.createTextNode(m.textContent), m);
      parent.normalize();
    });
  }

  function focusMatch(element) {
    unclamp(element);
    openAncestors(element);
    keepInView(element, "center");
  }

  window.cclens = {
    reveal: reveal,
    ensure: ensure,
    prefetch: prefetch,
    open: openPart,
    openMatched: openMatched,
    markPattern: markPattern,
    clearMarks: clearMarks,
    focusMatch: focusMatch,
    texts: texts,
    isFolded: isFolded,
    // Every chunk of a long session drawn now (printing, tests); returns a Promise.
    drawChunks: function () { return Promise.all(pendingChunks().map(materialise)); },
    highlight: function (element, terms, kind) { return highlightTerms(element, kind || "", terms); },
    ready: null
  };

  function start() {
    showFold();
    showTheme();
    var main = document.querySelector("main.session");
    if (main && foldOpen()) { openTools(main); }
    watchChunks();
    window.cclens.ready = followLink(true).catch(report);
    if (document.readyState === "complete") { warmBlocks(); }
    else { window.addEventListener("load", warmBlocks); }
    window.addEventListener("hashchange", function () { followLink(false).catch(report); });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();
