/* Sheets charts: Insert → Chart over the selection, the chart editor side panel (type, data range,
   title, legend; its drop-downs drawn in the page), selecting, dragging to move and deleting a chart.
   The server draws each chart as SVG (the grid's #chart-layer); this places them on their anchor cells
   and re-draws them when cells change. Loaded after sheets.js (window.sheetApp) and deskworld.js. */
(function () {
  "use strict";
  const app = window.sheetApp;
  if (!app) return;
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  let selected = null;          // the selected chart's id
  let editor = null;            // the chart editor panel

  function layer() { return $("#chart-layer", app.grid()); }
  function figureOf(id) { return layer() && $(`figure.chart[data-chart="${id}"]`, layer()); }
  function parseRef(s) {
    const m = /^([A-Z]+)(\d+)$/.exec(s || "");
    if (!m) return null;
    let c = 0; for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
    return { r: +m[2], c };
  }

  /* ---------------------------------------------------------------- placing and re-drawing */
  function layout() {
    const l = layer();
    if (!l) return;
    for (const f of $$("figure.chart", l)) {
      const p = parseRef(f.dataset.anchor), cell = p && app.td(p.r, p.c);
      if (!cell || f.classList.contains("dragging")) continue;
      f.style.left = cell.offsetLeft + "px"; f.style.top = cell.offsetTop + "px";
      f.classList.toggle("on", +f.dataset.chart === selected);
    }
  }
  document.addEventListener("sheets:paint", layout);
  layout();

  function redraw(j) {
    if (!j || j.layer === undefined) return;
    layer().innerHTML = j.layer;
    if (selected && !figureOf(selected)) { selected = null; closeEditor(); }
    layout();
    if (editor) fillEditor();
    if (j.message) app.say(j.message);
  }
  // Cells changed: the charts over them are drawn again (a re-rendered grid brings its own).
  document.addEventListener("sheets:applied", (e) => {
    const j = e.detail || {};
    if (!(j.cells || []).length || !layer() || !$("figure.chart", layer())) return;
    const xhr = new XMLHttpRequest();
    xhr.open("GET", `${app.base}/charts?tab=${app.grid().dataset.tab}`);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.onload = () => { if (xhr.status < 400) redraw(JSON.parse(xhr.responseText)); };
    xhr.send();
  });

  /* ---------------------------------------------------------------- Insert → Chart */
  document.addEventListener("click", (e) => {
    if (!e.target.closest("[data-chart-act=insert]")) return;
    e.preventDefault();
    app.closeMenus();
    // Sheets puts a new chart where the window shows it, clear of the chart editor on the right.
    const grid = app.grid();
    const anchor = cellAt(grid.scrollLeft + Math.max(60, (grid.clientWidth - 300 - 600) / 2), grid.scrollTop + 64);
    app.post("/charts", { range: app.selection(), anchor }).then((j) => {
      if (!j) return;
      selected = j.id;
      redraw(j);
      openEditor();
    });
  });

  /* ---------------------------------------------------------------- select, move, delete */
  function select(id) {
    selected = id;
    $$("figure.chart", layer()).forEach((f) => f.classList.toggle("on", +f.dataset.chart === id));
    $$(".chart-tools").forEach((t) => t.remove());
    const f = figureOf(id);
    if (!f) return;
    const tools = document.createElement("div");
    tools.className = "chart-tools";
    tools.innerHTML = '<button type="button" class="chart-tool" data-chart-tool="edit" aria-label="Edit chart" title="Edit chart">✎</button>' +
      '<button type="button" class="chart-tool" data-chart-tool="delete" aria-label="Delete chart" title="Delete chart">🗑</button>';
    f.appendChild(tools);
  }
  function remove(id) {
    app.post(`/charts/${id}/delete`, {}).then((j) => { if (j) { selected = null; closeEditor(); redraw(j); app.focusGrid(); } });
  }
  document.addEventListener("mousedown", (e) => {
    const f = e.target.closest("figure.chart");
    if (!f) {
      if (selected && !e.target.closest(".chart-editor")) { selected = null; $$(".chart-tools").forEach((t) => t.remove()); layout(); }
      return;
    }
    e.stopPropagation();                       // not a click on the cells below
    if (e.button !== 0 || e.target.closest(".chart-tools")) return;
    e.preventDefault();
    const id = +f.dataset.chart;
    select(id);
    f.focus({ preventScroll: true });
    const x0 = e.clientX, y0 = e.clientY, left0 = f.offsetLeft, top0 = f.offsetTop;
    let moved = false;
    const move = (ev) => {
      if (!moved && Math.abs(ev.clientX - x0) + Math.abs(ev.clientY - y0) < 4) return;
      moved = true;
      f.classList.add("dragging");
      f.style.left = Math.max(0, left0 + ev.clientX - x0) + "px"; f.style.top = Math.max(0, top0 + ev.clientY - y0) + "px";
    };
    const up = () => {
      document.removeEventListener("mousemove", move); document.removeEventListener("mouseup", up);
      f.classList.remove("dragging");
      if (!moved) return;
      const anchor = cellAt(f.offsetLeft, f.offsetTop);
      app.post(`/charts/${id}`, { anchor }).then((j) => { if (j) redraw(j); else layout(); });
    };
    document.addEventListener("mousemove", move); document.addEventListener("mouseup", up);
  }, true);
  // The cell whose box holds a point of the grid (the chart's new top-left corner).
  function cellAt(x, y) {
    const grid = app.grid();
    const heads = $("thead tr", grid).cells;
    let c = 1;
    for (let i = 1; i < heads.length; i++) if (heads[i].offsetLeft <= x) c = i;
    const rows = $("tbody", grid).rows;
    let r = 1;
    for (let i = 0; i < rows.length; i++) { if (rows[i].hidden) continue; if (rows[i].offsetTop <= y) r = i + 1; else break; }
    return app.colLetter(c) + r;
  }
  document.addEventListener("dblclick", (e) => { const f = e.target.closest("figure.chart"); if (f) { e.stopPropagation(); select(+f.dataset.chart); openEditor(); } }, true);
  document.addEventListener("click", (e) => {
    const t = e.target.closest("[data-chart-tool]");
    if (!t) return;
    e.preventDefault(); e.stopPropagation();
    if (t.dataset.chartTool === "edit") openEditor(); else remove(selected);
  });
  document.addEventListener("keydown", (e) => {
    const f = e.target.closest && e.target.closest("figure.chart");
    if (!f) return;
    if (e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); e.stopPropagation(); remove(+f.dataset.chart); }
    else if (e.key === "Escape") { e.preventDefault(); selected = null; $$(".chart-tools").forEach((t) => t.remove()); layout(); app.focusGrid(); }
  }, true);

  /* ---------------------------------------------------------------- the chart editor */
  const TYPES = [["column", "Column chart"], ["bar", "Bar chart"], ["line", "Line chart"], ["pie", "Pie chart"]];
  const LEGENDS = [["right", "Right"], ["bottom", "Bottom"], ["top", "Top"], ["left", "Left"], ["none", "None"]];
  function openEditor() {
    if (!selected) return;
    if (!editor) {
      editor = document.createElement("aside");
      editor.className = "chart-editor";
      editor.setAttribute("role", "complementary");
      editor.setAttribute("aria-label", "Chart editor");
      // The drop-downs are drawn in the page (deskworld.selectMenu), not the browser's <select>.
      const menu = (name, list, label) => window.deskworld.selectMenu(name, list, list[0][0], label);
      editor.innerHTML = '<div class="ce-head"><h2>Chart editor</h2><button type="button" class="icon-btn sm" data-ce-close aria-label="Close chart editor">✕</button></div>' +
        '<div class="ce-tabs"><span class="on">Setup</span></div>' +
        `<div class="ce-field"><span class="ce-label">Chart type</span>${menu("type", TYPES, "Chart type")}</div>` +
        '<label class="ce-field">Data range<input name="range" class="input" autocomplete="off" spellcheck="false"></label>' +
        '<label class="ce-field">Chart title<input name="title" class="input" autocomplete="off"></label>' +
        `<div class="ce-field"><span class="ce-label">Legend</span>${menu("legend", LEGENDS, "Legend")}</div>`;
      document.querySelector(".sheet-app").appendChild(editor);
      editor.addEventListener("click", (e) => { if (e.target.closest("[data-ce-close]")) { closeEditor(); app.focusGrid(); } });
      for (const el of $$("input", editor)) {
        el.addEventListener("change", () => {
          const body = {}; body[el.name] = el.name === "range" ? el.value.trim().toUpperCase() : el.value;
          const id = selected;
          app.post(`/charts/${id}`, body).then((j) => { if (j) { redraw(j); select(id); } else fillEditor(); });
        });
        if (el.type !== "hidden") el.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); el.blur(); } });
      }
    }
    fillEditor();
  }
  function fillEditor() {
    const f = figureOf(selected);
    if (!f || !editor) return;
    for (const el of $$("input", editor)) {
      const v = f.dataset[el.name] || "";
      if (el.type === "hidden") window.deskworld.setSelectMenu(el.closest("[data-select-menu]"), v);
      else if (document.activeElement !== el) el.value = v;
    }
  }
  function closeEditor() { if (editor) { editor.remove(); editor = null; } }
})();
