// templates/lobby/game.html (a file: the site's Content-Security-Policy allows scripts
// from this site only, issue 16).
/* The compact create-table dialog: opened by "Create a table" (without JavaScript the
   link shows it as a panel through :target); the move time only for rated tables. */
(() => {
  const dialog = document.getElementById("new-table");
  if (!dialog) return;
  const open = () => { if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal(); };
  document.querySelectorAll("[data-open-dialog]").forEach((link) => link.addEventListener("click", (event) => {
    if (typeof dialog.showModal !== "function") return;
    event.preventDefault();
    open();
  }));
  dialog.querySelectorAll("[data-close-dialog]").forEach((button) => button.addEventListener("click", () => dialog.close()));
  const sync = () => {
    const rated = dialog.querySelector("input[name=rated]:checked");
    const on = !rated || rated.value === "1";
    dialog.querySelectorAll("[data-rated-only]").forEach((el) => {
      el.hidden = !on;
      el.querySelectorAll("select, input").forEach((input) => { input.disabled = !on; });
    });
  };
  dialog.addEventListener("change", sync);
  sync();
  if (dialog.dataset.openOnLoad === "1") { if (dialog.open) dialog.close(); open(); }
})();
