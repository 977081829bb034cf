/* The spreadsheet's tab bar: the tab menu (rename, delete), double-click to rename, and the
   rename dialog. Loaded after sheets.js, whose menus it opens (window.sheetApp). */
(function () {
  "use strict";
  if (!window.sheetApp) return;
  const { editable, base, openMenu, closeMenus } = window.sheetApp;
  const $ = (s, r) => (r || document).querySelector(s);

  document.addEventListener("click", (e) => {
    const btn = e.target.closest("[data-tab-menu]");
    if (btn) {
      e.preventDefault(); e.stopPropagation();
      const r = btn.getBoundingClientRect();
      const menu = $("#tab-menu");
      openMenu(menu, r.left, r.top - 90);
      return;
    }
    const item = e.target.closest("[data-tab-act]");
    if (!item) return;
    closeMenus();
    const tab = $(`.stab[aria-selected="true"]`);
    if (item.dataset.tabAct === "rename") renameDialog(tab);
    else if (item.dataset.tabAct === "delete") {
      htmx.ajax("POST", `${base}/tabs/${tab.dataset.tabId}/delete`, { target: "#toast-region", swap: "innerHTML" });
    }
  });
  document.addEventListener("click", (e) => {
    const tab = e.target.closest(".stab");
    if (tab && tab.getAttribute("aria-selected") === "true") e.preventDefault();   // already here
  });
  document.addEventListener("dblclick", (e) => {
    const tab = e.target.closest(".stab");
    if (tab && editable) { e.preventDefault(); renameDialog(tab); }
  });
  function renameDialog(tab) {
    const d = document.createElement("dialog");
    d.className = "modal"; d.setAttribute("data-modal", ""); d.setAttribute("aria-labelledby", "rename-tab-title");
    d.innerHTML = '<form><h2 id="rename-tab-title">Rename sheet</h2>' +
      '<label class="input-label" for="tab-name">Sheet name</label><input class="input" id="tab-name" name="name" autocomplete="off">' +
      '<div class="actions"><button type="button" class="btn btn-text" data-close>Cancel</button><button type="submit" class="btn btn-primary">OK</button></div></form>';
    document.getElementById("modal").appendChild(d);
    const input = $("#tab-name", d);
    input.value = tab.dataset.tabName;
    d.showModal(); input.select();
    $("form", d).addEventListener("submit", (e) => {
      e.preventDefault();
      htmx.ajax("POST", `${base}/tabs/${tab.dataset.tabId}/rename`, { values: { name: input.value }, target: "#toast-region", swap: "innerHTML" });
      d.close(); d.remove();
    });
  }

})();
