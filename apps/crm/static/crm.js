/* CRM page behaviour: lookups, record tabs, the stage path, the activity composer, the convert
   dialog, auto-submitting filter bars and drag and drop on the pipeline board. No timers of its own. */
(function () {
  "use strict";
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));

  /* ---------------------------------------------------------------- lookups */
  function pick(li) {
    const box = li.closest("[data-lookup]");
    $("[data-lk-value]", box).value = li.dataset.id;
    const input = $(".lk-input", box);
    input.value = li.dataset.label;
    const ic = $(".obj-icon, .avatar", li);
    li.parentElement.innerHTML = "";
    input.setAttribute("aria-expanded", "false");
    box.dispatchEvent(new CustomEvent("crm:picked", { bubbles: true,
      detail: { id: li.dataset.id, label: li.dataset.label, icon: ic ? ic.outerHTML : "" } }));
  }
  document.addEventListener("mousedown", (e) => {
    const li = e.target.closest(".lk-list li[data-id]");
    if (li) { e.preventDefault(); pick(li); }
  });
  document.addEventListener("input", (e) => {
    if (e.target.matches(".lk-input")) {
      const v = $("[data-lk-value]", e.target.closest("[data-lookup]"));
      if (v) v.value = "";
    }
  });
  document.addEventListener("keydown", (e) => {
    if (!e.target.matches || !e.target.matches(".lk-input")) return;
    const list = $(".lk-list", e.target.closest("[data-lookup]"));
    deskworld.listbox(e, list, { pick, first: true, close: () => { list.innerHTML = ""; } });
  });
  document.addEventListener("focusout", (e) => {
    if (!e.target.matches || !e.target.matches(".lk-input")) return;
    const list = $(".lk-list", e.target.closest("[data-lookup]"));
    if (list && !list.contains(e.relatedTarget)) list.innerHTML = "";
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target.matches && e.detail.target.matches(".lk-list")) {
      const input = $(".lk-input", e.detail.target.closest("[data-lookup]"));
      if (document.activeElement !== input) { e.detail.target.innerHTML = ""; return; }
      input.setAttribute("aria-expanded", e.detail.target.children.length ? "true" : "false");
    }
  });

  /* ---------------------------------------------------------------- record tabs, composer tabs */
  document.addEventListener("click", (e) => {
    const tab = e.target.closest(".tabs-bar [role=tab]");
    if (tab) {
      $$("[role=tab]", tab.parentElement).forEach((t) => {
        const on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        const panel = document.getElementById(t.getAttribute("aria-controls"));
        if (panel) panel.hidden = !on;
      });
      return;
    }
    const ct = e.target.closest("[data-composer]");
    if (ct) {
      const root = ct.closest(".activity");
      $$("[data-composer]", root).forEach((t) => t.setAttribute("aria-selected", t === ct ? "true" : "false"));
      $$("form.composer", root).forEach((f) => { f.hidden = f.id !== "composer-" + ct.dataset.composer; });
      const first = $("#composer-" + ct.dataset.composer + " input[name=subject]", root);
      if (first) first.focus();
    }
  });

  /* ---------------------------------------------------------------- stage path */
  function selectChev(chev) {
    const path = chev.closest("[data-path]");
    const btn = $("[data-path-btn]", path);
    const current = path.dataset.current;
    $$(".chev", path).forEach((c) => { c.classList.toggle("selected", c === chev && c.dataset.stage !== current); c.setAttribute("aria-selected", c === chev ? "true" : "false"); });
    let label = btn.dataset.defaultLabel;
    let target = btn.dataset.next;
    if (chev.dataset.stage !== current) {
      if (chev.hasAttribute("data-closed")) { label = "Select Closed Stage"; target = "Closed"; }
      else { label = "Mark as Current Stage"; target = chev.dataset.stage; }
    }
    btn.dataset.target = target;
    $("span", btn).textContent = label;
  }
  document.addEventListener("click", (e) => {
    const chev = e.target.closest("[data-path] .chev");
    if (chev) { selectChev(chev); return; }
    const btn = e.target.closest("[data-path-btn]");
    if (btn) {
      const path = btn.closest("[data-path]");
      const target = btn.dataset.target || btn.dataset.next;
      if (/^Closed/.test(target)) { $("[data-path-close]", path).click(); return; }
      $("[data-path-stage]", path).value = target;
      btn.closest("form").requestSubmit();
    }
  });
  document.addEventListener("keydown", (e) => {
    const chev = e.target.closest && e.target.closest("[data-path] .chev");
    if (chev && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); selectChev(chev); }
  });

  /* ---------------------------------------------------------------- close dialog: loss reason shows for Closed Lost */
  document.addEventListener("change", (e) => {
    const t = e.target;
    if (t.matches("[data-close-form] input[name=stage]")) {
      const lr = $("[data-loss-reason]", t.closest("form"));
      if (lr) lr.hidden = t.value !== "Closed Lost";
    }
    if (t.matches("form[data-autosubmit] input[type=hidden]")) t.closest("form").submit();
  });

  /* ---------------------------------------------------------------- convert dialog */
  document.addEventListener("crm:picked", (e) => {
    const dlg = e.target.closest("dialog.convert");
    if (!dlg) return;
    const name = $("input[name=account__text]", dlg) === $(".lk-input", e.target) ? "account_mode" : ($("input[name=contact__text]", dlg) === $(".lk-input", e.target) ? "contact_mode" : null);
    if (name) { const r = $(`input[name=${name}][value=existing]`, dlg); if (r) r.checked = true; }
  });
  document.addEventListener("click", (e) => {
    const b = e.target.closest("[data-pick-account]");
    if (!b) return;
    const dlg = b.closest("dialog");
    const box = $("input[name=account__text]", dlg).closest("[data-lookup]");
    $("[data-lk-value]", box).value = b.dataset.pickAccount;
    $(".lk-input", box).value = b.dataset.label;
    $("input[name=account_mode][value=existing]", dlg).checked = true;
  });
  document.addEventListener("input", (e) => {
    const dlg = e.target.closest && e.target.closest("dialog.convert");
    if (!dlg) return;
    if (e.target.name === "account_name") $("input[name=account_mode][value=new]", dlg).checked = true;
    if (e.target.name === "account__text") $("input[name=account_mode][value=existing]", dlg).checked = true;
    if (e.target.name === "contact__text") $("input[name=contact_mode][value=existing]", dlg).checked = true;
  });

  /* ---------------------------------------------------------------- inline edit: focus the field whose pencil was clicked */
  document.addEventListener("htmx:afterSwap", () => {
    const form = $("form[data-inline-form][data-focus]");
    if (!form || form.dataset.focused) return;
    form.dataset.focused = "1";
    const f = form.dataset.focus;
    const el = f && ($(`[data-field="${f}"] input:not([type=hidden]), [data-field="${f}"] textarea, [data-field="${f}"] summary`, form));
    if (el) el.focus();
  });
  document.addEventListener("dblclick", (e) => {
    const fld = e.target.closest(".rec-details .fld.ro");
    if (fld) { const p = $(".pencil", fld); if (p) p.click(); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !document.querySelector("dialog[open]")) {
      const form = $("form[data-inline-form]");
      if (form) { const c = $(".edit-footer .sbtn:not(.brand)", form); if (c) c.click(); }
    }
  });

  /* ---------------------------------------------------------------- pipeline: drag cards between stage columns */
  let drag = null;
  document.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const card = e.target.closest(".board .bcard");
    if (!card) return;
    drag = { card, x0: e.clientX, y0: e.clientY, moved: false, ghost: null, over: null };
  });
  function colAt(x, y) {
    return $$(".board .bcol").find((c) => { const r = c.getBoundingClientRect(); return x >= r.left && x < r.right && y >= r.top && y < r.bottom; });
  }
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      const r = drag.card.getBoundingClientRect();
      drag.dx = drag.x0 - r.left; drag.dy = drag.y0 - r.top;
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.classList.add("ghost");
      drag.ghost.style.width = r.width + "px";
      document.body.appendChild(drag.ghost);
      drag.card.classList.add("dragging");
    }
    drag.ghost.style.left = (e.clientX - drag.dx) + "px";
    drag.ghost.style.top = (e.clientY - drag.dy) + "px";
    const col = colAt(e.clientX, e.clientY);
    if (col !== drag.over) {
      if (drag.over) drag.over.classList.remove("drop-target");
      drag.over = col && col.dataset.stage !== drag.card.dataset.stage ? col : null;
      if (drag.over) drag.over.classList.add("drop-target");
    }
    e.preventDefault();
  });
  function endDrag(e, cancel) {
    if (!drag) return;
    const d = drag; drag = null;
    if (d.ghost) d.ghost.remove();
    d.card.classList.remove("dragging");
    if (d.over) d.over.classList.remove("drop-target");
    if (!d.moved) return;
    const suppress = (ev) => { ev.preventDefault(); ev.stopPropagation(); document.removeEventListener("click", suppress, true); };
    document.addEventListener("click", suppress, true);
    if (cancel || !d.over) return;
    const board = d.card.closest(".board");
    htmx.ajax("POST", board.dataset.moveUrl, {
      target: "#crm-board", swap: "outerHTML",
      values: { opportunity: d.card.dataset.opp, stage: d.over.dataset.stage, scope: board.dataset.scope, period: board.dataset.period },
    });
  }
  document.addEventListener("pointerup", (e) => endDrag(e, false));
  document.addEventListener("pointercancel", (e) => endDrag(e, true));
  document.addEventListener("dragstart", (e) => { if (e.target.closest && e.target.closest(".bcard")) e.preventDefault(); });
})();

