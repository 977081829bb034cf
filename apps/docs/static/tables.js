/* Docs tables, as in Google Docs: Insert → Table with a columns × rows picker; Tab and Shift+Tab move
   between cells (Tab in the last cell adds a row); right-click in a cell for insert / delete row and
   column, and delete table. The page's HTML is what is saved: a table is one block, its cells its text. */
(function () {
  "use strict";
  const D = window.DocsEditor;
  if (!D) return;
  const { app, ed } = D;
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const editing = () => {
    if (app.dataset.editable !== "1") return false;
    if (app.dataset.mode === "editing") return true;
    D.flash("Switch to Editing to change tables.");
    return false;
  };
  const cellOf = (node) => {
    const el = node && (node.nodeType === 1 ? node : node.parentElement);
    const c = el && el.closest("td, th");
    return c && ed.contains(c) ? c : null;
  };
  function caretIn(cell) {
    const r = document.createRange();
    r.selectNodeContents(cell); r.collapse(true);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r);
  }
  const emptyRow = (n) => { const tr = document.createElement("tr"); for (let i = 0; i < n; i++) tr.appendChild(emptyCell()); return tr; };
  const emptyCell = () => { const td = document.createElement("td"); td.appendChild(document.createElement("br")); return td; };

  /* ---------------------------------------------------------------- Insert → Table */
  document.addEventListener("click", (e) => {
    const opener = e.target.closest("[data-table-picker]");
    if (opener) {
      e.preventDefault();
      const picker = opener.nextElementSibling;
      picker.hidden = !picker.hidden;
      opener.setAttribute("aria-expanded", picker.hidden ? "false" : "true");
      return;
    }
    const cell = e.target.closest(".tp-cell");
    if (!cell) return;
    e.preventDefault();
    D.closeMenus();
    const picker = cell.closest(".table-picker");
    picker.hidden = true;
    picker.previousElementSibling.setAttribute("aria-expanded", "false");
    insertTable(+cell.dataset.rows, +cell.dataset.cols);
  });
  document.addEventListener("mouseover", (e) => {
    const cell = e.target.closest(".tp-cell");
    if (!cell) return;
    const r = +cell.dataset.rows, c = +cell.dataset.cols;
    const picker = cell.closest(".table-picker");
    $$(".tp-cell", picker).forEach((b) => b.classList.toggle("on", +b.dataset.rows <= r && +b.dataset.cols <= c));
    picker.querySelector(".tp-label").textContent = `${c} x ${r}`;
  });
  function insertTable(rows, cols) {
    if (!editing()) return;
    D.restoreSelection();
    const row = "<tr>" + "<td><br></td>".repeat(cols) + "</tr>";
    document.execCommand("insertHTML", false, `<table data-new="1"><tbody>${row.repeat(rows)}</tbody></table><p><br></p>`);
    const t = ed.querySelector("table[data-new]");
    if (t) {
      t.removeAttribute("data-new");
      // An empty paragraph the table was put into stays out of the way (Docs puts the table there).
      const prev = t.previousElementSibling;
      if (prev && prev.tagName === "P" && !prev.textContent && prev.previousElementSibling) prev.remove();
      caretIn(t.querySelector("td"));
    }
    D.schedule();
  }

  /* ---------------------------------------------------------------- moving between cells */
  ed.addEventListener("keydown", (e) => {
    const sel = getSelection();
    const cell = sel.rangeCount && cellOf(sel.anchorNode);
    if (!cell) return;
    if (e.key === "Enter" && !e.ctrlKey && !e.metaKey) { e.preventDefault(); e.stopImmediatePropagation(); return; }   // a cell is one line
    if (e.key !== "Tab" || e.ctrlKey || e.altKey || e.metaKey) return;
    e.preventDefault();
    const cells = $$("td, th", cell.closest("table"));
    const i = cells.indexOf(cell) + (e.shiftKey ? -1 : 1);
    if (i >= 0 && i < cells.length) { caretIn(cells[i]); return; }
    if (e.shiftKey || !editing()) return;
    const tr = emptyRow(cell.parentElement.children.length);
    cell.parentElement.after(tr);
    caretIn(tr.firstElementChild);
    D.schedule();
  }, true);

  /* ---------------------------------------------------------------- right-click: rows and columns */
  let menu = null;
  function closeMenu() { if (menu) { menu.remove(); menu = null; } }
  const OPS = [["rowAbove", "Insert row above"], ["rowBelow", "Insert row below"], ["colLeft", "Insert column left"],
               ["colRight", "Insert column right"], null, ["delRow", "Delete row"], ["delCol", "Delete column"], ["delTable", "Delete table"]];
  ed.addEventListener("contextmenu", (e) => {
    const cell = cellOf(e.target);
    if (!cell) return;
    e.preventDefault();
    closeMenu();
    caretIn(cell);
    menu = document.createElement("div");
    menu.className = "popover table-menu"; menu.setAttribute("role", "menu"); menu.setAttribute("aria-label", "Table");
    for (const op of OPS) {
      if (!op) { const hr = document.createElement("hr"); hr.className = "menu-sep"; menu.appendChild(hr); continue; }
      const b = document.createElement("button");
      b.type = "button"; b.className = "menu-item"; b.setAttribute("role", "menuitem"); b.dataset.tableOp = op[0]; b.textContent = op[1];
      menu.appendChild(b);
    }
    menu.style.left = Math.min(e.clientX, innerWidth - 240) + "px";
    menu.style.top = Math.min(e.clientY, innerHeight - 300) + "px";
    menu.cell = cell;
    document.body.appendChild(menu);
  });
  document.addEventListener("click", (e) => {
    if (!menu) return;
    const b = e.target.closest("[data-table-op]");
    const cell = menu.cell;
    closeMenu();
    if (!b || !cell.isConnected || !editing()) return;
    e.preventDefault();
    tableOp(b.dataset.tableOp, cell);
    D.schedule();
  });
  document.addEventListener("keydown", (e) => { if (menu && e.key === "Escape") { closeMenu(); ed.focus(); } });
  function tableOp(op, cell) {
    const tr = cell.parentElement, table = cell.closest("table");
    const col = Array.prototype.indexOf.call(tr.children, cell);
    const rows = $$("tr", table);
    let focus = cell;
    if (op === "rowAbove" || op === "rowBelow") {
      const row = emptyRow(tr.children.length);
      if (op === "rowAbove") tr.before(row); else tr.after(row);
      focus = row.children[col];
    } else if (op === "colLeft" || op === "colRight") {
      for (const r of rows) {
        const c = emptyCell(), at = r.children[col];
        if (!at) r.appendChild(c); else if (op === "colLeft") at.before(c); else at.after(c);
        if (r === tr) focus = c;
      }
    } else if (op === "delRow") {
      const next = tr.nextElementSibling || tr.previousElementSibling;
      tr.remove();
      focus = next ? next.children[Math.min(col, next.children.length - 1)] : null;
    } else if (op === "delCol") {
      for (const r of rows) if (r.children[col]) r.children[col].remove();
      focus = tr.children[Math.min(col, tr.children.length - 1)] || null;
    } else if (op === "delTable") {
      focus = null;
    }
    if (!focus || !table.querySelector("td, th")) {
      const p = document.createElement("p"); p.appendChild(document.createElement("br"));
      table.replaceWith(p);
      const r = document.createRange(); r.setStart(p, 0); r.collapse(true);
      const sel = getSelection(); sel.removeAllRanges(); sel.addRange(r);
      return;
    }
    caretIn(focus);
  }
})();
