/* File → Version history: name the current version (a dialog in the page), and open the history page
   (after any pending save, so the newest version is what the page shows). */
(function () {
  "use strict";
  const D = window.DocsEditor;
  if (!D) return;
  const { app } = D;
  D.versionHistory = () => D.flush().then(() => { location.href = app.dataset.historyUrl; });
  D.nameVersion = function () {
    const d = document.createElement("dialog");
    d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "nv-title");
    d.innerHTML = '<form><h2 id="nv-title">Name current version</h2>' +
      '<input class="input" name="name" aria-label="Version name" placeholder="Name" autocomplete="off" maxlength="100">' +
      '<div class="actions"><button type="button" class="btn btn-text" data-close>Cancel</button>' +
      '<button type="submit" class="btn btn-primary">Save</button></div></form>';
    document.getElementById("modal").appendChild(d);
    d.addEventListener("close", () => { d.remove(); D.restoreSelection(); });
    d.showModal();
    const input = d.querySelector("input");
    input.focus();
    d.querySelector("form").addEventListener("submit", (e) => {
      e.preventDefault();
      const name = input.value;
      d.close();
      D.flush().then(() => htmx.ajax("POST", app.dataset.versionUrl, { values: { name }, target: "#save-status", swap: "none" }));
    });
  };
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey && e.altKey && e.shiftKey && e.key.toLowerCase() === "h") { e.preventDefault(); D.versionHistory(); }
  });
})();
