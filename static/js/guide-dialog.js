// The "?" of every table (issue 29; templates/game/_guide_button.html): the game's rules
// guide in a dialog over the table, the match going on underneath.  The guide is loaded
// the first time it is opened; closing the dialog (its button, Escape, a click beside
// it) gives the table back with the focus where it was.  Any element with
// data-guide-open opens it (KÜT's keyboard help has one too).
const dialog = document.querySelector("dialog.guide-dialog");
if (dialog) {
  const frame = dialog.querySelector(".guide-dialog-frame");
  let opener = null;
  for (const open of document.querySelectorAll("[data-guide-open]")) {
    open.addEventListener("click", () => {
      if (frame && !frame.getAttribute("src")) frame.setAttribute("src", frame.dataset.src);
      opener = open;
      document.querySelectorAll("dialog[open]").forEach((d) => d !== dialog && d.close());
      dialog.showModal();
    });
  }
  dialog.querySelector("[data-guide-close]")?.addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close(); // the backdrop
  });
  dialog.addEventListener("close", () => opener?.focus());
}
