/* Sheets merged cells: Format → Merge cells and the toolbar's merge button (merge all, or unmerge when
   the selection is a merged block), and the blocks drawn over the grid: each a box over its cells
   showing its top-left cell as that cell shows (text, bold, colours, alignment). Loaded after sheets.js. */
(function () {
  "use strict";
  const app = window.sheetApp;
  if (!app) return;
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  function parseRef(s) {
    const m = /^([A-Z]+)(\d+)$/.exec(s || "");
    let c = 0; for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
    return { r: +m[2], c };
  }
  function layout() {
    const grid = app.grid();
    for (const box of $$(".merge-layer .merge", grid)) {
      const [a, b] = box.dataset.range.split(":").map(parseRef);
      const tl = app.td(a.r, a.c), br = app.td(b.r, b.c);
      if (!tl || !br) continue;
      box.style.left = tl.offsetLeft + "px"; box.style.top = tl.offsetTop + "px";
      box.style.width = (br.offsetLeft + br.offsetWidth - tl.offsetLeft) + "px";
      box.style.height = (br.offsetTop + br.offsetHeight - tl.offsetTop) + "px";
      box.className = "merge " + tl.className;                 // bold, italic, alignment, number or text…
      box.setAttribute("style", box.getAttribute("style").replace(/;?\s*(color|background)[^;]*/g, "") +
        (tl.style.color ? `;color:${tl.style.color}` : "") + (tl.style.background ? `;background:${tl.style.background}` : ""));
      box.textContent = tl.textContent;
      box.hidden = !!tl.parentNode.hidden;
    }
  }
  document.addEventListener("sheets:paint", layout);
  layout();
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-merge]");
    if (!b || !b.closest(".sheet-app")) return;
    e.preventDefault();
    app.closeMenus();
    let how = b.dataset.merge;
    const sel = app.selection();
    if (how === "toggle") {
      // the toolbar button: unmerge a merged block that is selected, else merge all
      const [a] = sel.split(":");
      const isBlock = (m) => m.dataset.range === sel || (!sel.includes(":") && m.dataset.range.split(":")[0] === a);
      how = $$(".merge-layer .merge", app.grid()).some(isBlock) ? "none" : "all";
    }
    app.post("/merge", { range: sel, how }).then(app.apply);
  });
})();
