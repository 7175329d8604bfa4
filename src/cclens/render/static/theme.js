// Applies the remembered theme (localStorage "cclens-theme": auto, light or dark) before the
// page is first painted: one setting for the whole web app and every exported page.
(function () {
  try {
    var theme = window.localStorage.getItem("cclens-theme");
    if (theme === "auto" || theme === "light" || theme === "dark") {
      document.documentElement.setAttribute("data-theme", theme);
    }
  } catch (error) { /* storage is unavailable on some file:// pages: keep the default */ }
})();