/* ---------------------------------------------------------------- report builder: a choice reloads the
   builder with it; Save & Run opens the in-page save dialog */
(function () {
  "use strict";
  document.addEventListener("change", (e) => {
    const t = e.target;
    if (t.matches && t.matches("#rb .rb-auto input[type=hidden]") && t.value !== "") t.form.submit();
    else if (t.matches && t.matches("#rb .rb-auto input[name=sort_dir]")) t.form.submit();
  });
  document.addEventListener("click", (e) => {
    const open = e.target.closest("[data-open-save]");
    if (open) {
      const w = document.querySelector("[data-save-wrap]");
      w.hidden = false;
      document.getElementById("rb-name").focus();
      return;
    }
    if (e.target.closest("[data-close-save]")) document.querySelector("[data-save-wrap]").hidden = true;
  });
})();

/* ---------------------------------------------------------------- global header: the search scope and the App Launcher's filter */
(function () {
  "use strict";
  document.addEventListener("change", (e) => {
    const t = e.target;
    if (!(t.matches && t.matches("form[data-sf-search] input[name=scope]"))) return;
    const q = t.form.querySelector("input[name=q]");
    const label = t.closest("[data-select-menu]").querySelector("[data-select-label]").textContent.trim();
    q.placeholder = t.value === "all" ? "Search..." : "Search " + label + "...";
    q.focus();
    if (q.value.trim()) htmx.trigger(q, "focus");
  });
  document.addEventListener("toggle", (e) => {
    if (e.target.matches && e.target.matches(".sf-scope details[open]")) { const s = document.getElementById("suggest"); if (s) s.innerHTML = ""; }
  }, true);
  document.addEventListener("input", (e) => {
    if (!(e.target.matches && e.target.matches("[data-launcher-filter]"))) return;
    const v = e.target.value.trim().toLowerCase();
    e.target.closest(".launcher").querySelectorAll("[data-launcher-item]").forEach((a) => {
      a.hidden = !!v && !a.dataset.launcherItem.includes(v) && !a.textContent.toLowerCase().includes(v);
    });
  });
})();

