/* Sheets conditional formatting: Format → Conditional formatting opens the side panel — the tab's rules
   (each deletable) and a form for a rule (range, "Format cells if…", value or custom formula, fill and
   text colours, bold, italic, strikethrough; its drop-down and palettes drawn in the page). The server
   lays the formats over the cells; after cells change they are fetched again (a rule may now hold
   elsewhere). Loaded after sheets.js and deskworld.js. */
(function () {
  "use strict";
  const app = window.sheetApp;
  if (!app) return;
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const CONDS = Object.fromEntries(JSON.parse(($("#cf-conditions") || {}).textContent || "[]"));     // in Sheets' order
  const esc = window.deskworld.escHtml;
  let panel = null;

  function get(path) {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open("GET", app.base + path);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.onload = () => resolve(xhr.status < 400 ? JSON.parse(xhr.responseText) : null);
      xhr.onerror = () => resolve(null);
      xhr.send();
    });
  }
  function parseRef(s) {
    const m = /^([A-Z]+)(\d+)$/.exec(s);
    let c = 0; for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64;
    return { r: +m[2], c };
  }

  // The formats laid over the cells, from the server's answer (cells edited since the grid was drawn).
  function paintFormats(cells) {
    const grid = app.grid();
    $$("td[class*=cf-]", grid).forEach((t) => {
      t.classList.remove("cf-f", "cf-c", "cf-b", "cf-i", "cf-s");
      t.style.removeProperty("--cf-fill"); t.style.removeProperty("--cf-color");
    });
    for (const [a1, st] of Object.entries(cells || {})) {
      const p = parseRef(a1), t = app.td(p.r, p.c);
      if (!t) continue;
      if (st.fill) { t.classList.add("cf-f"); t.style.setProperty("--cf-fill", st.fill); }
      if (st.color) { t.classList.add("cf-c"); t.style.setProperty("--cf-color", st.color); }
      if (st.bold) t.classList.add("cf-b");
      if (st.italic) t.classList.add("cf-i");
      if (st.strike) t.classList.add("cf-s");
    }
  }
  document.addEventListener("sheets:applied", (e) => {
    const j = e.detail || {};
    if (j.html !== undefined) { if (panel) load(); return; }          // a new grid brings its formats
    if (!(j.cells || []).length || !app.grid().dataset.rules) return;
    get(`/conditional?tab=${app.grid().dataset.tab}`).then((k) => { if (k) paintFormats(k.cells); });
  });

  /* ---------------------------------------------------------------- the side panel */
  document.addEventListener("click", (e) => {
    if (!e.target.closest("[data-cf-act=open]")) return;
    e.preventDefault();
    app.closeMenus();
    open();
  });
  function open() {
    if (!panel) {
      panel = document.createElement("aside");
      panel.className = "cf-panel";
      panel.setAttribute("role", "complementary");
      panel.setAttribute("aria-label", "Conditional format rules");
      document.querySelector(".sheet-app").appendChild(panel);
      panel.addEventListener("click", onClick);
    }
    panel.innerHTML = '<div class="ce-head"><h2>Conditional format rules</h2><button type="button" class="icon-btn sm" data-cf-close aria-label="Close conditional format rules">✕</button></div>' +
      '<div class="cf-rules" role="list" aria-label="Rules"></div><div class="cf-form-wrap"></div>';
    load().then((k) => { if (k && !k.rules.length) form(); else addButton(); });
  }
  function load() {
    return get(`/conditional?tab=${app.grid().dataset.tab}`).then((k) => {
      if (!k || !panel) return k;
      $(".cf-rules", panel).innerHTML = k.rules.map((r) =>
        `<div class="cf-rule" role="listitem" aria-label="${esc(r.description)} on ${esc(r.range)}">` +
        `<span class="swatch" style="background:${r.style.fill || "#fff"};color:${r.style.color || "#202124"}">123</span>` +
        `<div class="what"><div>${esc(r.description)}</div><div>${esc(r.range)}</div></div>` +
        `<button type="button" class="icon-btn sm" data-cf-delete="${r.id}" aria-label="Delete rule ${esc(r.description)} on ${esc(r.range)}" title="Delete rule">🗑</button></div>`).join("");
      return k;
    });
  }
  function addButton() {
    $(".cf-form-wrap", panel).innerHTML = '<button type="button" class="btn btn-text cf-add" data-cf-add>+ Add another rule</button>';
  }
  function form() {
    // The drop-down and the colours are drawn in the page: deskworld.selectMenu, and the palettes
    // (palette_menu) the page holds in <template id="cf-palettes">, with hidden inputs color and fill.
    const conds = Object.entries(CONDS).map(([k, v]) => [k, v[0]]);
    $(".cf-form-wrap", panel).innerHTML = '<form class="cf-form" aria-label="Conditional format rule">' +
      `<label class="ce-field">Apply to range<input class="input" name="range" value="${esc(app.selection())}" autocomplete="off" spellcheck="false"></label>` +
      `<div class="ce-field"><span class="ce-label">Format cells if…</span>${window.deskworld.selectMenu("type", conds, "not_empty", "Format cells if…")}</div>` +
      '<label class="ce-field cf-value">Value or formula<input class="input" name="value" autocomplete="off" spellcheck="false"></label>' +
      '<div class="ce-field"><span class="ce-label">Formatting style</span><div class="cf-style">' +
      '<label><input type="checkbox" name="bold"> Bold</label><label><input type="checkbox" name="italic"> Italic</label>' +
      '<label><input type="checkbox" name="strike"> Strikethrough</label><span class="cf-colors"></span></div></div>' +
      '<div class="actions"><button type="button" class="btn btn-text" data-cf-cancel>Cancel</button><button type="submit" class="btn btn-primary">Done</button></div></form>';
    const f = $("form", panel);
    const palettes = $("#cf-palettes");
    if (palettes) $(".cf-colors", f).appendChild(palettes.content.cloneNode(true));
    const field = (name) => f.elements.namedItem(name);
    const sync = () => { $(".cf-value", f).hidden = !(CONDS[field("type").value] || [])[1]; };
    field("type").addEventListener("change", sync); sync();
    f.addEventListener("submit", (e) => {
      e.preventDefault();
      const style = { bold: field("bold").checked, italic: field("italic").checked, strike: field("strike").checked };
      if (field("fill").value) style.fill = field("fill").value;
      if (field("color").value) style.color = field("color").value;
      const body = { range: field("range").value.trim().toUpperCase(), condition: { type: field("type").value, value: field("value").value }, style };
      app.post("/conditional", body).then((j) => { if (!j) return; app.apply(j); addButton(); load(); });
    });
  }
  function onClick(e) {
    if (e.target.closest("[data-cf-close]")) { panel.remove(); panel = null; app.focusGrid(); return; }
    if (e.target.closest("[data-cf-add]")) { form(); return; }
    if (e.target.closest("[data-cf-cancel]")) { addButton(); return; }
    const del = e.target.closest("[data-cf-delete]");
    if (del) app.post(`/conditional/${del.dataset.cfDelete}/delete`, {}).then((j) => { if (j) { app.apply(j); load(); } });
  }
})();
