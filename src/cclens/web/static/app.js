// cclens web app: reveal the message a link points at, keep pages live, fill in pages whose
// figures were still being worked out, copy suggested rules and resume commands, switch the
// colour theme, apply list filters as they change (typed ones as you type), and offer to fork a
// session at a message.
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
    var revision = body.dataset.revision || "";
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
          state = JSON.stringify(change.state);
          var archivedChanged = banner ? banner.hidden === Boolean(change.archived) : false;
          if (banner) banner.hidden = !change.archived;
          // Only a real change is news: the catch-up when the stream opens usually finds none.
          var changed =
            change.anchors.length > 0 || archivedChanged || String(change.revision) !== revision;
          revision = String(change.revision);
          if (changed) {
            document.dispatchEvent(new CustomEvent("cclens:updated", { detail: change }));
          }
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

  // Copy a command to the clipboard; without clipboard access, show it selected beside the
  // button for the person to copy.
  function copyText(button, text) {
    var label = Array.prototype.slice.call(button.childNodes); // text, or an icon
    var done = function () {
      button.textContent = "Copied";
      button.classList.add("copied");
      window.setTimeout(function () {
        button.replaceChildren.apply(button, label);
        button.classList.remove("copied");
      }, 1500);
    };
    var show = function () {
      var field = button.parentElement.querySelector("input.copy-fallback");
      if (!field) {
        field = document.createElement("input");
        field.className = "copy-fallback";
        field.readOnly = true;
        button.insertAdjacentElement("afterend", field);
      }
      field.value = text;
      field.focus();
      field.select();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, show);
    } else {
      show();
    }
  }

  // Buttons that copy the command in their data-copy-text (resume commands in lists).
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var button = target.closest("button[data-copy-text]");
    if (button) copyText(button, button.getAttribute("data-copy-text") || "");
  });

  // The colour theme: auto (the system's), light or dark, kept in localStorage for every page
  // and visit (static/theme.js applies it before a page is drawn).
  var THEMES = ["auto", "light", "dark"];
  var THEME_NAMES = { auto: "Theme: auto", light: "Theme: light", dark: "Theme: dark" };

  function currentTheme() {
    var theme = document.documentElement.getAttribute("data-theme");
    return THEMES.indexOf(theme) >= 0 ? theme : "auto";
  }

  function setTheme(theme) {
    document.documentElement.setAttribute("data-theme", theme);
    try {
      window.localStorage.setItem("cclens-theme", theme);
    } catch (error) {
      // storage turned off: the theme holds for this page only
    }
  }

  function themeToggle(button) {
    var show = function () {
      var theme = currentTheme();
      button.textContent = THEME_NAMES[theme];
      button.setAttribute("data-current", theme);
      button.setAttribute("aria-label", "Colour theme: " + theme + ". Switch theme");
    };
    button.addEventListener("click", function () {
      setTheme(THEMES[(THEMES.indexOf(currentTheme()) + 1) % THEMES.length]);
    });
    // The session view's own theme button changes the same attribute.
    new MutationObserver(show).observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["data-theme"],
    });
    show();
  }

  // Another tab changed the theme: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key === "cclens-theme" && THEMES.indexOf(event.newValue) >= 0) {
      document.documentElement.setAttribute("data-theme", event.newValue);
    }
  });

  // The fields of a filter form as a query string: empty fields (and a field left at its
  // data-default) stay out of the address.
  function formQuery(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      var field = form.elements.namedItem(name);
      var fallback = field && field.getAttribute ? field.getAttribute("data-default") : null;
      if (value !== "" && value !== fallback) params.append(name, String(value));
    });
    var query = params.toString();
    return query ? "?" + query : "";
  }

  // Typed filters apply as you type: the list is fetched with them and put in place (the
  // address follows), the field keeps the focus.
  function asYouType(form) {
    var timer = null;
    var asked = 0;
    var apply = function () {
      var url = form.getAttribute("action") + formQuery(form);
      var mine = ++asked;
      fetch(url, { headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.text();
        })
        .then(function (html) {
          if (mine !== asked) return;
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var region = fresh.getElementById("live-region");
          var current = document.getElementById("live-region");
          if (region && current) current.replaceWith(document.importNode(region, true));
          window.history.replaceState(null, "", url);
          document.dispatchEvent(new CustomEvent("cclens:listed"));
        })
        .catch(function (error) {
          console.warn("cclens: could not apply the filters", error);
        });
    };
    form.addEventListener("input", function (event) {
      var field = event.target;
      if (!(field instanceof HTMLInputElement) || !field.hasAttribute("data-as-you-type")) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(apply, 250);
    });
  }

  // On a phone the filters wait behind a button.
  function filtersToggle(button) {
    var form = button.closest("form");
    button.addEventListener("click", function () {
      var open = form.classList.toggle("filters-open");
      button.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  // List filters: a menu or a date applies at once; empty fields (and a field left at its
  // data-default) stay out of the address.
  function autoSubmit(form) {
    form.addEventListener("change", function (event) {
      var field = event.target;
      if (field instanceof HTMLSelectElement || (field instanceof HTMLInputElement && field.type === "date")) {
        if (form.requestSubmit) form.requestSubmit();
        else form.submit();
      }
    });
    form.addEventListener("formdata", function (event) {
      var empty = [];
      event.formData.forEach(function (value, name) {
        var field = form.elements.namedItem(name);
        var fallback = field && field.getAttribute ? field.getAttribute("data-default") : null;
        if (value === "" || value === fallback) empty.push(name);
      });
      empty.forEach(function (name) {
        event.formData.delete(name);
      });
    });
  }

  // A session page: a "Fork here" button on each prompt and response of the conversation,
  // copying the command that continues the session from that message in a new session
  // (GET /api/sessions/{id}/resume lists them by element id). Parts drawn later (folded or
  // lazily loaded) get theirs when they appear.
  function forkButtons(api) {
    fetch(api, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (found) {
        var points = found.fork || {};
        var decorate = function (element) {
          var point = points[element.id];
          if (!point || element.hasAttribute("data-fork-at")) return;
          element.setAttribute("data-fork-at", point.at);
          var head = element.querySelector(":scope > .msg-head") || element;
          var button = document.createElement("button");
          button.type = "button";
          button.className = "fork-here";
          button.textContent = "Fork here";
          button.title = "Copy: " + point.command;
          button.setAttribute("data-copy-text", point.command);
          button.setAttribute("aria-label", "Copy the command that forks the session at this message");
          head.appendChild(button);
          var like = document.body.dataset.like;
          if (like) {
            // More like this: the texts nearest in meaning to this message, in every session.
            var link = document.createElement("a");
            link.className = "more-like-this";
            link.textContent = "More like this";
            link.href = "/search?" + new URLSearchParams({ like: like, anchor: element.id, mode: "semantic" });
            head.appendChild(link);
          }
        };
        Object.keys(points).forEach(function (anchor) {
          var element = document.getElementById(anchor);
          if (element) decorate(element);
        });
        new MutationObserver(function (changes) {
          changes.forEach(function (change) {
            change.addedNodes.forEach(function (node) {
              if (!(node instanceof Element)) return;
              if (node.id && points[node.id]) decorate(node);
              node.querySelectorAll("[id]").forEach(function (inner) {
                if (points[inner.id]) decorate(inner);
              });
            });
          });
        }).observe(document.body, { childList: true, subtree: true });
      })
      .catch(function (error) {
        console.warn("cclens: no fork points", error);
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    if (body.hasAttribute("data-live-session")) liveSession(body);
    else if (body.hasAttribute("data-live-page")) livePage();
    document.querySelectorAll("[data-pending][data-api]").forEach(whenReady);
    document.querySelectorAll("[data-copy]").forEach(copyButton);
    document.querySelectorAll("[data-theme-toggle]").forEach(themeToggle);
    document.querySelectorAll("form[data-auto-submit]").forEach(autoSubmit);
    document.querySelectorAll("form[data-auto-submit]").forEach(asYouType);
    document.querySelectorAll("[data-filters-toggle]").forEach(filtersToggle);
    if (body.dataset.resume) forkButtons(body.dataset.resume);
    revealHash();
  });
  window.addEventListener("hashchange", revealHash);
})();
