/* Drive page behaviour: the selection bar over the file rows, the rows' context menu, and drag to
   move. Selecting, opening and the keyboard over file rows are deskworld.js's (the editors' home
   lists share them); this script follows the selection ("deskworld:selection"). Nothing here reads
   the clock or runs on a timer of its own. */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const { selectRow, typing, visible, removeContextMenu } = window.deskworld;

  /* ---------------------------------------------------------------- the selection bar */
  function selectedIds() { return $$("tr.frow[aria-selected='true']").map((r) => r.dataset.id); }

  /* ---------------------------------------------------------------- Copy link: the page's clipboard, and a toast */
  function showToast(text) {
    const region = document.getElementById("toast-region");
    if (!region) return;
    region.innerHTML = "";
    const t = document.createElement("div");
    t.className = "toast"; t.setAttribute("role", "status"); t.dataset.closable = "";
    const m = document.createElement("span"); m.className = "msg"; m.textContent = text;
    t.appendChild(m); region.appendChild(t);
  }
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text).catch(() => fallbackCopy(text));
    fallbackCopy(text);
    return Promise.resolve();
  }
  function fallbackCopy(text) {
    const ta = document.createElement("textarea");
    ta.value = text; ta.setAttribute("readonly", ""); ta.style.position = "fixed"; ta.style.opacity = "0";
    (document.querySelector("dialog[open]") || document.body).appendChild(ta);
    ta.select();
    try { document.execCommand("copy"); } catch (err) { /* nothing else to try */ }
    ta.remove();
  }
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-copy-link]");
    if (!b) return;
    const url = b.dataset.copyLink;
    document.body.dataset.copiedLink = url;
    copyText(url).then(() => showToast("Link copied"));
  });

  /* ---------------------------------------------------------------- the details panel (the "i" button) */
  function panel() { return document.getElementById("details-panel"); }
  function loadDetails(id) {
    const p = panel(); if (!p || !window.htmx) return;
    const url = id ? p.dataset.itemUrl.replace("__ID__", id) : p.dataset.emptyUrl;
    htmx.ajax("GET", url, { target: p, swap: "innerHTML" });
  }
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-details-toggle]")) {
      const p = panel(); if (!p) return;
      if (p.childElementCount) { p.innerHTML = ""; p.hidden = true; return; }
      p.hidden = false;
      const ids = selectedIds();
      loadDetails(ids.length === 1 ? ids[0] : null);
      return;
    }
    if (e.target.closest("[data-details-close]")) { const p = panel(); if (p) { p.innerHTML = ""; p.hidden = true; } }
  });
  document.addEventListener("htmx:beforeSwap", (e) => { const p = panel(); if (p && e.detail.target === p) p.hidden = false; });
  document.addEventListener("deskworld:selection", () => {
    const p = panel(); if (!p || p.hidden || !p.childElementCount) return;
    const ids = selectedIds();
    if (ids.length !== 1) return;
    const shown = p.querySelector("[data-details-for]");
    if (!shown || shown.dataset.detailsFor !== ids[0]) loadDetails(ids[0]);
  });
  function updateSelectionBar() {
    const ids = selectedIds();
    const bar = $("#selection-bar");
    if (bar) {
      bar.hidden = ids.length === 0;
      const c = $(".count", bar); if (c) c.textContent = ids.length + " selected";
      const single = ids.length === 1 ? $(`tr.frow[data-id='${ids[0]}']`) : null;
      $$("[data-single]", bar).forEach((el) => { el.hidden = !single; });
      $$("[data-needs-edit]", bar).forEach((el) => { el.hidden = $$("tr.frow[aria-selected='true']").some((r) => r.dataset.canEdit !== "1"); });
      $$("[data-copy-link-template]", bar).forEach((el) => { if (single) el.dataset.copyLink = el.dataset.copyLinkTemplate.replace("__ID__", ids[0]); });
      $$("[data-id-template]", bar).forEach((el) => {
        if (single) { for (const attr of ["hx-get", "hx-post", "href"]) { const t = el.getAttribute("data-" + attr + "-template"); if (t) el.setAttribute(attr, t.replace("__ID__", ids[0])); } if (window.htmx) htmx.process(el); }
      });
    }
    $$("input[data-selected-ids]").forEach((holder) => {
      const form = holder.closest("form");
      $$("input[name='ids'][data-generated]", form).forEach((i) => i.remove());
      ids.forEach((id) => { const i = document.createElement("input"); i.type = "hidden"; i.name = "ids"; i.value = id; i.dataset.generated = ""; form.appendChild(i); });
    });
    const chips = $("#filter-chips"); if (chips) chips.hidden = ids.length > 0;   // the selection bar takes the chips' place
  }
  document.addEventListener("deskworld:selection", updateSelectionBar);
  document.addEventListener("htmx:afterSwap", () => { updateSelectionBar(); });
  document.addEventListener("DOMContentLoaded", () => { updateSelectionBar(); });
  document.addEventListener("click", (e) => {
    if (e.target.closest("[data-clear-selection]")) {
      $$("tr.frow[aria-selected='true']").forEach((r) => r.setAttribute("aria-selected", "false"));
      updateSelectionBar();
      return;
    }
    const opener = e.target.closest("[data-ctx-open]");
    if (opener) {
      e.preventDefault();
      const row = opener.closest("tr.frow");
      if (row && row.getAttribute("aria-selected") !== "true") selectRow(row, null);
      const r = opener.getBoundingClientRect();
      showContextMenu(opener.dataset.ctxOpen, r.left, r.bottom);
    }
  });
  document.addEventListener("keydown", (e) => {
    if (typing(document.activeElement) || document.querySelector("dialog[open]")) return;
    if (!$$("tr.frow[aria-selected='true']").length) return;
    if (e.key === "Delete" || e.key === "Backspace") { const b = $("#selection-bar [data-action='trash']"); if (b && visible(b)) { e.preventDefault(); b.click(); } }
  });

  /* ---------------------------------------------------------------- a row's context menu */
  document.addEventListener("contextmenu", (e) => {
    const row = e.target.closest("tr.frow");
    if (!row) return;
    showContextMenu(row.dataset.id, e.clientX, e.clientY);
  });
  function showContextMenu(id, x, y) {
    removeContextMenu();
    const tpl = document.getElementById("ctx-" + id);
    if (!tpl) return;
    const menu = tpl.content.firstElementChild.cloneNode(true);
    document.body.appendChild(menu);
    const w = menu.offsetWidth, h = menu.offsetHeight;
    menu.style.left = Math.max(8, Math.min(x, innerWidth - w - 8)) + "px";
    menu.style.top = Math.max(8, Math.min(y, innerHeight - h - 8)) + "px";
    if (window.htmx) htmx.process(menu);
    const first = menu.querySelector("button, a"); if (first) first.focus();
  }

  /* ---------------------------------------------------------------- drag to move */
  document.addEventListener("dragstart", (e) => {
    const row = e.target.closest && e.target.closest("tr.frow[data-can-edit='1']");
    if (!row) return;
    if (row.getAttribute("aria-selected") !== "true") selectRow(row, null);
    e.dataTransfer.setData("text/plain", selectedIds().join(","));
    e.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragover", (e) => {
    const target = e.target.closest && e.target.closest("[data-drop-folder]");
    if (target) { e.preventDefault(); target.classList.add("drop"); }
  });
  document.addEventListener("dragleave", (e) => {
    const target = e.target.closest && e.target.closest("[data-drop-folder]");
    if (target) target.classList.remove("drop");
  });
  document.addEventListener("drop", (e) => {
    const target = e.target.closest && e.target.closest("[data-drop-folder]");
    if (!target) return;
    e.preventDefault();
    target.classList.remove("drop");
    const ids = (e.dataTransfer.getData("text/plain") || "").split(",").filter(Boolean);
    if (!ids.length || ids.includes(target.dataset.dropFolder)) return;
    const form = document.getElementById("drop-move-form");
    if (!form) return;
    $$("input[name='ids']", form).forEach((i) => i.remove());
    ids.forEach((id) => { const i = document.createElement("input"); i.type = "hidden"; i.name = "ids"; i.value = id; form.appendChild(i); });
    $("input[name='target']", form).value = target.dataset.dropFolder;
    form.requestSubmit();
  });
})();