/* ---------------------------------------------------------------- lookups as pills: a chosen record shows as a
   pill (its icon and name, ✕ to clear) over the search box; typing in the box or ✕ clears it */
(function () {
  "use strict";
  function pill(box) { return box.querySelector("[data-lk-pill]"); }
  document.addEventListener("crm:picked", (e) => {
    const box = e.target.closest("[data-lookup]");
    const p = box && pill(box);
    if (!p) return;
    p.querySelector("[data-lk-pill-icon]").innerHTML = e.detail.icon || "";
    p.querySelector("[data-lk-pill-label]").textContent = e.detail.label;
    p.hidden = false;
  });
  document.addEventListener("input", (e) => {
    if (!(e.target.matches && e.target.matches(".lk-input"))) return;
    const p = pill(e.target.closest("[data-lookup]"));
    if (p) p.hidden = true;
  });
  document.addEventListener("click", (e) => {
    const p = e.target.closest("[data-lk-pill]");
    if (!p) return;
    const box = p.closest("[data-lookup]");
    const input = box.querySelector(".lk-input");
    if (e.target.closest("[data-lk-clear]")) {
      box.querySelector("[data-lk-value]").value = "";
      input.value = "";
    }
    p.hidden = true;
    input.focus();
    if (input.value) input.select();
  });
})();

