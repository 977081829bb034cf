/* Mail page behaviour: the "Select" menu over the thread list (all, none, read, unread, starred,
   unstarred), the row buttons that follow the pointer, and stars. Selection checkboxes, the
   keyboard cursor and shortcuts, recipient chips and the compose shortcut are deskworld.js's
   (other apps share them). Nothing here reads the clock or runs on a timer of its own. */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const { syncSelection } = window.deskworld;

  /* ---------------------------------------------------------------- the "Select" menu */
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

  /* ---------------------------------------------------------------- the row buttons follow the pointer */
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

  /* ---------------------------------------------------------------- the compose window */
  // Header: Minimise folds the window to its title bar (a click on the bar opens it again);
  // Full screen turns it into a large window over a dimmed page, and back.
  document.addEventListener("click", (e) => {
    const win = e.target.closest("[data-compose-window]");
    if (!win) return;
    if (e.target.closest("[data-compose-min]")) {
      e.stopPropagation();
      win.classList.remove("full");
      const min = win.classList.toggle("minimised");
      e.target.closest("[data-compose-min]").setAttribute("aria-label", min ? "Maximise" : "Minimise");
      e.target.closest("[data-compose-min]").title = min ? "Maximise" : "Minimise";
      return;
    }
    if (e.target.closest("[data-compose-full]")) {
      const b = e.target.closest("[data-compose-full]");
      win.classList.remove("minimised");
      const full = win.classList.toggle("full");
      b.setAttribute("aria-label", full ? "Exit full screen" : "Full screen");
      b.title = full ? "Exit full screen" : "Full screen";
      return;
    }
    if (win.classList.contains("minimised") && e.target.closest("[data-compose-head]") && !e.target.closest("button")) {
      win.classList.remove("minimised");
    }
  });

  // A reply or forward opens with the caret above the quoted or forwarded message, as in Gmail.
  function caretTop(root) {
    $$("textarea[data-caret-top]", root).forEach((t) => { t.setSelectionRange(0, 0); t.scrollTop = 0; });
  }
  document.addEventListener("htmx:afterSettle", (e) => caretTop(e.detail.elt));
  document.addEventListener("DOMContentLoaded", () => caretTop(document));

  // Gmail highlights the first suggestion under a recipient box: Enter or Tab picks it.
  document.addEventListener("htmx:afterSwap", (e) => {
    const list = e.detail.target;
    if (!list || !list.matches || !list.matches(".cfield ul.listbox")) return;
    const opts = $$("[role=option]", list);
    if (opts.length && !opts.some((o) => o.getAttribute("aria-selected") === "true")) opts[0].setAttribute("aria-selected", "true");
  });

  /* ---------------------------------------------------------------- formatting (plain-text bodies) */
  function edit(t, start, end, text, selStart, selEnd) {
    t.focus();
    t.setSelectionRange(start, end);
    // execCommand keeps the browser's undo history; setRangeText where it isn't supported.
    if (!document.execCommand("insertText", false, text)) t.setRangeText(text, start, end, "end");
    t.setSelectionRange(selStart ?? start + text.length, selEnd ?? start + text.length);
    t.dispatchEvent(new Event("input", { bubbles: true }));
  }
  function selectedLines(t) {
    const v = t.value;
    const start = v.lastIndexOf("\n", t.selectionStart - 1) + 1;
    let end = v.indexOf("\n", t.selectionEnd > t.selectionStart && v[t.selectionEnd - 1] === "\n" ? t.selectionEnd - 1 : t.selectionEnd);
    if (end < 0) end = v.length;
    return { start, end, lines: v.slice(start, end).split("\n") };
  }
  const LIST = /^(\s*)(?:[•*-]|\d+\.)\s+/;
  function format(t, how) {
    if (how === "undo" || how === "redo") { t.focus(); document.execCommand(how); return; }
    const { start, end, lines } = selectedLines(t);
    let out;
    if (how === "bulleted") {
      const on = lines.every((l) => /^\s*•\s/.test(l));
      out = lines.map((l) => on ? l.replace(/^(\s*)•\s+/, "$1") : l.replace(LIST, "$1").replace(/^(\s*)/, "$1• "));
    } else if (how === "numbered") {
      const on = lines.every((l) => /^\s*\d+\.\s/.test(l));
      out = lines.map((l, i) => on ? l.replace(/^(\s*)\d+\.\s+/, "$1") : l.replace(LIST, "$1").replace(/^(\s*)/, `$1${i + 1}. `));
    } else if (how === "indent") {
      out = lines.map((l) => "    " + l);
    } else if (how === "outdent") {
      out = lines.map((l) => l.replace(/^ {1,4}|^\t/, ""));
    } else if (how === "clear") {
      out = lines.map((l) => l.replace(LIST, "").replace(/^\s+/, ""));
    } else return;
    const text = out.join("\n");
    edit(t, start, end, text, start, start + text.length);
  }
  document.addEventListener("click", (e) => {
    const tog = e.target.closest("[data-fmt-toggle]");
    if (tog) {
      const bar = document.getElementById(tog.getAttribute("aria-controls"));
      bar.hidden = !bar.hidden;
      tog.setAttribute("aria-pressed", bar.hidden ? "false" : "true");
      return;
    }
    const b = e.target.closest("[data-fmt]");
    if (!b) return;
    const form = b.closest("form");
    const t = $("textarea.cbody", form);
    if (b.dataset.fmt === "link") { openLink(form, t); return; }
    format(t, b.dataset.fmt);
  });
  // Insert link: "Text to display" and "Web address"; plain text carries it as "text (address)".
  function openLink(form, t) {
    const pop = $(".link-pop", form);
    pop.hidden = false;
    pop._range = [t.selectionStart, t.selectionEnd];
    $("[data-link-text]", pop).value = t.value.slice(t.selectionStart, t.selectionEnd);
    $("[data-link-url]", pop).value = "";
    $(($("[data-link-text]", pop).value ? "[data-link-url]" : "[data-link-text]"), pop).focus();
  }
  function closeLink(pop, ok) {
    const form = pop.closest("form");
    const t = $("textarea.cbody", form);
    if (ok) {
      const text = $("[data-link-text]", pop).value.trim();
      let url = $("[data-link-url]", pop).value.trim();
      if (url && !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith("mailto:")) url = (url.includes("@") ? "mailto:" : "https://") + url;
      if (url) {
        const [s0, s1] = pop._range || [t.selectionStart, t.selectionEnd];
        edit(t, s0, s1, text && text !== url ? `${text} (${url})` : url);
      }
    }
    pop.hidden = true;
    t.focus();
  }
  document.addEventListener("click", (e) => {
    const pop = e.target.closest(".link-pop");
    if (!pop) return;
    if (e.target.closest("[data-link-ok]")) closeLink(pop, true);
    else if (e.target.closest("[data-link-cancel]")) closeLink(pop, false);
  });
  document.addEventListener("keydown", (e) => {
    const pop = e.target.closest && e.target.closest(".link-pop");
    if (pop && (e.key === "Enter" || e.key === "Escape")) { e.preventDefault(); e.stopPropagation(); closeLink(pop, e.key === "Enter"); return; }
    const t = e.target;
    if (!t.matches || !t.matches("textarea.cbody") || !(e.ctrlKey || e.metaKey)) return;
    const k = e.key.toLowerCase();
    const how = k === "k" ? "link" : e.shiftKey && (k === "&" || k === "7") ? "numbered" : e.shiftKey && (k === "*" || k === "8") ? "bulleted"
      : k === "]" ? "indent" : k === "[" ? "outdent" : k === "\\" ? "clear" : null;
    if (!how) return;
    e.preventDefault();
    if (how === "link") openLink(t.closest("form"), t); else format(t, how);
  });

  // The From/To chips' menus: typing filters the people listed.
  document.addEventListener("input", (e) => {
    const f = e.target.closest && e.target.closest("[data-chip-filter]");
    if (!f) return;
    const v = f.value.trim().toLowerCase();
    $$("[data-filter-text]", f.closest(".popover")).forEach((a) => { a.hidden = !!v && !a.dataset.filterText.includes(v); });
  });

  // A menu item that opens a dialog (Snooze → Pick date & time) closes its menu behind it.
  document.addEventListener("click", (e) => {
    const item = e.target.closest("details.menu-wrap [role=menuitem][hx-get]");
    if (item) item.closest("details").removeAttribute("open");
  });
})();
