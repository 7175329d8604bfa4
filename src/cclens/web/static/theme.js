// Runs in <head>, before the page is drawn: puts the colour theme kept in localStorage
// ("cclens-theme": auto, light or dark) on <html data-theme>, so no page flashes the other one.
// The toggle in the top bar (app.js) and the session view's own button change it.
"use strict";
(function () {
  var saved = null;
  try {
    saved = window.localStorage.getItem("cclens-theme");
  } catch (error) {
    saved = null; // storage can be turned off: keep the default
  }
  if (saved === "auto" || saved === "light" || saved === "dark") {
    document.documentElement.setAttribute("data-theme", saved);
  }
})();
