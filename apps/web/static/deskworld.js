/* deskworld page behaviour shared by the shell and several apps: dialogs drawn in the page,
   menus, keyboard shortcuts, a keyboard cursor over list rows, selection checkboxes, suggestion
   lists, recipient chips, file rows (Drive and the editors' home lists), context menus, the
   compose shortcut, in-page drop-downs. Mail's and Drive's own behaviour is in their packages
   (mail.js, drive.js), each app's in its own script. Nothing here reads the clock or runs on a
   timer of its own.

   What the apps' scripts use of it is window.deskworld:
   - listbox(e, list, options): the keyboard over a suggestion list (see below);
   - selectRow(row, e): select a file row as a click would; "deskworld:selection" is dispatched
     on the document whenever the file rows' selection changes;
   - syncSelection(root): bring the selection checkboxes' state (rows, "select all") up to date;
   - removeContextMenu(), typing(element), visible(element): the helpers of the same names;
   - selectMenu(name, options, value, label): the HTML of the select_menu macro (_macros.html) for
     a panel a script builds; setSelectMenu(menu, value) sets one without a change event;
   - setPaletteMenu(menu, value, notify): the same for a palette_menu (_macros.html); with notify its
     hidden input announces a change as a choice does. */
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
  /* A toast stays until the next press anywhere else (a press on it — Undo, a link — is its own),
     as a snackbar a real app times out would be gone by a person's next action; a press rather than a
     timer keeps what a screenshot shows independent of how long the step took. */
  document.addEventListener("pointerdown", (e) => {
    const region = document.getElementById("toast-region");
    if (region && region.firstElementChild && !region.contains(e.target)) region.replaceChildren();
  }, true);
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
  /* ---------------------------------------------------------------- suggestion lists */
  /* The keyboard over a suggestion list under a text box (people, @mentions, lookups, references):
     the [role=option] items of `list`. ArrowDown/ArrowUp move the selected option (aria-selected,
     kept inside the list; `scroll` keeps it in view); Enter — and Tab with `tab` — picks the
     selected option (the first one when none is and `first`; with Shift too unless `shift` is
     false); Escape calls `close` when there is one. pick(option) and close(event) are the
     caller's. Returns true when it handled the key. */
  function listbox(e, list, { pick, close = null, tab = false, first = false, scroll = false, shift = true }) {
    const opts = list ? $$("[role=option]", list) : [];
    if (!opts.length) return false;
    let i = opts.findIndex((o) => o.getAttribute("aria-selected") === "true");
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      i = e.key === "ArrowDown" ? Math.min(opts.length - 1, i + 1) : Math.max(0, i - 1);
      opts.forEach((o, j) => o.setAttribute("aria-selected", j === i ? "true" : "false"));
      if (scroll) opts[i].scrollIntoView({ block: "nearest" });
      return true;
    }
    if ((e.key === "Enter" || (tab && e.key === "Tab")) && (shift || !e.shiftKey)) {
      const opt = i >= 0 ? opts[i] : first ? opts[0] : null;
      if (!opt) return false;
      e.preventDefault();
      pick(opt);
      return true;
    }
    if (e.key === "Escape" && close) { close(e); return true; }
    return false;
  }

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
    if (listbox(e, $("ul.listbox", entry.closest(".cfield")), { pick: pickOption, tab: true })) return;
    if (e.key === "Enter" || e.key === "Tab" || e.key === "," || e.key === ";") {
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

  /* ---------------------------------------------------------------- refresh guard
     Someone else's write (a co-worker, a customer) refreshes what a page shows of the world
     ("deskworld:refresh"). A record being worked on says data-refresh-guard: while the user is in the
     middle of something there — an inline editor or a changed form, a choice menu open, the cursor in
     a field, text typed and not yet saved — the refresh waits for the next one, so it never takes the
     work from under their hands. */
  function busy(el) {
    const active = document.activeElement;
    return !!($("form[data-inline-form], form[data-dirty], details[open]:has([role=listbox], [role=menu])", el) ||
      (active && el.contains(active) && typing(active)) ||
      $$("textarea, input", el).some((t) => TEXT_INPUTS.test(t.type || "text") && t.tagName !== "SELECT" &&
                                          t.value !== t.defaultValue));
  }
  document.addEventListener("htmx:beforeRequest", (e) => {
    const el = e.detail.elt, cfg = e.detail.requestConfig;
    if (!el || !el.matches || !el.matches("[data-refresh-guard]") || !cfg || cfg.verb !== "get") return;
    if (cfg.triggeringEvent && cfg.triggeringEvent.type === "deskworld:refresh" && busy(el)) e.preventDefault();
  });

  /* ---------------------------------------------------------------- file rows (tr.frow): select, open */
  let anchor = null;
  function rowsOf(table) { return $$("tr.frow", table); }
  function selectionChanged() { document.dispatchEvent(new CustomEvent("deskworld:selection")); }
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
    selectionChanged();
  }
  document.addEventListener("click", (e) => {
    const row = e.target.closest("tr.frow");
    if (!row) {
      if (e.target.closest(".ftable, #selection-bar, dialog, .ctx-menu, .popover, .toast")) return;
      if (e.target.closest(".main") && !e.target.closest("button, a, input")) {
        $$("tr.frow[aria-selected='true']").forEach((r) => r.setAttribute("aria-selected", "false"));
        selectionChanged();
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
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const rows = rowsOf(sel[0].closest("table"));
      const i = rows.indexOf(sel[sel.length - 1]) + (e.key === "ArrowDown" ? 1 : -1);
      if (rows[i]) { e.preventDefault(); selectRow(rows[i], e.shiftKey ? e : null); rows[i].scrollIntoView({ block: "nearest" }); }
    }
  });
  /* ---------------------------------------------------------------- context menus (.ctx-menu) */
  function removeContextMenu() { $$(".ctx-menu").forEach((m) => m.remove()); }
  document.addEventListener("contextmenu", (e) => {
    const row = e.target.closest("tr.frow");
    if (!row) return;
    e.preventDefault();
    if (row.getAttribute("aria-selected") !== "true") selectRow(row, null);
  });
  // A chosen item hides the menu; it stays in the document until the request it made is answered.
  document.addEventListener("click", (e) => {
    const item = e.target.closest(".ctx-menu button, .ctx-menu a");
    if (item) item.closest(".ctx-menu").hidden = true;
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const menu = e.target.closest && e.target.closest(".ctx-menu[hidden]");
    if (menu) menu.remove();
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

  /* ---------------------------------------------------------------- drop-downs and palettes for scripts */
  const escHtml = (t) => String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const CHEVRON = '<svg fill="none" viewBox="0 0 24 24" stroke-width="1.5" stroke="currentColor" aria-hidden="true" width="16" height="16" class="ic">' +
    '<path stroke-linecap="round" stroke-linejoin="round" d="m19.5 8.25-7.5 7.5-7.5-7.5" /></svg>';
  // select_menu's HTML; options are [value, text] pairs. It answers ↑/↓ (data-select-keys).
  function selectMenu(name, options, value, label) {
    const cur = options.find((o) => String(o[0]) === String(value)) || options[0];
    return '<details class="menu-wrap select-menu" data-select-menu data-select-keys>' +
      `<summary class="select-btn" role="button" aria-label="${escHtml(label)}: ${escHtml(cur[1])}" title="${escHtml(label)}">` +
      `<span data-select-label>${escHtml(cur[1])}</span>${CHEVRON}</summary>` +
      `<div class="popover" role="listbox" aria-label="${escHtml(label)}" style="top: 34px; min-width: 180px">` +
      options.map(([v, text]) => `<button type="button" class="menu-item" role="option" aria-selected="${v === cur[0] ? "true" : "false"}" data-value="${escHtml(v)}">${escHtml(text)}</button>`).join("") +
      `</div><input type="hidden" name="${escHtml(name)}" value="${escHtml(cur[0])}"></details>`;
  }
  // Set a select menu as a choice would, without a change event (as setting a <select>'s value).
  function setSelectMenu(menu, value) {
    const opt = $$("[role=option]", menu).find((o) => o.dataset.value === String(value));
    if (!opt) return;
    $$("[role=option]", menu).forEach((o) => o.setAttribute("aria-selected", o === opt ? "true" : "false"));
    $("[data-select-label]", menu).textContent = opt.textContent.trim();
    const summary = $("summary", menu);
    summary.setAttribute("aria-label", summary.getAttribute("title") + ": " + opt.textContent.trim());
    $("input[type=hidden]", menu).value = opt.dataset.value;
  }
  // A palette (palette_menu): the bar under the glyph shows the colour; with a hidden input (a form's
  // field) the swatch chosen is pressed and the button names it.
  function setPaletteMenu(menu, value, notify) {
    value = value || "";
    const bar = $("[data-palette-bar]", menu);
    if (bar) bar.style.background = value || bar.dataset.empty || "transparent";
    const input = $("input[type=hidden]", menu);
    if (!input) return;
    const sw = $$(".swatch[data-color-value]", menu).find((b) => b.dataset.colorValue.toLowerCase() === value.toLowerCase());
    $$(".swatch[data-color-value]", menu).forEach((b) => b.setAttribute("aria-pressed", b === sw ? "true" : "false"));
    const summary = $("summary", menu);
    summary.setAttribute("aria-label", summary.getAttribute("title") + ": " + (sw ? sw.getAttribute("aria-label") : value || "none"));
    if (input.value !== value) {
      input.value = value;
      if (notify) input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  document.addEventListener("click", (e) => {
    const sw = e.target.closest("[data-palette-menu] [data-color-value]");
    if (!sw) return;
    e.preventDefault();
    const menu = sw.closest("[data-palette-menu]");
    setPaletteMenu(menu, sw.dataset.colorValue, true);
    menu.removeAttribute("open");
  });
  // The keyboard over a drop-down or palette made by these helpers: ↓/↑ on the button opens it at the
  // current choice; ↑/↓/←/→, Home and End move between the choices; Enter takes one; Escape closes.
  document.addEventListener("keydown", (e) => {
    const menu = e.target.closest && e.target.closest("details[data-select-keys]");
    if (!menu || e.ctrlKey || e.metaKey || e.altKey) return;
    const summary = $("summary", menu);
    if (e.key === "Escape") { if (e.target !== summary) summary.focus(); return; }
    if (!/^(ArrowDown|ArrowUp|ArrowLeft|ArrowRight|Home|End)$/.test(e.key)) return;
    const items = () => $$(".popover button", menu).filter((b) => b.offsetParent !== null);
    if (e.target === summary) {
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      e.preventDefault();
      if (!menu.open) menu.setAttribute("open", "");
      const list = items();
      const cur = list.find((b) => b.getAttribute("aria-selected") === "true" || b.getAttribute("aria-pressed") === "true") || list[0];
      if (cur) cur.focus();
      return;
    }
    const list = items(), i = list.indexOf(e.target);
    if (i < 0) return;
    const grid = menu.matches("[data-palette-menu]");
    let next = null;
    if (e.key === "Home") next = list[0];
    else if (e.key === "End") next = list[list.length - 1];
    else if (e.key === "ArrowLeft" || e.key === "ArrowRight") { if (!grid) return; next = list[i + (e.key === "ArrowRight" ? 1 : -1)]; }
    else {
      const at = e.target.getBoundingClientRect(), down = e.key === "ArrowDown";
      const rows = list.map((b) => [b, b.getBoundingClientRect()]).filter(([, r]) => down ? r.top > at.top + 1 : r.top < at.top - 1);
      if (rows.length) {
        const top = down ? Math.min(...rows.map(([, r]) => r.top)) : Math.max(...rows.map(([, r]) => r.top));
        const row = rows.filter(([, r]) => Math.abs(r.top - top) < 1);
        next = row.reduce((a, b) => (Math.abs(b[1].left - at.left) < Math.abs(a[1].left - at.left) ? b : a))[0];
      }
    }
    e.preventDefault();
    if (next) { next.focus(); next.scrollIntoView({ block: "nearest" }); }
  });
  // Opened, a long list shows its current choice.
  document.addEventListener("toggle", (e) => {
    const d = e.target;
    if (!(d.matches && d.matches("details[data-select-keys]") && d.open)) return;
    const box = $(".popover", d), cur = $("[aria-selected=true], [aria-pressed=true]", d);
    if (box && cur && box.scrollHeight > box.clientHeight) box.scrollTop = cur.offsetTop - (box.clientHeight - cur.offsetHeight) / 2;
  }, true);
  // A choice taken from the keyboard leaves the focus on the drop-down's button.
  document.addEventListener("click", (e) => {
    if (e.detail !== 0) return;
    const item = e.target.closest && e.target.closest("details[data-select-keys] .popover button");
    if (item) { const s = $("summary", item.closest("details[data-select-keys]")); if (s) s.focus(); }
  });

  /* ---------------------------------------------------------------- htmx glue */
  document.addEventListener("htmx:load", (e) => { openDialogs(e.target); syncSelection(document); });
  document.addEventListener("DOMContentLoaded", () => { openDialogs(document); syncSelection(document); });

  window.deskworld = { listbox, selectRow, syncSelection, removeContextMenu, typing, visible, selectMenu, setSelectMenu, setPaletteMenu,
                       escHtml };
})();
