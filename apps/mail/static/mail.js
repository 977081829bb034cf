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
})();
