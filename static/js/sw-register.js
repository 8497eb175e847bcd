// Installable web app (K-X4): the service worker keeps static assets only.  Its URL
// comes from this script tag (a file, not an inline script: the site's
// Content-Security-Policy allows scripts from this site only, issue 16).
(() => {
  const url = document.currentScript && document.currentScript.dataset.sw;
  if (!url || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url).catch((error) => console.warn("service worker:", error));
  });
})();