/* a menu closes once one of its items is chosen (the dialog it opens is drawn without it) */
document.addEventListener("click", (e) => {
  const item = e.target.closest && e.target.closest("details.menu-wrap [role=menuitem]");
  if (item) item.closest("details.menu-wrap").removeAttribute("open");
});

/* ---------------------------------------------------------------- list views: inline edit of a cell (double-click
   it or its pencil); edited cells stay open, marked, until the bar's Save or Cancel */
(function () {
  "use strict";
  document.addEventListener("dblclick", (e) => {
    const td = e.target.closest && e.target.closest("#crm-list td.ie-cell:not(.editing)");
    if (!td) return;
    const pencil = td.querySelector(".ie-pencil");
    if (pencil) { e.preventDefault(); pencil.click(); }
  });
  document.addEventListener("htmx:afterSettle", (e) => {
    const td = e.detail.target;
    if (!(td && td.matches && td.matches("#crm-list td.ie-cell")) || !td.querySelector("[data-ie-edit]")) return;
    td.classList.add("editing");
    const bar = document.getElementById("ie-bar");
    if (bar) bar.hidden = false;
    const el = td.querySelector(".ie-edit input:not([type=hidden]), .ie-edit summary");
    if (el) { el.focus(); if (el.select) el.select(); }
    td.dataset.ready = "1";
  });
  document.addEventListener("submit", (e) => {
    if (!(e.target.matches && e.target.matches("form[data-ie-edit]"))) return;
    e.preventDefault();
    const save = document.querySelector("[data-ie-save]");
    if (save) save.click();
  });

})();

/* Narrow window: the navigation bar's More. */
(function () {
  "use strict";
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  /* ---------------------------------------------------------------- narrow window: the nav bar's More
     Below 1024 CSS px the navigation items that don't fit the bar are hidden and listed under "More"
     (Lightning's navigation bar does the same); at 1024 and wider nothing changes. */
  const NARROW = window.matchMedia("(max-width: 1023px)");
  function fitNav() {
    const nav = $(".crm-nav"), more = nav && $(".crm-more", nav);
    if (!more) return;
    const tabs = $$(":scope > a.crm-tab", nav), items = $$(".popover > a", more);
    tabs.forEach((t) => { t.hidden = false; });
    items.forEach((i) => { i.hidden = true; });
    more.hidden = true;
    if (!NARROW.matches || nav.scrollWidth <= nav.clientWidth) return;
    more.hidden = false;
    const limit = nav.getBoundingClientRect().right - parseFloat(getComputedStyle(nav).paddingRight);
    for (let k = tabs.length - 1; k >= 0; k--) {
      if (more.getBoundingClientRect().right <= limit) break;
      tabs[k].hidden = true;
      items[k].hidden = false;
    }
  }
  document.addEventListener("DOMContentLoaded", fitNav);
  NARROW.addEventListener("change", fitNav);
  window.addEventListener("resize", fitNav);
  document.addEventListener("htmx:load", fitNav);
})();
