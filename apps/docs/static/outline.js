/* View → Show outline: the document's headings (Title, Heading 1–6) in a panel beside the page, as in
   Docs; a click goes to the heading. Help → Keyboard shortcuts. */
(function () {
  "use strict";
  const D = window.DocsEditor;
  if (!D) return;
  const { app, ed } = D;
  const nav = app.querySelector(".doc-outline");
  const list = nav.querySelector(".outline-list"), empty = nav.querySelector(".outline-empty");
  const HEADS = "h1, h2, h3, h4, h5, h6, p[data-style=title]";

  function build() {
    if (nav.hidden) return;
    list.textContent = "";
    const heads = Array.from(ed.querySelectorAll(HEADS)).filter((h) => h.textContent.trim());
    heads.forEach((h, i) => {
      const li = document.createElement("li");
      const level = h.tagName === "P" ? 0 : +h.tagName[1];
      li.className = "outline-item level-" + level;
      const b = document.createElement("button");
      b.type = "button"; b.textContent = h.textContent.trim(); b.dataset.outline = String(i);
      li.appendChild(b); list.appendChild(li);
    });
    empty.hidden = heads.length > 0;
  }
  function toggle(show) {
    nav.hidden = show === undefined ? !nav.hidden : !show;
    app.querySelectorAll("[data-outline-toggle][role=menuitemcheckbox]").forEach((b) => b.setAttribute("aria-checked", nav.hidden ? "false" : "true"));
    build();
  }
  document.addEventListener("click", (e) => {
    const t = e.target.closest("[data-outline-toggle]");
    if (t) { e.preventDefault(); D.closeMenus(); toggle(); return; }
    const o = e.target.closest("[data-outline]");
    if (!o || !nav.contains(o)) return;
    const h = Array.from(ed.querySelectorAll(HEADS)).filter((x) => x.textContent.trim())[+o.dataset.outline];
    if (!h) return;
    h.scrollIntoView({ block: "start" });
    ed.focus();
    const r = document.createRange(); r.selectNodeContents(h); r.collapse(true);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r);
  });
  let pending = null;
  ed.addEventListener("input", () => { if (!nav.hidden && !pending) pending = setTimeout(() => { pending = null; build(); }, 300); });
  document.body.addEventListener("htmx:afterSwap", build);
  // Ctrl+Alt+A then Ctrl+Alt+H, as in Docs.
  let chord = false;
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey && e.altKey)) return;
    const k = e.key.toLowerCase();
    if (k === "a") { chord = true; e.preventDefault(); return; }
    if (k === "h" && chord && !e.shiftKey) { e.preventDefault(); toggle(); }
    chord = false;
  });

  /* ---------------------------------------------------------------- Help → Keyboard shortcuts */
  const SHORTCUTS = [["Bold", "Ctrl+B"], ["Italic", "Ctrl+I"], ["Underline", "Ctrl+U"], ["Insert link", "Ctrl+K"],
    ["Add comment", "Ctrl+Alt+M"], ["Find", "Ctrl+F"], ["Find and replace", "Ctrl+H"], ["Word count", "Ctrl+Shift+C"],
    ["Normal text", "Ctrl+Alt+0"], ["Heading 1–6", "Ctrl+Alt+1 … 6"], ["Bulleted list", "Ctrl+Shift+8"],
    ["Numbered list", "Ctrl+Shift+7"], ["Left / center / right align, justify", "Ctrl+Shift+L / E / R / J"],
    ["Increase / decrease font size", "Ctrl+Shift+. / ,"], ["Page break", "Ctrl+Enter"],
    ["Suggesting mode", "Ctrl+Alt+Shift+X"], ["Editing mode", "Ctrl+Alt+Shift+Z"], ["Review suggested edits", "Ctrl+Alt+U"],
    ["Version history", "Ctrl+Alt+Shift+H"], ["Show outline", "Ctrl+Alt+A Ctrl+Alt+H"], ["Keyboard shortcuts", "Ctrl+/"]];
  function shortcuts() {
    D.closeMenus();
    const d = document.createElement("dialog");
    d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "ks-title");
    d.innerHTML = '<form method="dialog"><h2 id="ks-title">Keyboard shortcuts</h2><div class="shortcuts-wrap"><table class="word-count shortcuts"></table></div>' +
      '<div class="actions"><button class="btn btn-primary" value="ok">Close</button></div></form>';
    const table = d.querySelector("table");
    for (const [what, keys] of SHORTCUTS) {
      const tr = table.insertRow(), th = document.createElement("th"), td = tr.insertCell();
      th.scope = "row"; th.textContent = what; tr.prepend(th); td.textContent = keys;
    }
    document.getElementById("modal").appendChild(d);
    d.addEventListener("close", () => { d.remove(); D.restoreSelection(); });
    d.showModal();
  }
  document.addEventListener("click", (e) => { if (e.target.closest("[data-help-shortcuts]")) { e.preventDefault(); shortcuts(); } });
  document.addEventListener("keydown", (e) => { if ((e.ctrlKey || e.metaKey) && e.key === "/") { e.preventDefault(); shortcuts(); } });
})();
