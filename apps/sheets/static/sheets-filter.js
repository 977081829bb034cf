/* Sheets filters and filter views: Data → Create a filter / Remove filter / Create new filter view /
   Save as filter view,
   the filter buttons on the filter's header row, a column's filter menu (sort, filter by condition —
   its drop-down drawn in the page —, filter by values), and the open filter view's bar (name, range, delete, close). Loaded after
   sheets.js, whose server calls and grid it uses (window.sheetApp). */
(function () {
  "use strict";
  const app = window.sheetApp;
  if (!app) return;
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const CONDITIONS = Object.fromEntries(JSON.parse(($("#filter-conditions") || {}).textContent || "[]"));     // in Sheets' order
  const esc = window.deskworld.escHtml;

  function parseRange(text) {
    const m = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(text || "");
    const col = (s) => { let c = 0; for (const ch of s) c = c * 26 + ch.charCodeAt(0) - 64; return c; };
    return m && { top: +m[2], left: col(m[1]), bottom: +m[4], right: col(m[3]) };
  }
  function colNumber(letter) { let c = 0; for (const ch of letter) c = c * 26 + ch.charCodeAt(0) - 64; return c; }

  /* ---------------------------------------------------------------- the filter's buttons and outline */
  function layout() {
    const grid = app.grid();
    const layer = grid && $(".filter-layer", grid);
    const flt = grid && grid.dataset.filter;
    $$("[data-filter-act=create]").forEach((b) => { b.hidden = grid.dataset.filterKind === "filter"; });
    $$("[data-filter-act=remove], [data-filter-act=save]").forEach((b) => { b.hidden = grid.dataset.filterKind !== "filter"; });
    if (!layer || !flt) return;
    const g = parseRange(grid.dataset.filterRange);
    for (const b of $$(".filter-btn", layer)) {
      const cell = app.td(+b.dataset.row, colNumber(b.dataset.col));
      if (!cell) continue;
      b.style.left = (cell.offsetLeft + cell.offsetWidth - 21) + "px";
      b.style.top = (cell.offsetTop + (cell.offsetHeight - 18) / 2) + "px";
    }
    const a = app.td(g.top, g.left), z = app.td(g.bottom, g.right), box = $(".filter-range", layer);
    if (a && z && box) {
      box.style.left = a.offsetLeft + "px"; box.style.top = a.offsetTop + "px";
      box.style.width = (z.offsetLeft + z.offsetWidth - a.offsetLeft) + "px";
      box.style.height = (z.offsetTop + z.offsetHeight - a.offsetTop) + "px";
      box.hidden = false;
    }
  }
  document.addEventListener("sheets:paint", layout);
  layout();

  /* ---------------------------------------------------------------- Data menu */
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-filter-act]");
    if (!b) return;
    e.preventDefault();
    app.closeMenus();
    const act = b.dataset.filterAct;
    if (act === "create") app.post("/filter", { range: app.selection() }).then(app.apply);
    else if (act === "remove") app.post("/filter/remove", {}).then(app.apply);
    else if (act === "view" || act === "save") {
      const body = act === "save" ? { from_filter: +app.grid().dataset.filter } : { range: app.selection() };
      app.post("/views", body).then((j) => { if (j && j.url) location.assign(j.url); });
    }
  });

  /* ---------------------------------------------------------------- a column's filter menu */
  let menu = null;
  function close() { if (menu) { menu.remove(); menu = null; } }
  document.addEventListener("keydown", (e) => {
    // Escape closes the menu, or only its Condition drop-down when that is open (seen before it closes).
    if (e.key === "Escape" && menu && !(e.target.closest && e.target.closest(".filter-menu [data-select-menu][open]"))) { close(); app.focusGrid(); }
  }, true);
  document.addEventListener("mousedown", (e) => {
    if (menu && !menu.contains(e.target) && !e.target.closest(".filter-btn")) close();
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest(".filter-btn");
    if (!b) return;
    e.preventDefault(); e.stopPropagation();
    if (menu && menu.dataset.col === b.dataset.col) { close(); return; }
    open(b);
  });

  function open(btn) {
    close();
    const grid = app.grid();
    const layer = $(".filter-layer", grid);
    const g = parseRange(grid.dataset.filterRange);
    const letter = btn.dataset.col, c = colNumber(letter);
    const crit = (JSON.parse(layer.dataset.criteria || "{}")[letter]) || {};
    const hidden = new Set(crit.hidden || []);
    const counts = new Map();
    for (let r = g.top + 1; r <= g.bottom; r++) {
      const cell = app.td(r, c);
      const t = cell ? cell.textContent : "";
      counts.set(t, (counts.get(t) || 0) + 1);
    }
    for (const h of hidden) if (!counts.has(h)) counts.set(h, 0);
    const values = Array.from(counts.keys()).sort((a, b) => (a === "") - (b === "") || a.localeCompare(b, undefined, { numeric: true }));
    const cond = crit.condition || {};
    menu = document.createElement("div");
    menu.className = "popover filter-menu";
    menu.setAttribute("role", "dialog");
    menu.setAttribute("aria-label", `Filter column ${letter}`);
    menu.dataset.col = letter;
    const conds = [["none", "None"]].concat(Object.entries(CONDITIONS).map(([k, v]) => [k, v[0]]));
    menu.innerHTML =
      `<button type="button" class="menu-item" data-sort="asc">Sort A → Z</button>` +
      `<button type="button" class="menu-item" data-sort="desc">Sort Z → A</button><hr class="menu-sep">` +
      `<details class="fm-sec"${cond.type ? " open" : ""}><summary>Filter by condition</summary>` +
      window.deskworld.selectMenu("condition", conds, cond.type || "none", "Condition") +
      `<input class="input fm-value" aria-label="Condition value" placeholder="Value" value="${esc(cond.value || "")}" autocomplete="off"></details>` +
      `<details class="fm-sec" open><summary>Filter by values</summary>` +
      `<div class="fm-links"><button type="button" class="linkish" data-all>Select all</button> · <button type="button" class="linkish" data-none>Clear</button>` +
      `<span class="dim">Displaying ${values.length}</span></div>` +
      `<input class="input fm-search" type="search" aria-label="Search values" placeholder="Search" autocomplete="off">` +
      `<div class="fm-values" role="group" aria-label="Values">` +
      values.map((v) => `<label class="fm-value-row"><input type="checkbox" value="${esc(v)}"${hidden.has(v) ? "" : " checked"}> ${v === "" ? "(Blanks)" : esc(v)}</label>`).join("") +
      `</div></details>` +
      `<div class="fm-actions"><button type="button" class="btn btn-text" data-cancel>Cancel</button>` +
      `<button type="button" class="btn btn-primary" data-ok>OK</button></div>`;
    document.body.appendChild(menu);
    const condSel = $("input[name=condition]", menu), condVal = $(".fm-value", menu);
    const sync = () => { const k = condSel.value; condVal.hidden = k === "none" || !(CONDITIONS[k] || [])[1]; };
    condSel.addEventListener("change", sync); sync();
    $(".fm-search", menu).addEventListener("input", (e) => {
      const q = e.target.value.toLowerCase();
      $$(".fm-value-row", menu).forEach((row) => { row.hidden = !row.textContent.toLowerCase().includes(q); });
    });
    menu.addEventListener("click", (e) => {
      const t = e.target;
      if (t.closest("[data-all]")) $$(".fm-value-row:not([hidden]) input", menu).forEach((i) => { i.checked = true; });
      else if (t.closest("[data-none]")) $$(".fm-value-row:not([hidden]) input", menu).forEach((i) => { i.checked = false; });
      else if (t.closest("[data-cancel]")) { close(); app.focusGrid(); }
      else if (t.closest("[data-sort]")) {
        const order = t.closest("[data-sort]").dataset.sort;
        close();
        app.post("/filter/sort", { filter: +grid.dataset.filter, col: letter, order }).then(app.apply);
      } else if (t.closest("[data-ok]")) {
        const hide = $$(".fm-value-row input", menu).filter((i) => !i.checked).map((i) => i.value);
        const type = condSel.value;
        const condition = type === "none" ? null : { type, value: condVal.value };
        app.post("/filter/criteria", { filter: +grid.dataset.filter, col: letter, hidden: hide, condition }).then((j) => {
          if (j) close();
          app.apply(j);
        });
      }
    });
    const r = btn.getBoundingClientRect();
    menu.style.position = "fixed";
    menu.style.left = Math.max(8, Math.min(r.right - menu.offsetWidth, innerWidth - menu.offsetWidth - 8)) + "px";
    menu.style.top = Math.max(8, Math.min(r.bottom + 4, innerHeight - menu.offsetHeight - 8)) + "px";
  }

  /* ---------------------------------------------------------------- the filter view's bar */
  const bar = $(".view-bar");
  if (bar) {
    const viewId = () => +app.grid().dataset.view;
    const name = $(".view-name", bar), rng = $(".view-range", bar);
    name.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); name.blur(); } });
    rng.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); rng.blur(); } });
    name.addEventListener("change", () => {
      app.post(`/views/${viewId()}`, { name: name.value }).then((j) => { if (j) { name.value = j.name; app.say(j.message); } });
    });
    rng.addEventListener("change", () => {
      app.post(`/views/${viewId()}`, { range: rng.value.trim().toUpperCase() }).then((j) => {
        if (j) { app.apply(j); rng.value = app.grid().dataset.filterRange; }
      });
    });
    bar.addEventListener("click", (e) => {
      if (!e.target.closest("[data-view-act=delete]")) return;
      app.post(`/views/${viewId()}/delete`, {}).then((j) => { if (j && j.url) location.assign(j.url); });
    });
  }
})();
