// cclens web app: reveal the message a link points at, keep pages live, fill in pages whose
// figures were still being worked out, and copy suggested rules.
// No inline script anywhere (the Content-Security-Policy forbids it): pages pass what this
// script needs in data-* attributes.
"use strict";

(function () {
  function targetOf(hash) {
    if (!hash || hash.length < 2) return null;
    var id;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch (error) {
      id = hash.slice(1);
    }
    return document.getElementById(id);
  }

  // Open every <details> around the element (a message inside a collapsed subagent, say),
  // then bring it into view.
  function reveal(element) {
    for (var node = element.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    element.scrollIntoView({ block: "center" });
    element.classList.add("is-target");
    window.setTimeout(function () {
      element.classList.remove("is-target");
    }, 2500);
  }

  function revealHash() {
    // A session page drawn by cclens.render reveals its own targets (window.cclens.reveal draws
    // the folded parts that hold them, and highlights search terms).
    if (window.cclens && window.cclens.reveal) return;
    var element = targetOf(window.location.hash);
    if (element) reveal(element);
  }

  // Run fn at most once at a time; a call while it runs schedules one more run.
  function serialized(fn) {
    var running = false;
    var again = false;
    return function run() {
      if (running) {
        again = true;
        return;
      }
      running = true;
      again = false;
      Promise.resolve()
        .then(fn)
        .catch(function (error) {
          console.warn("cclens: live update failed", error);
        })
        .then(function () {
          running = false;
          if (again) run();
        });
    };
  }

  // Projects and project pages: fetch the page again and swap its #live-region.
  function livePage() {
    var refresh = serialized(function () {
      return fetch(window.location.href, { headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var region = fresh.getElementById("live-region");
          var current = document.getElementById("live-region");
          if (region && current) current.replaceWith(document.importNode(region, true));
        });
    });
    var source = new EventSource("/api/events");
    source.addEventListener("update", refresh);
  }

  // A session page: on each event, ask what changed since the page's state; replace the
  // elements the server names, or append them after the last message.
  function liveSession(body) {
    var state = body.dataset.state || "{}";
    var lastAnchor = body.dataset.lastAnchor || "";
    var updates = body.dataset.updates;
    var banner = document.querySelector("[data-archived-banner]");

    // New messages go after the last one the page shows, else into the list of messages.
    function container() {
      var last = lastAnchor ? document.getElementById(lastAnchor) : null;
      if (last && last.parentElement) return last.parentElement;
      return (
        document.querySelector("[data-items]") ||
        document.querySelector("main .items") ||
        document.querySelector("main")
      );
    }

    var apply = serialized(function () {
      return fetch(updates + "?since=" + encodeURIComponent(state), {
        headers: { Accept: "application/json" },
      })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.json();
        })
        .then(function (change) {
          var template = document.createElement("template");
          template.innerHTML = change.html || "";
          change.anchors.forEach(function (anchor) {
            var fresh = template.content.querySelector("#" + CSS.escape(anchor));
            if (!fresh) return;
            var existing = document.getElementById(anchor);
            if (existing) {
              existing.replaceWith(fresh);
            } else if (window.cclens && window.cclens.isFolded && window.cclens.isFolded(anchor)) {
              // In a chunk or part not drawn yet: it is drawn fresh from the server when opened.
              return;
            } else {
              container().appendChild(fresh);
              lastAnchor = anchor;
              fresh.classList.add("is-new");
            }
          });
          var fresh = JSON.stringify(change.state);
          var grew = change.anchors.length > 0 || fresh !== state;
          state = fresh;
          if (banner) banner.hidden = !change.archived;
          // Only a session that changed is drawn again (the timeline listens): the catch-up
          // asked for when the stream opens usually finds nothing new.
          if (grew) document.dispatchEvent(new CustomEvent("cclens:updated", { detail: change }));
        });
    });
    var source = new EventSource(body.dataset.events);
    source.addEventListener("update", apply);
    // Catch up once the stream is open, for lines written while the page loaded.
    source.addEventListener("open", apply);
  }

  // A page drawn before its figures were ready (the first view of a large index): ask the
  // JSON API, which answers once they are, then draw the page again.
  function whenReady(element) {
    fetch(element.dataset.api, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        window.location.reload();
      })
      .catch(function (error) {
        var note = element.querySelector(".pending") || element;
        note.textContent = "The figures could not be worked out (" + error.message + ").";
        note.classList.add("problem");
      });
  }

  // Buttons that copy the text of the <pre> beside them (suggested permission rules).
  function copyButton(button) {
    button.addEventListener("click", function () {
      var source = button.parentElement.querySelector("pre");
      if (!source) return;
      var text = source.textContent;
      var done = function () {
        button.textContent = "Copied";
        window.setTimeout(function () {
          button.textContent = "Copy";
        }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () {
          selectText(source);
        });
      } else {
        selectText(source);
      }
    });
  }

  // Without clipboard access: select the text, for the person to copy.
  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    if (body.hasAttribute("data-live-session")) liveSession(body);
    else if (body.hasAttribute("data-live-page")) livePage();
    document.querySelectorAll("[data-pending][data-api]").forEach(whenReady);
    document.querySelectorAll("[data-copy]").forEach(copyButton);
    revealHash();
  });
  window.addEventListener("hashchange", revealHash);
})();
