// The invite link's copy button (templates/lobby/table.html; a file: the site's
// Content-Security-Policy allows scripts from this site only, issue 16).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const input = document.querySelector(button.dataset.copy);
  if (!input) return;
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => document.execCommand("copy"));
  else document.execCommand("copy");
  button.textContent = button.dataset.copied || button.textContent;
});
