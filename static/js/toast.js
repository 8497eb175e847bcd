// The toasts of the tables that do not use the tile kit (King, Kelimeki; the kit has its
// own, which shows a repeated message once): a line in `.<p>-toasts` inside `root` for
// four seconds, styled `<p>-toast <p>-toast-<kind>`.

export function toaster(root, p) {
  return function toast(text, kind = "info") {
    const el = document.createElement("p");
    el.className = `${p}-toast ${p}-toast-${kind}`;
    el.textContent = text;
    root.querySelector(`.${p}-toasts`).append(el);
    setTimeout(() => el.remove(), 4000);
  };
}
