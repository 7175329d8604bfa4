// cclens session pages: theme switch, details toggle, expanders, keyboard navigation, copy.
// No inline handlers: everything is wired here, so the page's CSP can forbid inline script.
(function () {
  "use strict";
  var root = document.documentElement;
  var THEMES = ["auto", "light", "dark"];

  function store(key, value) {
    try {
      if (value === undefined) { return window.localStorage.getItem(key); }
      window.localStorage.setItem(key, value);
    } catch (error) { /* storage is unavailable on some file:// pages: keep the default */ }
    return null;
  }

  var saved = store("cclens-theme");
  if (saved && THEMES.indexOf(saved) >= 0) { root.setAttribute("data-theme", saved); }

  function button(action) { return document.querySelector('.toolbar [data-action="' + action + '"]'); }

  function setDetails(on) {
    root.classList.toggle("show-details", on);
    var b = button("details");
    if (b) {
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.textContent = on ? "Hide details" : "Show details";
    }
  }

  function setTools(open) {
    document.querySelectorAll("details.tool-details").forEach(function (d) { d.open = open; });
  }

  function openAncestors(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") { node.open = true; }
      if (node.classList && node.classList.contains("noisy")) { setDetails(true); }
    }
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

  function toggleExpand(b) {
    var clamp = b.previousElementSibling;
    if (!clamp || !clamp.classList.contains("clamp")) { return; }
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
    if (b.classList.contains("copy")) { copy(b); return; }
    var action = b.getAttribute("data-action");
    if (action === "details") { setDetails(!root.classList.contains("show-details")); }
    else if (action === "collapse-tools") { setTools(false); }
    else if (action === "expand-tools") { setTools(true); }
    else if (action === "theme") {
      var next = THEMES[(THEMES.indexOf(root.getAttribute("data-theme") || "auto") + 1) % THEMES.length];
      root.setAttribute("data-theme", next);
      store("cclens-theme", next);
      b.textContent = "Theme: " + next;
    }
  });

  // Keyboard navigation: j / k (or ArrowDown / ArrowUp with Alt) move between visible messages.
  var current = -1;
  function messages() {
    return Array.prototype.filter.call(document.querySelectorAll(".msg"), function (m) {
      return m.offsetParent !== null;
    });
  }
  function move(step) {
    var list = messages();
    if (!list.length) { return; }
    var previous = document.querySelector(".msg.current");
    var index = previous ? list.indexOf(previous) : current;
    index = Math.max(0, Math.min(list.length - 1, index + step));
    if (previous) { previous.classList.remove("current"); }
    var next = list[index];
    next.classList.add("current");
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "start" });
    current = index;
  }
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey) { return; }
    var t = event.target;
    if (t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var key = event.key;
    if ((key === "j" && !event.altKey) || (key === "ArrowDown" && event.altKey)) { move(1); event.preventDefault(); }
    else if ((key === "k" && !event.altKey) || (key === "ArrowUp" && event.altKey)) { move(-1); event.preventDefault(); }
  });

  function followHash() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) { return; }
    var element = document.getElementById(id);
    if (element) { openAncestors(element); element.scrollIntoView({ block: "start" }); }
  }
  window.addEventListener("hashchange", followHash);
  followHash();
})();
