// cclens web app: keys on every page. Ctrl-K (or / outside a session page) opens search with
// results as you type (/api/search); ? lists every key; j / k move between the rows of a list
// and Enter or o opens one; [ and ] open the previous or next session of the list you came
// from; g / G go to the top or the bottom. A session page's own keys (find, messages, prompts,
// folds) are its script's (static/render/cclens.js): a key it took is not taken again here.
// Keys are never taken while you type in a field. The markup is the page's (_keys.html).
"use strict";

(function () {
  var LIST_KEY = "cclens-list";

  function typing(target) {
    return target instanceof HTMLElement &&
      (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function sessionPage() { return document.body.hasAttribute("data-live-session"); }

  // ---------------------------------------------------------------- search as you type
  var palette = document.querySelector("dialog[data-palette]");
  var field = palette && palette.querySelector("input[type=search]");
  var list = palette && palette.querySelector("[data-palette-results]");
  var status = palette && palette.querySelector("[data-palette-status]");
  var rowTemplate = palette && palette.querySelector("template[data-palette-row]");
  var all = palette && palette.querySelector("a[data-palette-all]");
  var timer = null;
  var asked = 0;
  var controller = null;

  function openPalette() {
    if (!palette) return;
    if (!palette.open) palette.showModal();
    field.focus();
    field.select();
  }

  function rows() { return Array.prototype.slice.call(list.querySelectorAll("a.palette-row")); }

  function choose(index) {
    var found = rows();
    if (!found.length) return;
    index = (index + found.length) % found.length;
    found.forEach(function (row, i) { row.setAttribute("aria-selected", i === index ? "true" : "false"); });
    found[index].scrollIntoView({ block: "nearest" });
  }

  function chosen() {
    var found = rows();
    for (var i = 0; i < found.length; i++) { if (found[i].getAttribute("aria-selected") === "true") return i; }
    return -1;
  }

  // A snippet's text with its matches marked, every piece as text (never as HTML).
  function fillSnippet(element, hit) {
    var text = hit.snippet || "";
    var last = 0;
    (hit.matches || []).forEach(function (range) {
      if (range[0] > last) element.appendChild(document.createTextNode(text.slice(last, range[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(range[0], range[1]);
      element.appendChild(mark);
      last = range[1];
    });
    if (last < text.length) element.appendChild(document.createTextNode(text.slice(last)));
  }

  function draw(query, answer) {
    list.textContent = "";
    var groups = answer.groups || [];
    groups.forEach(function (group) {
      var hit = (group.shown || [])[0];
      var row = rowTemplate.content.firstElementChild.cloneNode(true);
      row.href = hit ? hit.url : group.url;
      row.querySelector("[data-row-title]").textContent = group.title || group.session;
      row.querySelector("[data-row-meta]").textContent =
        group.project + " · " + group.hits + (group.hits === 1 ? " hit" : " hits");
      if (hit) {
        var snippet = row.querySelector("[data-row-snippet]");
        fillSnippet(snippet, hit);
        if (hit.monospace) snippet.classList.add("code");
      }
      list.appendChild(row);
    });
    var total = answer.total || { hits: 0, sessions: 0 };
    status.textContent = total.hits
      ? total.hits + (total.hits === 1 ? " hit" : " hits") + " in " + total.sessions +
        (total.sessions === 1 ? " session" : " sessions")
      : "No matches.";
    all.href = "/search?q=" + encodeURIComponent(query);
    all.hidden = !total.hits;
    if (groups.length) choose(0);
  }

  function ask() {
    var query = field.value.trim();
    var mine = ++asked;
    if (controller) controller.abort();
    if (!query) {
      list.textContent = "";
      status.textContent = "";
      all.hidden = true;
      return;
    }
    controller = typeof AbortController !== "undefined" ? new AbortController() : null;
    status.textContent = "Searching…";
    fetch("/api/search?limit=8&per_session=1&q=" + encodeURIComponent(query), {
      headers: { Accept: "application/json" },
      signal: controller ? controller.signal : undefined,
    })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) throw new Error(body.error || "HTTP " + response.status);
          return body;
        });
      })
      .then(function (answer) {
        if (mine === asked) draw(query, answer);
      })
      .catch(function (error) {
        if (mine !== asked || (error && error.name === "AbortError")) return;
        list.textContent = "";
        status.textContent = String(error.message || error);
      });
  }

  if (palette) {
    field.addEventListener("input", function () {
      if (timer) window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        timer = null;
        ask();
      }, 150);
    });
    field.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || (event.key === "n" && event.ctrlKey)) {
        event.preventDefault();
        choose(chosen() + 1);
      } else if (event.key === "ArrowUp" || (event.key === "p" && event.ctrlKey)) {
        event.preventDefault();
        choose(chosen() - 1);
      } else if (event.key === "Enter") {
        event.preventDefault();
        var found = rows();
        var index = chosen();
        if (timer || !found.length) {
          window.location.href = "/search?q=" + encodeURIComponent(field.value.trim());
        } else {
          window.location.href = found[index < 0 ? 0 : index].href;
        }
      }
    });
    palette.addEventListener("click", function (event) {
      if (event.target === palette) palette.close(); // a click outside the box
    });
  }

  // ---------------------------------------------------------------- the list you came from
  // A page that lists sessions remembers them (this tab only), for [ and ] on a session page.
  function rememberList() {
    var links = document.querySelectorAll(
      "table.sessions-table tr[data-session] a.session-title, ol.groups li.group a.group-title"
    );
    if (!links.length) return;
    var urls = Array.prototype.map.call(links, function (link) { return link.pathname; });
    try {
      window.sessionStorage.setItem(LIST_KEY, JSON.stringify({ from: window.location.href, urls: urls }));
    } catch (error) {
      // storage turned off: [ and ] do nothing
    }
  }

  function neighbour(step) {
    var saved = null;
    try { saved = JSON.parse(window.sessionStorage.getItem(LIST_KEY) || "null"); } catch (error) { saved = null; }
    if (!saved || !saved.urls) return null;
    var here = saved.urls.indexOf(window.location.pathname);
    if (here < 0) return null;
    return saved.urls[here + step] || null;
  }

  function showNeighbours() {
    var nav = document.querySelector("[data-list-nav]");
    if (!nav) return;
    var previous = neighbour(-1);
    var next = neighbour(1);
    nav.hidden = !previous && !next;
    var back = nav.querySelector("a[data-list-previous]");
    var forward = nav.querySelector("a[data-list-next]");
    if (back) { back.hidden = !previous; if (previous) back.href = previous; }
    if (forward) { forward.hidden = !next; if (next) forward.href = next; }
  }

  // ---------------------------------------------------------------- rows of a list
  function listRows() {
    return Array.prototype.slice.call(
      document.querySelectorAll("table.sessions-table tr[data-session], table.listing tbody tr, ol.groups > li.group")
    ).filter(function (row) { return row.offsetParent !== null; });
  }

  function moveRow(step) {
    var found = listRows();
    if (!found.length) return false;
    var current = document.querySelector(".is-current-row");
    var index = current ? found.indexOf(current) : -1;
    var next = found[Math.max(0, Math.min(found.length - 1, index + step))];
    if (current) current.classList.remove("is-current-row");
    next.classList.add("is-current-row");
    next.scrollIntoView({ block: "nearest" });
    return true;
  }

  function openRow() {
    var current = document.querySelector(".is-current-row");
    var link = current && current.querySelector("a.session-title, a.group-title, a[href]");
    if (!link) return false;
    window.location.href = link.href;
    return true;
  }

  // ---------------------------------------------------------------- help
  function help() {
    var dialog = document.querySelector("dialog[data-keys-help]");
    if (!dialog) return;
    if (dialog.open) dialog.close();
    else dialog.showModal();
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented) return;
    var key = event.key;
    var mod = event.ctrlKey || event.metaKey;
    if (mod && !event.altKey && (key === "k" || key === "K")) {
      event.preventDefault();
      openPalette();
      return;
    }
    if (mod || event.altKey || typing(event.target)) return;
    if (document.querySelector("dialog[open]")) return; // a dialog has the keys
    var session = sessionPage();
    var handled = true;
    if (key === "/" && !session) openPalette();
    else if (key === "?") help();
    else if (key === "[" || key === "]") {
      var url = neighbour(key === "[" ? -1 : 1);
      if (url) window.location.href = url;
    } else if (!session && key === "j") handled = moveRow(1);
    else if (!session && key === "k") handled = moveRow(-1);
    else if (!session && (key === "Enter" || key === "o")) handled = openRow();
    else if (!session && key === "g") window.scrollTo(0, 0);
    else if (!session && key === "G") window.scrollTo(0, document.documentElement.scrollHeight);
    else handled = false;
    if (handled) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    if (target.closest("[data-open-palette]")) { event.preventDefault(); openPalette(); }
    else if (target.closest("[data-open-help]")) { event.preventDefault(); help(); }
    else if (target.closest("dialog [data-close-dialog]")) target.closest("dialog").close();
  });

  document.addEventListener("cclens:listed", rememberList);
  document.addEventListener("DOMContentLoaded", function () {
    rememberList();
    if (sessionPage()) showNeighbours();
  });
})();
