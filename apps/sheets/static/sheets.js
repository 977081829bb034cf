/* Sheets grid: selection, in-cell editing, formula bar, name box, copy/cut/paste,
   keyboard navigation, menus. Every change goes to the server, which answers with
   the cells whose input or shown value changed (or the re-rendered grid). */
(function () {
  "use strict";
  const app = document.querySelector(".sheet-app");
  if (!app) return;
  const editable = app.dataset.editable === "1";
  const base = app.dataset.base;
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const nameBox = $("#namebox");
  const fx = $("#formula-bar");
  const status = $("#save-status");

  let grid, tbody, data, rows, cols, tabId, ed;
  let act = { r: 1, c: 1 }, ext = { r: 1, c: 1 };
  let more = [];                 // ranges added to the selection with Ctrl+click, before the active one
  let editing = null;            // {mode: "enter"|"edit", from: "cell"|"bar", original}
  let clip = null;               // {tab, range, cut, text}
  let busy = Promise.resolve();

  /* ---------------------------------------------------------------- addresses */
  function colLetter(c) { let s = ""; while (c > 0) { const m = (c - 1) % 26; s = String.fromCharCode(65 + m) + s; c = Math.floor((c - 1) / 26); } return s; }
  function a1(r, c) { return colLetter(c) + r; }
  function parseRef(s) {
    const m = /^\s*\$?([A-Za-z]{1,3})\$?(\d{1,6})\s*$/.exec(s || "");
    if (!m) return null;
    let c = 0; for (const ch of m[1].toUpperCase()) c = c * 26 + (ch.charCodeAt(0) - 64);
    return { r: parseInt(m[2], 10), c };
  }
  function range() {
    return { top: Math.min(act.r, ext.r), left: Math.min(act.c, ext.c), bottom: Math.max(act.r, ext.r), right: Math.max(act.c, ext.c) };
  }
  function rangeText(g) { g = g || range(); const a = a1(g.top, g.left), b = a1(g.bottom, g.right); return a === b ? a : a + ":" + b; }
  // Every range of the selection ("B2:C4,E7"): what formats and Delete apply to.
  function allRanges() { return more.map((g) => rangeText(g)).concat([rangeText()]).join(","); }

  /* ---------------------------------------------------------------- grid setup */
  function init() {
    grid = $("#grid"); tbody = $("tbody", grid); ed = $("#cell-editor");
    data = JSON.parse($("#sheet-data").textContent || "{}");
    rows = +grid.dataset.rows; cols = +grid.dataset.cols; tabId = +grid.dataset.tab;
    act = clampCell(act); ext = clampCell(ext);
    bindGrid();
    bindEditor();
    paint();
  }
  function clampCell(p, dir) {
    const q = { r: Math.min(Math.max(1, p.r), rows), c: Math.min(Math.max(1, p.c), cols) };
    // rows a filter hides are skipped, onwards in the direction of travel (else back)
    const hid = (r) => tbody && tbody.rows[r - 1] && tbody.rows[r - 1].hidden;
    let r = q.r;
    while (hid(r) && r + (dir || 1) >= 1 && r + (dir || 1) <= rows) r += dir || 1;
    while (hid(r) && r > 1) r -= dir || 1;
    q.r = r;
    return q;
  }
  function td(r, c) { const tr = tbody.rows[r - 1]; return tr ? tr.cells[c] : null; }
  function posOf(cell) {
    const tr = cell.parentNode;
    return { r: tr.sectionRowIndex + 1, c: cell.cellIndex };
  }
  function rectOf(top, left, bottom, right) {
    const a = td(top, left), b = td(bottom, right);
    return { x: a.offsetLeft, y: a.offsetTop, w: b.offsetLeft + b.offsetWidth - a.offsetLeft, h: b.offsetTop + b.offsetHeight - a.offsetTop };
  }
  function place(el, g) {
    const q = rectOf(g.top, g.left, g.bottom, g.right);
    el.style.left = q.x + "px"; el.style.top = q.y + "px"; el.style.width = q.w + "px"; el.style.height = q.h + "px";
    el.hidden = false;
  }

  function paint() {
    const g = range();
    const single = g.top === g.bottom && g.left === g.right;
    const selR = $(".sel-range", grid);
    if (single) selR.hidden = true; else place(selR, g);
    $$(".sel-more", grid).forEach((b) => b.remove());
    for (const m of more) {
      const box = document.createElement("div");
      box.className = "sel-range sel-more";
      grid.appendChild(box);
      place(box, m);
    }
    place($(".sel-active", grid), mergeOf(act) || { top: act.r, left: act.c, bottom: act.r, right: act.c });
    const cell = td(act.r, act.c);
    if (!editing) {
      ed.style.left = cell.offsetLeft + "px"; ed.style.top = cell.offsetTop + "px";
      ed.style.width = cell.offsetWidth + "px"; ed.style.height = cell.offsetHeight + "px";
    }
    $$("thead th.hl, tbody th.hl", grid).forEach((h) => h.classList.remove("hl"));
    const heads = $("thead tr", grid).cells;
    for (let c = g.left; c <= g.right; c++) heads[c].classList.add("hl");
    for (let r = g.top; r <= g.bottom; r++) tbody.rows[r - 1].cells[0].classList.add("hl");
    $$("tbody td[aria-selected]", grid).forEach((t) => t.removeAttribute("aria-selected"));
    cell.setAttribute("aria-selected", "true");
    if (clip && clip.tab === tabId) place($(".copy-range", grid), clip.g); else $(".copy-range", grid).hidden = true;
    const handle = $(".fill-handle", grid);
    if (handle) {
      if (editable && !editing) {
        const q = rectOf(g.top, g.left, g.bottom, g.right);
        handle.style.left = (q.x + q.w - 5) + "px"; handle.style.top = (q.y + q.h - 5) + "px"; handle.hidden = false;
      } else handle.hidden = true;
    }
    if (document.activeElement !== nameBox) nameBox.value = rangeText(g);
    if (!editing) {
      fx.value = (data[a1(act.r, act.c)] || {}).i || "";
      loadClipboardText();
    }
    const f = (data[a1(act.r, act.c)] || {}).f || {};
    for (const flag of ["bold", "italic", "strike", "wrap"]) {
      const b = $(`.sheet-toolbar [data-act=${flag}]`);
      if (b) b.setAttribute("aria-pressed", f[flag] ? "true" : "false");
    }
    const err = (data[a1(act.r, act.c)] || {}).e;
    cell.title = err || "";
    document.dispatchEvent(new CustomEvent("sheets:paint", { detail: { grid } }));
  }

  // While not editing, the hidden editor holds the selection as tab-separated text,
  // selected: the browser's own Copy then copies it, and typing replaces it.
  function loadClipboardText() {
    ed.value = tsv(range());
    ed.select();
  }
  function tsv(g) {
    const out = [];
    for (let r = g.top; r <= g.bottom; r++) {
      const line = [];
      for (let c = g.left; c <= g.right; c++) { const t = td(r, c); line.push(t ? t.textContent : ""); }
      out.push(line.join("\t"));
    }
    return out.join("\n");
  }

  function scrollTo(r, c) {
    const cell = td(r, c);
    const head = $("thead", grid).offsetHeight + frozenHeight();
    const side = tbody.rows[0].cells[0].offsetWidth;
    if (cell.offsetTop - head < grid.scrollTop && r > +grid.dataset.frozen) grid.scrollTop = cell.offsetTop - head;
    else if (cell.offsetTop + cell.offsetHeight > grid.scrollTop + grid.clientHeight) grid.scrollTop = cell.offsetTop + cell.offsetHeight - grid.clientHeight;
    if (cell.offsetLeft - side < grid.scrollLeft) grid.scrollLeft = cell.offsetLeft - side;
    else if (cell.offsetLeft + cell.offsetWidth > grid.scrollLeft + grid.clientWidth) grid.scrollLeft = cell.offsetLeft + cell.offsetWidth - grid.clientWidth;
  }
  function frozenHeight() { const n = +grid.dataset.frozen; return n ? tbody.rows[n - 1].offsetTop + tbody.rows[n - 1].offsetHeight - tbody.rows[0].offsetTop : 0; }

  // Merged blocks (the grid's .merge-layer): a block is one cell, its top-left.
  function mergeOf(p) {
    for (const m of $$(".merge-layer .merge", grid)) {
      const [a, b] = m.dataset.range.split(":").map(parseRef);
      if (p.r >= a.r && p.r <= b.r && p.c >= a.c && p.c <= b.c) return { top: a.r, left: a.c, bottom: b.r, right: b.c };
    }
    return null;
  }
  function select(r, c, extend, byMouse) {
    more = [];
    const from = extend ? ext : act;
    let p = clampCell({ r, c }, r < from.r ? -1 : 1);
    const m = !extend && mergeOf(p);
    if (m) {
      // a key that moves within the block the selection is in steps past its edge; anything else lands on its top-left
      const inside = !byMouse && act.r >= m.top && act.r <= m.bottom && act.c >= m.left && act.c <= m.right;
      if (inside && (p.r !== act.r || p.c !== act.c)) {
        p = clampCell({ r: p.r > act.r ? m.bottom + 1 : p.r < act.r ? m.top - 1 : act.r, c: p.c > act.c ? m.right + 1 : p.c < act.c ? m.left - 1 : act.c }, p.r < act.r ? -1 : 1);
        const n = mergeOf(p);
        if (n && !(n.top === m.top && n.left === m.left)) p = { r: n.top, c: n.left };
        else if (n) p = { r: m.top, c: m.left };
      } else p = { r: m.top, c: m.left };
    }
    if (extend) ext = p; else { act = p; ext = p; }
    scrollTo(ext.r, ext.c);
    paint();
    focusGrid();
  }
  function focusGrid() { if (document.activeElement !== ed) ed.focus({ preventScroll: true }); if (!editing) ed.select(); }

  /* ---------------------------------------------------------------- server */
  function say(msg) {
    const region = document.getElementById("toast-region");
    region.innerHTML = '<div class="toast" role="status" data-closable><span class="msg"></span></div>';
    region.querySelector(".msg").textContent = msg;
  }
  function post(path, body) {
    if (!editable) { say("You can only view this spreadsheet."); return Promise.resolve(null); }
    status.textContent = "Saving…";
    // XMLHttpRequest rather than fetch: the answer is applied inside the load event, so anything
    // that waits for requests to finish (a harness settling the page) sees the updated grid.
    const run = () => new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", base + path);
      xhr.setRequestHeader("Content-Type", "application/json");
      xhr.setRequestHeader("Accept", "application/json");
      xhr.onload = () => {
        let j = null;
        try { j = JSON.parse(xhr.responseText); } catch (e) { j = { error: "Something went wrong." }; }
        status.textContent = "All changes saved in Drive";
        if (xhr.status >= 400) { say((j && j.error) || "Something went wrong."); resolve(null); return; }
        resolve(j);
      };
      xhr.onerror = () => { status.textContent = "Offline: changes not saved"; say("Couldn't reach the server."); resolve(null); };
      const view = grid.dataset.view ? { view: +grid.dataset.view } : {};
      xhr.send(JSON.stringify(Object.assign({ tab: tabId }, view, body)));
    });
    busy = busy.then(run);
    return busy;
  }
  function apply(j) {
    if (!j) return;
    if (j.html !== undefined) {
      $("#grid-wrap").innerHTML = j.html;
      const keep = { left: grid.scrollLeft, top: grid.scrollTop };
      init();
      grid.scrollLeft = keep.left; grid.scrollTop = keep.top;
      focusGrid();
    }
    for (const cl of j.cells || []) {
      const entry = {};
      if (cl.i !== null && cl.i !== undefined) entry.i = cl.i;
      if (cl.f && Object.keys(cl.f).length) entry.f = cl.f;
      if (cl.e) entry.e = cl.e;
      if (Object.keys(entry).length) data[cl.a1] = entry; else delete data[cl.a1];
      const t = td(cl.r, cl.c);
      if (!t) continue;
      t.textContent = cl.d;
      t.className = cl.cls || "";
      t.setAttribute("style", cl.st || "");
      if (!cl.st) t.removeAttribute("style");
      overflow(cl.r, cl.c); if (cl.c > 1) overflow(cl.r, cl.c - 1);
    }
    if (j.message) say(j.message);
    paint();
    document.dispatchEvent(new CustomEvent("sheets:applied", { detail: j }));
  }
  function overflow(r, c) {
    const t = td(r, c); if (!t) return;
    const right = td(r, c + 1);
    const textish = t.classList.contains("s") && !/\ba[lcr]\b/.test(t.className);
    t.classList.toggle("ov", textish && (!right || right.textContent === ""));
  }

  /* ---------------------------------------------------------------- editing */
  function startEdit(mode, initial, from) {
    if (!editable) { say("You can only view this spreadsheet."); return; }
    const key = a1(act.r, act.c);
    const original = (data[key] || {}).i || "";
    editing = { mode, from: from || "cell", original };
    ext = { ...act };
    paint();
    const cell = td(act.r, act.c);
    ed.classList.add("editing");
    ed.style.left = cell.offsetLeft + "px"; ed.style.top = cell.offsetTop + "px";
    ed.style.minWidth = cell.offsetWidth + "px"; ed.style.width = "auto";
    ed.style.height = cell.offsetHeight + "px";
    ed.value = initial !== undefined ? initial : original;
    fx.value = ed.value;
    if (editing.from === "cell") { ed.focus({ preventScroll: true }); ed.setSelectionRange(ed.value.length, ed.value.length); }
    autosize();
    showRefs(ed.value);
  }
  function autosize() {
    if (!editing) return;
    ed.style.width = "auto";
    const cell = td(act.r, act.c);
    ed.style.width = Math.max(cell.offsetWidth, Math.min(ed.scrollWidth + 8, 600)) + "px";
  }
  function stopEdit() {
    closeAssist();
    editing = null;
    ed.classList.remove("editing");
    ed.style.minWidth = ""; ed.style.width = "";
  }
  function commit(move) {
    if (!editing) return Promise.resolve();
    const value = editing.from === "bar" ? fx.value : ed.value;
    const changed = value !== editing.original;
    const at = { ...act };
    stopEdit();
    let p = Promise.resolve();
    if (changed) {
      const edits = {}; edits[a1(at.r, at.c)] = value;
      p = post("/cells", { edits }).then(apply);
    }
    if (move) select(act.r + move.r, act.c + move.c);
    else { paint(); focusGrid(); }
    return p;
  }
  function cancel() { stopEdit(); paint(); focusGrid(); }

  // The editor lives in the grid (it scrolls with it), so it is re-bound whenever the grid is re-rendered.
  function bindEditor() {
    ed.addEventListener("input", () => {
      if (!editing) {
        // Typing over a selected cell starts a fresh entry with what was typed.
        const typed = ed.value;
        startEdit("enter", typed);
        return;
      }
      fx.value = ed.value;
      autosize();
      assist(ed);
    });
    ed.addEventListener("keyup", (e) => { if (editing && /^Arrow(Left|Right)$|^Home$|^End$/.test(e.key)) assist(ed); });

    ed.addEventListener("keydown", (e) => {
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key;
      if (editing && suggestKeys(e, ed)) return;
      if (editing) {
        if (k === "Enter" && e.altKey) { e.preventDefault(); ed.setRangeText("\n", ed.selectionStart, ed.selectionEnd, "end"); fx.value = ed.value; return; }
        if (k === "Enter") { e.preventDefault(); commit({ r: e.shiftKey ? -1 : 1, c: 0 }); return; }
        if (k === "Tab") { e.preventDefault(); commit({ r: 0, c: e.shiftKey ? -1 : 1 }); return; }
        if (k === "Escape") { e.preventDefault(); cancel(); return; }
        if (editing.mode === "enter" && !ed.value.startsWith("=") && ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"].includes(k)) {
          e.preventDefault();
          commit({ ArrowUp: { r: -1, c: 0 }, ArrowDown: { r: 1, c: 0 }, ArrowLeft: { r: 0, c: -1 }, ArrowRight: { r: 0, c: 1 } }[k]);
        }
        return;
      }
      // Not editing: the grid's keys.
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (moves[k]) {
        e.preventDefault();
        const [dr, dc] = moves[k];
        const from = e.shiftKey ? ext : act;
        const to = mod ? jump(from, dr, dc) : { r: from.r + dr, c: from.c + dc };
        select(to.r, to.c, e.shiftKey);
        return;
      }
      if (k === "Enter") { e.preventDefault(); if (e.shiftKey) select(act.r - 1, act.c); else startEdit("edit"); return; }
      if (k === "F2") { e.preventDefault(); startEdit("edit"); return; }
      if (k === "Tab") { e.preventDefault(); select(act.r, act.c + (e.shiftKey ? -1 : 1)); return; }
      if (k === "Delete" || k === "Backspace") { e.preventDefault(); act_("clear"); return; }
      if (k === "Escape") { e.preventDefault(); if (clip) { clip = null; paint(); } return; }
      if (k === "Home") { e.preventDefault(); select(mod ? 1 : act.r, 1, e.shiftKey); return; }
      if (k === "End") { e.preventDefault(); const last = lastUsed(); select(mod ? last.r : act.r, last.c, e.shiftKey); return; }
      if (k === "PageDown" || k === "PageUp") { e.preventDefault(); select(act.r + (k === "PageDown" ? 20 : -20), act.c, e.shiftKey); return; }
      if (e.altKey && e.shiftKey && (k === "5" || k === "%" || e.code === "Digit5")) { e.preventDefault(); act_("strike"); return; }
      if (mod && !e.altKey) {
        const low = k.toLowerCase();
        if (low === "a") { e.preventDefault(); act = { r: 1, c: 1 }; ext = { r: rows, c: cols }; paint(); focusGrid(); return; }
        if (low === "b") { e.preventDefault(); act_("bold"); return; }
        if (low === "i") { e.preventDefault(); act_("italic"); return; }
        if (low === "d") { e.preventDefault(); act_("fill_down"); return; }
        if (low === "r") { e.preventDefault(); act_("fill_right"); return; }
        if (low === "z") { e.preventDefault(); act_(e.shiftKey ? "redo" : "undo"); return; }
        if (low === "y") { e.preventDefault(); act_("redo"); return; }
        if (e.shiftKey && (k === "$" || k === "4")) { e.preventDefault(); act_("format", { type: "currency" }); return; }
        if (e.shiftKey && (k === "%" || k === "5")) { e.preventDefault(); act_("format", { type: "percent" }); return; }
        if (e.shiftKey && (k === "!" || k === "1")) { e.preventDefault(); act_("format", { type: "number" }); return; }
        return;                       // Ctrl+C / Ctrl+X / Ctrl+V: the clipboard events below
      }
    });
    ed.addEventListener("copy", (e) => { if (editing) return; e.preventDefault(); copy(false, e.clipboardData); });
    ed.addEventListener("cut", (e) => { if (editing) return; e.preventDefault(); copy(true, e.clipboardData); });
    ed.addEventListener("paste", (e) => {
      if (editing) return;
      e.preventDefault();
      paste(e.clipboardData ? e.clipboardData.getData("text/plain") : "");
    });
  }

  function isFormulaPoint() {
    if (!editing || !ed.value.startsWith("=")) return false;
    const before = ed.value.slice(0, ed.selectionStart).trimEnd();
    return /[=(,+\-*/^&<>:;]$/.test(before);
  }

  function jump(from, dr, dc) {
    // Ctrl+arrow: to the edge of the data run, or the next filled cell, or the sheet's edge.
    const filled = (r, c) => { const t = td(r, c); return !!(t && t.textContent !== ""); };
    let r = from.r, c = from.c;
    const inside = (r, c) => r >= 1 && r <= rows && c >= 1 && c <= cols;
    if (filled(r, c) && inside(r + dr, c + dc) && filled(r + dr, c + dc)) {
      while (inside(r + dr, c + dc) && filled(r + dr, c + dc)) { r += dr; c += dc; }
      return { r, c };
    }
    r += dr; c += dc;
    while (inside(r, c) && !filled(r, c)) { r += dr; c += dc; }
    return inside(r, c) ? { r, c } : clampCell({ r: r - dr, c: c - dc });
  }
  function lastUsed() {
    let r = 1, c = 1;
    for (const key of Object.keys(data)) { const p = parseRef(key); if (p && (data[key].i !== undefined)) { r = Math.max(r, p.r); c = Math.max(c, p.c); } }
    return { r, c };
  }

  /* ---------------------------------------------------------------- clipboard */
  function copy(cut, dt) {
    const g = range();
    const text = tsv(g);
    if (dt) dt.setData("text/plain", text);
    clip = { tab: tabId, g, range: rangeText(g), cut, text };
    paint();
    say(cut ? "Cut: paste to move." : "Copied.");
  }
  function paste(text) {
    if (clip && (text === clip.text || text === "" || text === undefined)) {
      const body = { at: rangeText(), source_tab: clip.tab, source: clip.range, cut: clip.cut };
      const wasCut = clip.cut;
      if (wasCut) clip = null;
      return post("/paste", body).then((j) => { apply(j); if (j) selectPasted(j); });
    }
    if (!text) { say("There's nothing to paste."); return Promise.resolve(); }
    clip = null;
    return post("/paste", { at: a1(act.r, act.c), text }).then((j) => { apply(j); if (j) selectPasted(j); });
  }
  function selectPasted(j) {
    const g = range();
    act = { r: g.top, c: g.left };
    const cells = (j.cells || []).filter((c) => c.r >= act.r && c.c >= act.c);
    if (!cells.length) return;
    ext = { r: Math.max(...cells.map((c) => c.r)), c: Math.max(...cells.map((c) => c.c)) };
    paint();
  }

  /* ---------------------------------------------------------------- mouse */
  let dragging = false;
  function bindGrid() {
    grid.addEventListener("mousedown", (e) => {
      if (e.target.closest(".col-resize")) return startResize(e);
      if (e.target.closest(".fill-handle") && e.button === 0) return startFill(e);
      const cell = e.target.closest("tbody td");
      const rowHead = e.target.closest("tbody th");
      const colHead = e.target.closest("thead th");
      if (e.button === 2 && cell) {
        const p = posOf(cell), g = range();
        if (p.r < g.top || p.r > g.bottom || p.c < g.left || p.c > g.right) select(p.r, p.c);
        return;
      }
      if (e.button !== 0) return;
      if (cell) {
        const p = posOf(cell);
        if (editing && editing.from === "cell" && isFormulaPoint()) {
          e.preventDefault();
          ed.setRangeText(a1(p.r, p.c), ed.selectionStart, ed.selectionEnd, "end");
          fx.value = ed.value; autosize();
          return;
        }
        e.preventDefault();
        const add = (e.ctrlKey || e.metaKey) && !e.shiftKey && !editing;      // Ctrl+click: another range
        const keep = add ? more.concat([range()]) : [];
        const go = () => {
          if (e.shiftKey) select(p.r, p.c, true); else select(p.r, p.c, false, true);
          if (add) { more = keep; paint(); }
          dragging = true;
        };
        if (editing) commit().then(() => {}); 
        go();
        return;
      }
      if (editing) commit();
      if (rowHead) { e.preventDefault(); const r = rowHead.parentNode.sectionRowIndex + 1; if (e.shiftKey) { ext = { r, c: cols }; } else { act = { r, c: 1 }; ext = { r, c: cols }; } paint(); focusGrid(); dragging = "row"; return; }
      if (colHead) {
        e.preventDefault();
        const c = colHead.cellIndex;
        if (c === 0) { act = { r: 1, c: 1 }; ext = { r: rows, c: cols }; }
        else if (e.shiftKey) ext = { r: rows, c };
        else { act = { r: 1, c }; ext = { r: rows, c }; }
        paint(); focusGrid(); dragging = c ? "col" : false;
      }
    });
    grid.addEventListener("mouseover", (e) => {
      if (!dragging || !(e.buttons & 1)) { dragging = false; return; }
      if (dragging === true) { const cell = e.target.closest("tbody td"); if (cell) { ext = posOf(cell); paint(); } }
      else if (dragging === "row") { const h = e.target.closest("tbody th, tbody td"); if (h) { ext = { r: h.parentNode.sectionRowIndex + 1, c: cols }; paint(); } }
      else if (dragging === "col") { const h = e.target.closest("thead th"); if (h && h.cellIndex) { ext = { r: rows, c: h.cellIndex }; paint(); } }
    });
    grid.addEventListener("dblclick", (e) => {
      const cell = e.target.closest("tbody td");
      if (!cell) return;
      const p = posOf(cell);
      act = p; ext = p;
      startEdit("edit");
    });
    grid.addEventListener("contextmenu", (e) => {
      if (!e.target.closest("tbody td, tbody th, thead th")) return;
      e.preventDefault();
      openMenu($("#ctx-menu"), e.clientX, e.clientY);
    });
  }
  document.addEventListener("mouseup", () => { dragging = false; });

  // Text and fill colour: the toolbar's palettes (palette_menu; Reset is "", no colour).
  document.addEventListener("click", (e) => {
    const sw = e.target.closest(".sheet-toolbar [data-color] [data-color-value]");
    if (!sw) return;
    act_("color", { key: sw.closest("[data-color]").dataset.color, value: sw.dataset.colorValue });
    focusGrid();
  });

  /* ---------------------------------------------------------------- formula assist */
  // While a formula is typed: the functions whose names start with the word at the caret (↑/↓ to
  // choose, Tab or Enter to take one: "=SUMI" → "=SUMIF("), and inside a function's parentheses its
  // arguments with the one being typed in bold, as in Sheets.
  const FNS = JSON.parse(($("#fn-data") || {}).textContent || "{}");
  const suggestBox = $("#fn-suggest"), helpBox = $("#fn-help");
  let suggestions = [], pick = 0, assistFrom = null;
  function closeAssist() {
    suggestions = []; if (suggestBox) suggestBox.hidden = true; if (helpBox) helpBox.hidden = true;
    if (grid) $$(".ref-box", grid).forEach((b) => b.remove());
  }
  function placeNear(box, input) {
    const r = (input === fx ? fx : ed).getBoundingClientRect();
    box.style.position = "fixed"; box.style.right = "auto";
    box.style.left = Math.min(r.left, innerWidth - 420) + "px"; box.style.top = (r.bottom + 4) + "px";
    box.hidden = false;
  }
  // The ranges a formula refers to on this tab, outlined on the grid in colours as Sheets does.
  const REF_COLORS = ["#1a73e8", "#d93025", "#7627bb", "#188038", "#e37400", "#12b5cb"];
  function showRefs(v) {
    $$(".ref-box", grid).forEach((b) => b.remove());
    if (!v || !v.startsWith("=")) return;
    const seen = [];
    const rx = /(?:^|[^A-Za-z0-9_!'.$])(\$?[A-Za-z]{1,3}\$?\d{1,6})(?::(\$?[A-Za-z]{1,3}\$?\d{1,6}))?(?![A-Za-z0-9_(!])/g;
    const strip = v.replace(/"[^"]*"?/g, (m) => " ".repeat(m.length));
    for (let m = rx.exec(strip); m; m = rx.exec(strip)) {
      const a = parseRef(m[1].replace(/\$/g, "")), b = m[2] ? parseRef(m[2].replace(/\$/g, "")) : a;
      if (!a || !b || a.r > rows || b.r > rows || a.c > cols || b.c > cols) continue;
      const g = { top: Math.min(a.r, b.r), left: Math.min(a.c, b.c), bottom: Math.max(a.r, b.r), right: Math.max(a.c, b.c) };
      const key = rangeText(g);
      if (seen.includes(key)) continue;
      seen.push(key);
      const box = document.createElement("div");
      box.className = "ref-box"; box.dataset.ref = key;
      box.style.borderColor = REF_COLORS[(seen.length - 1) % REF_COLORS.length];
      grid.appendChild(box);
      place(box, g);
    }
  }
  function assist(input) {
    showRefs(editing ? input.value : "");
    if (!suggestBox || !editing) return;
    const v = input.value, caret = input.selectionStart;
    if (!v.startsWith("=")) { closeAssist(); return; }
    const before = v.slice(0, caret);
    const word = /(?:^=|[=(,+\-*\/^&<>:;\s])([A-Za-z][A-Za-z0-9.]*)$/.exec(before);
    suggestions = word ? Object.keys(FNS).filter((n) => n.startsWith(word[1].toUpperCase()))
      .sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, 8) : [];
    if (suggestions.length && !(suggestions.length === 1 && suggestions[0] === word[1].toUpperCase() && v[caret] === "(")) {
      pick = Math.min(pick, suggestions.length - 1);
      assistFrom = caret - word[1].length;
      suggestBox.innerHTML = suggestions.map((n, i) =>
        `<div class="fn-option${i === pick ? " on" : ""}" role="option" aria-selected="${i === pick}" data-fn="${n}">` +
        `<b>${n}</b><span class="dim">${FNS[n][1].replace(/&/g, "&amp;").replace(/</g, "&lt;")}</span></div>`).join("");
      placeNear(suggestBox, input);
      helpBox.hidden = true;
      return;
    }
    suggestions = []; suggestBox.hidden = true;
    // argument help: the innermost open function call before the caret
    let depth = 0, i = before.length - 1, arg = 0, inStr = false;
    for (; i >= 0; i--) {
      const ch = before[i];
      if (ch === '"') inStr = !inStr;
      if (inStr) continue;
      if (ch === ")") depth++;
      else if (ch === "(") { if (depth === 0) break; depth--; }
      else if (ch === "," && depth === 0) arg++;
    }
    const name = i > 0 ? (/([A-Za-z][A-Za-z0-9.]*)$/.exec(before.slice(0, i)) || [])[1] : null;
    const sig = name && FNS[name.toUpperCase()];
    if (!sig) { helpBox.hidden = true; return; }
    const m = /^([^(]*)\((.*)\)$/.exec(sig[0]);
    const args = m[2] ? m[2].split(/,\s*/) : [];
    const esc = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    const shown = args.map((a, j) => (j === Math.min(arg, args.length - 1) ? `<b>${esc(a)}</b>` : esc(a))).join(", ");
    helpBox.innerHTML = `<div class="fn-sig">${esc(m[1])}(${shown})</div><div class="dim">${esc(sig[1])}</div>`;
    placeNear(helpBox, input);
  }
  function take(input, n) {
    const v = input.value, caret = input.selectionStart;
    const rest = v.slice(caret).replace(/^[A-Za-z0-9.]*/, "");
    input.value = v.slice(0, assistFrom) + n + "(" + rest.replace(/^\(/, "");
    const at = assistFrom + n.length + 1;
    input.setSelectionRange(at, at);
    if (input === fx) ed.value = fx.value; else fx.value = ed.value;
    autosize();
    suggestions = []; suggestBox.hidden = true;
    assist(input);
  }
  function suggestKeys(e, input) {
    if (!suggestions.length || suggestBox.hidden) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      pick = (pick + (e.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length;
      assist(input);
      return true;
    }
    if (e.key === "Tab" || e.key === "Enter") { e.preventDefault(); take(input, suggestions[pick]); return true; }
    if (e.key === "Escape") { e.preventDefault(); suggestions = []; suggestBox.hidden = true; return true; }
    return false;
  }
  if (suggestBox) suggestBox.addEventListener("mousedown", (e) => {
    const o = e.target.closest("[data-fn]");
    if (!o) return;
    e.preventDefault();
    take(editing && editing.from === "bar" ? fx : ed, o.dataset.fn);
  });

  /* ---------------------------------------------------------------- fill handle */
  // Drag the handle at the selection's corner down, up, right or left: the selection is filled over the
  // cells passed (numbers and dates continue their series; formulas move their relative references).
  function startFill(e) {
    e.preventDefault(); e.stopPropagation();
    if (editing) commit();
    const src = range();
    const preview = $(".fill-preview", grid);
    let dest = null;
    const target = (ev) => {
      const el = document.elementFromPoint(ev.clientX, ev.clientY);
      const cell = el && el.closest && el.closest("tbody td");
      if (!cell || !grid.contains(cell)) return null;
      const p = posOf(cell);
      const dr = p.r > src.bottom ? p.r - src.bottom : p.r < src.top ? p.r - src.top : 0;
      const dc = p.c > src.right ? p.c - src.right : p.c < src.left ? p.c - src.left : 0;
      if (!dr && !dc) return null;
      if (Math.abs(dr) >= Math.abs(dc)) return dr > 0 ? { ...src, bottom: p.r } : { ...src, top: p.r };
      return dc > 0 ? { ...src, right: p.c } : { ...src, left: p.c };
    };
    const move = (ev) => { dest = target(ev); if (dest) place(preview, dest); else preview.hidden = true; };
    const up = (ev) => {
      document.removeEventListener("mousemove", move); document.removeEventListener("mouseup", up);
      dest = target(ev) || dest;
      preview.hidden = true;
      if (!dest) return;
      post("/fill", { source: rangeText(src), range: rangeText(dest), series: true }).then((j) => {
        if (j) { act = { r: dest.top, c: dest.left }; ext = { r: dest.bottom, c: dest.right }; }
        apply(j);
      });
    };
    document.addEventListener("mousemove", move); document.addEventListener("mouseup", up);
  }

  /* ---------------------------------------------------------------- column resize */
  function startResize(e) {
    e.preventDefault(); e.stopPropagation();
    const col = +e.target.dataset.col;
    const colEl = $("colgroup", grid).children[col];
    const start = e.clientX, w0 = colEl.getBoundingClientRect().width || parseInt(colEl.style.width, 10);
    const table = $("table", grid), t0 = parseInt(table.style.width, 10);
    const move = (ev) => { const w = Math.max(20, w0 + ev.clientX - start); colEl.style.width = w + "px"; table.style.width = (t0 + w - w0) + "px"; };
    const up = (ev) => {
      document.removeEventListener("mousemove", move); document.removeEventListener("mouseup", up);
      const w = Math.max(20, Math.round(w0 + ev.clientX - start));
      if (w !== Math.round(w0)) post("/width", { col, width: w }).then(() => paint());
    };
    document.addEventListener("mousemove", move); document.addEventListener("mouseup", up);
  }

  /* ---------------------------------------------------------------- formula bar and name box */
  fx.addEventListener("focus", () => {
    if (!editable || editing) return;
    startEdit("edit", undefined, "bar");
  });
  fx.addEventListener("input", () => { if (editing) { ed.value = fx.value; autosize(); assist(fx); } });
  fx.addEventListener("keydown", (e) => {
    if (!editing) return;
    if (suggestKeys(e, fx)) return;
    if (e.key === "Enter") { e.preventDefault(); commit({ r: 1, c: 0 }); }
    else if (e.key === "Tab") { e.preventDefault(); commit({ r: 0, c: 1 }); }
    else if (e.key === "Escape") { e.preventDefault(); cancel(); }
  });
  fx.addEventListener("blur", () => { if (editing && editing.from === "bar") setTimeout(() => { if (editing && editing.from === "bar" && document.activeElement !== fx) commit(); }, 0); });
  nameBox.addEventListener("focus", () => nameBox.select());
  nameBox.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { nameBox.value = rangeText(); focusGrid(); return; }
    if (e.key !== "Enter") return;
    e.preventDefault();
    const parts = nameBox.value.trim().split(":");
    let a = parseRef(parts[0]), b = parts.length === 2 ? parseRef(parts[1]) : a;
    if (!a || !b || parts.length > 2 || a.r > rows || a.c > cols || b.r > rows || b.c > cols) {
      say(`“${nameBox.value.trim()}” isn't a cell or range in this sheet. Try B7 or A1:C10.`);
      nameBox.select();
      return;
    }
    const m = parts.length === 1 && a.r <= rows && a.c <= cols && mergeOf(a);     // a cell of a merged block: the block
    if (m) { a = { r: m.top, c: m.left }; b = a; }
    act = a; ext = b; more = []; scrollTo(b.r, b.c); scrollTo(a.r, a.c);
    paint();
    nameBox.value = rangeText();
    focusGrid();
  });

  /* ---------------------------------------------------------------- actions (menus, toolbar, keys) */
  function act_(name, opts) {
    opts = opts || {};
    if (editing) commit();
    const g = range();
    const rt = rangeText(g), all = allRanges();
    switch (name) {
      case "undo": return post("/undo", {}).then(apply);
      case "redo": return post("/redo", {}).then(apply);
      case "clear": return post("/clear", { range: all }).then(apply);
      case "copy": return copy(false, null);
      case "cut": return copy(true, null);
      case "paste": return navigator.clipboard && navigator.clipboard.readText
        ? navigator.clipboard.readText().then(paste, () => paste(clip ? clip.text : ""))
        : paste(clip ? clip.text : "");
      case "fill_down": case "fill_right": {
        // Ctrl+D / Ctrl+R copy the first row (column) of the selection over the rest; one cell copies the one above (left)
        const down = name === "fill_down";
        let src = down ? { top: g.top, left: g.left, bottom: g.top, right: g.right } : { top: g.top, left: g.left, bottom: g.bottom, right: g.left };
        let dest = g;
        if (down ? g.top === g.bottom : g.left === g.right) {
          if (down ? g.top === 1 : g.left === 1) return;
          src = down ? { top: g.top - 1, left: g.left, bottom: g.top - 1, right: g.right } : { top: g.top, left: g.left - 1, bottom: g.bottom, right: g.left - 1 };
          dest = down ? { top: g.top - 1, left: g.left, bottom: g.bottom, right: g.right } : { top: g.top, left: g.left - 1, bottom: g.bottom, right: g.right };
        }
        return post("/fill", { source: rangeText(src), range: rangeText(dest), series: false }).then(apply);
      }
      case "bold": case "italic": case "strike": case "wrap": {
        const f = (data[a1(act.r, act.c)] || {}).f || {};
        const body = { range: all }; body[name] = !f[name];
        return post("/format", body).then(apply);
      }
      case "color": { const body = { range: all }; body[opts.key] = opts.value; return post("/format", body).then(apply); }
      case "clear_colors": return post("/format", { range: all, color: null, fill: null }).then(apply);
      case "borders": return post("/format", { range: all, borders: opts.preset }).then(apply);
      case "format": return post("/format", { range: all, type: opts.type }).then(apply);
      case "decimals": return post("/format", { range: all, decimals_step: +opts.step }).then(apply);
      case "align": return post("/format", { range: all, align: opts.align }).then(apply);
      case "insert_rows": {
        const n = g.bottom - g.top + 1;
        return post("/structure", { op: "insert_rows", at: opts.where === "below" ? g.bottom + 1 : g.top, n }).then(apply);
      }
      case "insert_cols": {
        const n = g.right - g.left + 1;
        return post("/structure", { op: "insert_cols", at: opts.where === "right" ? g.right + 1 : g.left, n }).then(apply);
      }
      case "delete_rows": return post("/structure", { op: "delete_rows", at: g.top, n: g.bottom - g.top + 1 }).then((j) => { if (j) { ext = { ...act }; } apply(j); });
      case "delete_cols": return post("/structure", { op: "delete_cols", at: g.left, n: g.right - g.left + 1 }).then((j) => { if (j) { ext = { ...act }; } apply(j); });
      case "add_rows": return post("/rows", { n: 100 }).then(apply);
      case "freeze": {
        const n = opts.rows === "current" ? act.r : +opts.rows;
        return post("/freeze", { rows: n }).then(apply);
      }
      case "sort_sheet": {
        const last = lastUsed();
        const top = (+grid.dataset.frozen || 0) + 1;
        if (top > last.r) { say("There's nothing below the frozen rows to sort."); return; }
        return post("/sort", { range: `A${top}:${colLetter(Math.max(last.c, act.c))}${last.r}`, col: act.c, order: opts.order }).then(apply);
      }
      case "sort_dialog": return sortDialog();
      case "sort_range": {
        if (g.top === g.bottom) { say("Select the rows you want to sort."); return; }
        return post("/sort", { range: rt, col: act.c, order: opts.order }).then(apply);
      }
    }
  }
  document.addEventListener("mousedown", (e) => {
    // Menus and toolbar buttons must not take focus away from the grid.
    if (e.target.closest(".sheet-toolbar button, .sheet-toolbar summary, .ctx-menu .menu-item, .doc-menus [data-act]")) e.preventDefault();
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-act]");
    if (b && b.closest(".sheet-app")) {
      e.preventDefault();
      closeMenus();
      act_(b.dataset.act, { where: b.dataset.where, type: b.dataset.type, step: b.dataset.step, align: b.dataset.align, rows: b.dataset.rows, order: b.dataset.order, preset: b.dataset.preset });
      return;
    }
    if (!e.target.closest(".ctx-menu")) $$(".ctx-menu").forEach((m) => { m.hidden = true; });
  });
  function closeMenus() {
    $$(".sheet-app details.menu-wrap[open]").forEach((d) => d.removeAttribute("open"));
    $$(".ctx-menu").forEach((m) => { m.hidden = true; });
  }
  function openMenu(menu, x, y) {
    closeMenus();
    menu.hidden = false;
    const h = menu.offsetHeight, w = menu.offsetWidth;
    menu.style.left = Math.min(x, innerWidth - w - 8) + "px";
    menu.style.top = Math.min(y, innerHeight - h - 8) + "px";
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") $$(".ctx-menu").forEach((m) => { m.hidden = true; }); });
  // What the tab bar (sheets-tabs.js) needs of the grid.
  // And what the filters (sheets-filter.js) need: the server, the selection, the grid.
  window.sheetApp = {
    editable, base, openMenu, closeMenus, post, apply, say, a1, colLetter,
    selection: () => rangeText(), grid: () => grid, td: (r, c) => td(r, c), focusGrid,
  };

  // Data → Sort range…: which column, which order, and whether the first row is a header.
  function sortDialog() {
    const g = range();
    if (g.top === g.bottom) { say("Select the rows you want to sort."); return; }
    const d = document.createElement("dialog");
    d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "sort-title");
    const esc = window.deskworld.escHtml;
    let cols = "";
    for (let c = g.left; c <= g.right; c++) {
      const head = td(g.top, c) ? td(g.top, c).textContent : "";
      cols += `<label class="radio-row"><input type="radio" name="col" value="${c}"${c === act.c ? " checked" : ""}> Column ${colLetter(c)}${head ? ` <span class="dim">(${esc(head)})</span>` : ""}</label>`;
    }
    d.innerHTML = `<form><h2 id="sort-title">Sort range ${esc(rangeText(g))}</h2>` +
      `<label class="radio-row"><input type="checkbox" name="header"> Data has header row</label>` +
      `<fieldset class="radio-group"><legend>Sort by</legend>${cols}</fieldset>` +
      `<fieldset class="radio-group"><legend>Order</legend><label class="radio-row"><input type="radio" name="order" value="asc" checked> A → Z</label>` +
      `<label class="radio-row"><input type="radio" name="order" value="desc"> Z → A</label></fieldset>` +
      `<div class="actions"><button type="button" class="btn btn-text" data-close>Cancel</button><button type="submit" class="btn btn-primary">Sort</button></div></form>`;
    document.getElementById("modal").appendChild(d);
    d.showModal();
    $("form", d).addEventListener("submit", (e) => {
      e.preventDefault();
      const f = new FormData(e.target);
      const top = f.get("header") ? g.top + 1 : g.top;
      d.close(); d.remove();
      if (top >= g.bottom + 1) { say("There's nothing to sort below the header row."); return; }
      post("/sort", { range: rangeText({ top, left: g.left, bottom: g.bottom, right: g.right }), col: +f.get("col"), order: f.get("order") }).then(apply);
    });
  }
  init();
  focusGrid();
  window.addEventListener("resize", paint);
})();
