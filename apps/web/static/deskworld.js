/* deskworld page behaviour shared by every app: dialogs drawn in the page,
   menus, keyboard shortcuts, recipient chips, row selection, context menus.
   Nothing here reads the clock or runs on a timer of its own. */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const TEXT_INPUTS = /^(text|search|email|url|tel|password|number|date|time|datetime-local|month|week)$/;
  const typing = (el) => !!el && (el.isContentEditable || /^(TEXTAREA|SELECT)$/.test(el.tagName) ||
    (el.tagName === "INPUT" && TEXT_INPUTS.test(el.type || "text")));
  const visible = (el) => !!(el && el.offsetParent !== null && !el.disabled && !el.closest("[hidden]"));

  /* ---------------------------------------------------------------- dialogs */
  function openDialogs(root) {
    const found = $$("dialog[data-modal]", root);
    if (root.matches && root.matches("dialog[data-modal]")) found.push(root);
    found.forEach((d) => {
      if (!d.open) {
        d.showModal();
        const first = d.querySelector("[autofocus]") || d.querySelector("input:not([type=hidden]), select, textarea, button");
        if (first) first.focus();
      }
    });
  }
  function closeDialog(d) {
    if (!d) return;
    if (d.open) d.close();
    d.remove();
  }
  document.addEventListener("click", (e) => {
    const closer = e.target.closest("[data-close]");
    if (closer) {
      e.preventDefault();
      closeDialog(closer.closest("dialog"));
      const panel = closer.closest("[data-closable]");
      if (panel) panel.remove();
    }
  });
  document.addEventListener("close", (e) => {
    if (e.target.matches && e.target.matches("dialog[data-modal]")) e.target.remove();
  }, true);

  /* ---------------------------------------------------------------- menus (details.menu-wrap) */
  document.addEventListener("click", (e) => {
    $$("details.menu-wrap[open]").forEach((d) => { if (!d.contains(e.target)) d.removeAttribute("open"); });
    if (!e.target.closest(".ctx-menu")) $$(".ctx-menu:not([hidden])").forEach((m) => m.remove());
    if (!e.target.closest(".search")) { const s = $("#suggest"); if (s) s.innerHTML = ""; }
  });
  document.addEventListener("toggle", (e) => {
    const d = e.target;
    if (d.matches && d.matches("details.menu-wrap") && d.open) {
      $$("details.menu-wrap[open]").forEach((o) => { if (o !== d) o.removeAttribute("open"); });
    }
  }, true);

  /* ---------------------------------------------------------------- keyboard shortcuts */
  let pendingG = false;
  function clickShortcut(key) {
    const el = $$(`[data-shortcut~="${CSS.escape(key)}"]`).find(visible);
    if (el) { el.click(); return true; }
    return false;
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      const s = $("#suggest"); if (s) s.innerHTML = "";
      $$(".viewer[data-closable]").forEach((v) => { const c = $("[data-close]", v); if (c) v.remove(); else { const a = $("a[aria-label^='Close']", v); if (a) a.click(); } });
      removeContextMenu();
      $$("details.menu-wrap[open]").forEach((d) => d.removeAttribute("open"));
      return;
    }
    if (typing(document.activeElement) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    let key = e.key;
    if (pendingG) {
      pendingG = false;
      if (clickShortcut("g" + key)) { e.preventDefault(); }
      return;
    }
    if (key === "g") { pendingG = true; return; }
    if (key === "/") {
      const box = $("#q"); if (box) { e.preventDefault(); box.focus(); box.select(); }
      return;
    }
    if (listKeys(e)) return;
    if (e.shiftKey && key.length === 1 && key !== "#" && key !== "?") key = "shift+" + key.toLowerCase();
    if (key === "shift+3") key = "#";
    // Gmail acts on the row under the cursor when nothing is selected.
    if (["e", "#", "shift+i", "shift+u", "l"].includes(key) && !$$("input.check[name='t']:checked").length) {
      const cur = $("[data-cursor-row].cursor input.check[name='t']");
      if (cur) { cur.checked = true; syncSelection(document); }
    }
    if (clickShortcut(key)) e.preventDefault();
  });

  /* A keyboard cursor over list rows (Gmail's j/k, x, s, o). */
  function listKeys(e) {
    const rows = $$("[data-cursor-row]");
    if (!rows.length) return false;
    let i = rows.findIndex((r) => r.classList.contains("cursor"));
    const move = (j) => {
      rows.forEach((r) => r.classList.remove("cursor"));
      const r = rows[Math.max(0, Math.min(rows.length - 1, j))];
      r.classList.add("cursor");
      r.scrollIntoView({ block: "nearest" });
    };
    const cur = i >= 0 ? rows[i] : null;
    switch (e.key) {
      case "j": move(i + 1); break;
      case "k": move(i < 0 ? 0 : i - 1); break;
      case "x": if (cur) { const c = $(".check", cur); if (c) { c.checked = !c.checked; c.dispatchEvent(new Event("change", { bubbles: true })); } } else return false; break;
      case "s": if (cur) { const b = $(".star-btn", cur); if (b) b.click(); } else return false; break;
      case "o": case "Enter": if (cur) { const a = $("a.row-link, a.fname", cur); if (a) location.assign(a.href); } else return false; break;
      default: return false;
    }
    e.preventDefault();
    return true;
  }

  /* ---------------------------------------------------------------- selection checkboxes (Mail) */
  function syncSelection(root) {
    $$("[data-selection-scope]", root).forEach((scope) => {
      const boxes = $$("input.check[name='t']", scope);
      boxes.forEach((b) => { const row = b.closest("tr"); if (row) row.classList.toggle("selected", b.checked); });
      const n = boxes.filter((b) => b.checked).length;
      scope.toggleAttribute("data-has-selection", n > 0);
      const all = $("input[data-select-all]", scope);
      if (all) { all.checked = n > 0 && n === boxes.length; all.indeterminate = n > 0 && n < boxes.length; }
      $$("[data-when-selected]", scope).forEach((el) => { el.hidden = n === 0; });
      $$("[data-when-none]", scope).forEach((el) => { el.hidden = n > 0; });
    });
  }
  document.addEventListener("change", (e) => {
    const t = e.target;
    if (t.matches("input[data-select-all]")) {
      const scope = t.closest("[data-selection-scope]");
      $$("input.check[name='t']", scope).forEach((b) => { b.checked = t.checked; });
    }
    if (t.matches("input.check")) syncSelection(document);
    if (t.matches(".picker-row input")) t.closest(".picker-row").classList.toggle("checked", t.checked);
  });
  document.addEventListener("click", (e) => {
    const pick = e.target.closest("[data-select]");
    if (!pick) return;
    const scope = pick.closest("[data-selection-scope]");
    const mode = pick.dataset.select;
    $$("tr[data-cursor-row]", scope).forEach((row) => {
      const c = $("input.check", row);
      if (!c) return;
      c.checked = mode === "all" ? true : mode === "none" ? false :
        mode === "read" ? !row.classList.contains("unread") : mode === "unread" ? row.classList.contains("unread") :
        mode === "starred" ? !!$(".star-btn[aria-pressed='true']", row) : mode === "unstarred" ? !$(".star-btn[aria-pressed='true']", row) : c.checked;
    });
    const d = pick.closest("details"); if (d) d.removeAttribute("open");
    syncSelection(document);
  });

  /* ---------------------------------------------------------------- recipient chips */
  function addChip(box, email, name) {
    email = (email || "").trim();
    if (!email) return;
    const field = box.dataset.chips;
    if ($$(`input[type=hidden][name='${field}']`, box).some((h) => h.value.toLowerCase() === email.toLowerCase())) return;
    const chip = document.createElement("span");
    const valid = /^[^@\s<>,;]+@[^@\s<>,;]+\.[A-Za-z]{2,}$/.test(email);
    chip.className = "rchip" + (valid ? "" : " invalid");
    chip.title = email;
    const label = document.createElement("span");
    label.textContent = name && name !== email ? name : email;
    const hidden = document.createElement("input");
    hidden.type = "hidden"; hidden.name = field; hidden.value = email;
    const x = document.createElement("button");
    x.type = "button"; x.setAttribute("aria-label", "Remove " + email); x.textContent = "×";
    x.dataset.removeChip = "";
    chip.append(label, hidden, x);
    box.insertBefore(chip, $("input.chip-entry", box));
    box.closest("form").dispatchEvent(new Event("input", { bubbles: true }));
  }
  function commitEntry(entry) {
    const box = entry.closest("[data-chips]");
    const parts = entry.value.split(/[,;]/).map((s) => s.trim()).filter(Boolean);
    parts.forEach((p) => {
      const m = p.match(/^(.*)<([^>]+)>\s*$/);
      if (m) addChip(box, m[2], m[1].trim().replace(/^"|"$/g, "")); else addChip(box, p, "");
    });
    entry.value = "";
    const lb = $("ul.listbox", box.closest(".cfield")); if (lb) lb.innerHTML = "";
  }
  document.addEventListener("keydown", (e) => {
    const entry = e.target;
    if (!entry.matches || !entry.matches("input.chip-entry")) return;
    const field = entry.closest(".cfield");
    const opts = $$("ul.listbox [role=option]", field);
    let sel = opts.findIndex((o) => o.getAttribute("aria-selected") === "true");
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!opts.length) return;
      e.preventDefault();
      sel = e.key === "ArrowDown" ? Math.min(opts.length - 1, sel + 1) : Math.max(0, sel - 1);
      opts.forEach((o, j) => o.setAttribute("aria-selected", j === sel ? "true" : "false"));
      return;
    }
    if (e.key === "Enter" || e.key === "Tab" || e.key === "," || e.key === ";") {
      if (sel >= 0 && (e.key === "Enter" || e.key === "Tab")) {
        e.preventDefault();
        pickOption(opts[sel]);
        return;
      }
      if (entry.value.trim()) { e.preventDefault(); commitEntry(entry); }
      else if (e.key === "Enter") e.preventDefault();
      return;
    }
    if (e.key === "Backspace" && !entry.value) {
      const chips = $$(".rchip", entry.closest("[data-chips]"));
      if (chips.length) { chips[chips.length - 1].remove(); entry.closest("form").dispatchEvent(new Event("input", { bubbles: true })); }
    }
  });
  function pickOption(opt) {
    const field = opt.closest(".cfield");
    const box = $("[data-chips]", field);
    addChip(box, opt.dataset.email, opt.dataset.name);
    const entry = $("input.chip-entry", box); entry.value = ""; entry.focus();
    opt.closest("[role=listbox]").innerHTML = "";
  }
  document.addEventListener("mousedown", (e) => {
    const opt = e.target.closest(".cfield ul.listbox [role=option]");
    if (opt) { e.preventDefault(); pickOption(opt); }
  });
  document.addEventListener("focusout", (e) => {
    const entry = e.target;
    if (entry.matches && entry.matches("input.chip-entry") && entry.value.trim()) commitEntry(entry);
  });
  // Suggestions that arrive after the entry was committed are stale: showing them would offer to
  // replace what was typed, under the next field.
  document.addEventListener("htmx:beforeSwap", (e) => {
    const target = e.detail.target;
    if (!target || !target.matches("ul.listbox")) return;
    const entry = $("input.chip-entry", target.closest(".cfield"));
    if (entry && !entry.value.trim()) e.detail.shouldSwap = false;
  });
  document.addEventListener("click", (e) => {
    const x = e.target.closest("[data-remove-chip]");
    if (x) { const form = x.closest("form"); x.closest(".rchip").remove(); form.dispatchEvent(new Event("input", { bubbles: true })); }
    const reveal = e.target.closest("[data-reveal]");
    if (reveal) { const el = document.getElementById(reveal.dataset.reveal); if (el) { el.hidden = false; const i = $("input.chip-entry", el); if (i) i.focus(); } reveal.remove(); }
  });

  /* ---------------------------------------------------------------- Drive rows: select, open, context menu */
  let anchor = null;
  function rowsOf(table) { return $$("tr.frow", table); }
  function selectedIds() { return $$("tr.frow[aria-selected='true']").map((r) => r.dataset.id); }
  function updateSelectionBar() {
    const ids = selectedIds();
    const bar = $("#selection-bar");
    if (bar) {
      bar.hidden = ids.length === 0;
      const c = $(".count", bar); if (c) c.textContent = ids.length + " selected";
      const single = ids.length === 1 ? $(`tr.frow[data-id='${ids[0]}']`) : null;
      $$("[data-single]", bar).forEach((el) => { el.hidden = !single; });
      $$("[data-needs-edit]", bar).forEach((el) => { el.hidden = $$("tr.frow[aria-selected='true']").some((r) => r.dataset.canEdit !== "1"); });
      $$("[data-id-template]", bar).forEach((el) => {
        if (single) { for (const attr of ["hx-get", "hx-post", "href"]) { const t = el.getAttribute("data-" + attr + "-template"); if (t) el.setAttribute(attr, t.replace("__ID__", ids[0])); } if (window.htmx) htmx.process(el); }
      });
    }
    $$("input[data-selected-ids]").forEach((holder) => {
      const form = holder.closest("form");
      $$("input[name='ids'][data-generated]", form).forEach((i) => i.remove());
      ids.forEach((id) => { const i = document.createElement("input"); i.type = "hidden"; i.name = "ids"; i.value = id; i.dataset.generated = ""; form.appendChild(i); });
    });
    const head = $("#drive-head-default"); if (head) head.hidden = ids.length > 0;
  }
  function selectRow(row, e) {
    const table = row.closest("table");
    const rows = rowsOf(table);
    if (e && e.shiftKey && anchor && rows.includes(anchor)) {
      const [a, b] = [rows.indexOf(anchor), rows.indexOf(row)].sort((x, y) => x - y);
      rows.forEach((r, i) => r.setAttribute("aria-selected", i >= a && i <= b ? "true" : "false"));
    } else if (e && (e.ctrlKey || e.metaKey)) {
      row.setAttribute("aria-selected", row.getAttribute("aria-selected") === "true" ? "false" : "true");
      anchor = row;
    } else {
      rows.forEach((r) => r.setAttribute("aria-selected", r === row ? "true" : "false"));
      anchor = row;
    }
    updateSelectionBar();
  }
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
      return;
    }
    const row = e.target.closest("tr.frow");
    if (!row) {
      if (e.target.closest(".ftable, #selection-bar, dialog, .ctx-menu, .popover, .toast")) return;
      if (e.target.closest(".main") && !e.target.closest("button, a, input")) {
        $$("tr.frow[aria-selected='true']").forEach((r) => r.setAttribute("aria-selected", "false"));
        updateSelectionBar();
      }
      return;
    }
    if (row.closest("[data-open-on-click]")) return;       // app home lists: a click opens, as in Docs
    if (e.target.closest(".row-actions, button, input, select")) {
      if (row.getAttribute("aria-selected") !== "true") selectRow(row, null);
      return;
    }
    if (e.target.closest("a.fname")) e.preventDefault();
    selectRow(row, e);
  });
  document.addEventListener("dblclick", (e) => {
    const row = e.target.closest("tr.frow");
    if (row && row.dataset.open && !e.target.closest(".row-actions")) location.assign(row.dataset.open);
  });
  document.addEventListener("keydown", (e) => {
    if (typing(document.activeElement) || document.querySelector("dialog[open]")) return;
    const sel = $$("tr.frow[aria-selected='true']");
    if (!sel.length) return;
    if (e.key === "Enter" && sel.length === 1) { e.preventDefault(); location.assign(sel[0].dataset.open); }
    if (e.key === "Delete" || e.key === "Backspace") { const b = $("#selection-bar [data-action='trash']"); if (b && visible(b)) { e.preventDefault(); b.click(); } }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const rows = rowsOf(sel[0].closest("table"));
      const i = rows.indexOf(sel[sel.length - 1]) + (e.key === "ArrowDown" ? 1 : -1);
      if (rows[i]) { e.preventDefault(); selectRow(rows[i], e.shiftKey ? e : null); rows[i].scrollIntoView({ block: "nearest" }); }
    }
  });
  function removeContextMenu() { $$(".ctx-menu").forEach((m) => m.remove()); }
  document.addEventListener("contextmenu", (e) => {
    const row = e.target.closest("tr.frow");
    if (!row) return;
    e.preventDefault();
    if (row.getAttribute("aria-selected") !== "true") selectRow(row, null);
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
  // A chosen item hides the menu; it stays in the document until the request it made is answered.
  document.addEventListener("click", (e) => {
    const item = e.target.closest(".ctx-menu button, .ctx-menu a");
    if (item) item.closest(".ctx-menu").hidden = true;
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const menu = e.target.closest && e.target.closest(".ctx-menu[hidden]");
    if (menu) menu.remove();
  });

  /* ---------------------------------------------------------------- drag to move (Drive) */
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

  /* ---------------------------------------------------------------- compose: Ctrl+Enter sends; Enter in a field never submits */
  document.addEventListener("keydown", (e) => {
    const form = e.target.closest && e.target.closest("form[data-compose]");
    if (!form) return;
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); const b = $("[data-send]", form); if (b) b.click(); return; }
    if (e.key === "Enter" && e.target.matches("input.plain")) e.preventDefault();
  });

  /* ---------------------------------------------------------------- in-page drop-downs (select_menu) */
  document.addEventListener("click", (e) => {
    const opt = e.target.closest("[data-select-menu] [role=option]");
    if (!opt) return;
    e.preventDefault();
    const menu = opt.closest("[data-select-menu]");
    const input = $("input[type=hidden]", menu);
    $$("[role=option]", menu).forEach((o) => o.setAttribute("aria-selected", o === opt ? "true" : "false"));
    $("[data-select-label]", menu).textContent = opt.textContent.trim();
    const summary = $("summary", menu);
    summary.setAttribute("aria-label", summary.getAttribute("title") + ": " + opt.textContent.trim());
    menu.removeAttribute("open");
    if (input.value !== opt.dataset.value) {
      input.value = opt.dataset.value;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  /* ---------------------------------------------------------------- Mail: the row buttons follow the pointer */
  document.addEventListener("mouseover", (e) => {
    const row = e.target.closest && e.target.closest("tr.mrow[data-thread]");
    const bar = document.getElementById("row-actions");
    if (!row || !bar || bar.parentElement === row.querySelector(".c-date")) return;
    const unread = row.classList.contains("unread");
    $$("[data-when]", bar).forEach((b) => {
      const w = b.dataset.when;
      b.hidden = (w === "unread" && !unread) || (w === "read" && unread) || (w === "inbox" && row.dataset.inbox !== "1");
    });
    row.querySelector(".c-date").appendChild(bar);
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest("#row-actions [data-act]");
    if (!b) return;
    e.preventDefault();
    const bar = b.closest("#row-actions");
    const row = b.closest("tr.mrow");
    const url = bar.dataset.url.replace("/ID/", "/" + row.dataset.thread + "/").replace("ACTION", b.dataset.act)
      + "?v=" + encodeURIComponent(bar.dataset.view);
    htmx.ajax("POST", url, { target: "#threads", swap: "outerHTML" });
  });

  // A row about to be replaced gives the row buttons back first.
  document.addEventListener("htmx:beforeSwap", (e) => {
    const bar = document.getElementById("row-actions");
    const target = e.detail.target;
    if (bar && target && target.contains(bar) && target.matches("tr")) {
      const table = bar.closest("table");
      if (table) table.before(bar);
    }
  });
  // Stars: one delegated handler instead of htmx attributes on every row.
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-star-url]");
    if (!b) return;
    e.preventDefault();
    htmx.ajax("POST", b.dataset.starUrl, { target: b.closest("tr"), swap: "outerHTML" });
  });

  /* ---------------------------------------------------------------- htmx glue */
  document.addEventListener("htmx:load", (e) => { openDialogs(e.target); syncSelection(document); });
  document.addEventListener("htmx:afterSwap", () => { updateSelectionBar(); });
  document.addEventListener("DOMContentLoaded", () => { openDialogs(document); syncSelection(document); updateSelectionBar(); });
})();
