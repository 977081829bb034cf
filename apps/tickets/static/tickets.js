/* Service Desk page behaviour: live priority, On hold reason shown for On Hold, form tabs, journal tabs,
   reference fields (suggestions and the lookup list; a new group clears an Assigned to outside it),
   the condition builder, the header's All and History menus, the navigator filter, the list's context
   menus and Personalize list columns, and the knowledge panel. Nothing reads the clock. */
(function () {
  "use strict";
  const $ = (s, r) => (r || document).querySelector(s);
  const $$ = (s, r) => Array.from((r || document).querySelectorAll(s));
  const LABELS = { 1: "1 - Critical", 2: "2 - High", 3: "3 - Moderate", 4: "4 - Low" };

  function priority(impact, urgency) {
    if (impact === "Low" || urgency === "Low") return 4;
    if (impact === "High" && urgency === "High") return 1;
    if (impact === "Medium" && urgency === "Medium") return 3;
    return 2;
  }

  function setChoice(menu, value) {
    const opt = $$("[role=option]", menu).find((o) => o.dataset.value === value);
    if (!opt) return;
    $$("[role=option]", menu).forEach((o) => o.setAttribute("aria-selected", o === opt ? "true" : "false"));
    $("[data-select-label]", menu).textContent = opt.textContent.trim();
    const summary = $("summary", menu);
    summary.setAttribute("aria-label", summary.getAttribute("title") + ": " + opt.textContent.trim());
    $("input[type=hidden]", menu).value = value;
  }

  function syncForm(form) {
    const imp = $("input[name=impact]", form), urg = $("input[name=urgency]", form);
    const out = $("[data-priority]", form);
    if (imp && urg && out) out.textContent = LABELS[priority(imp.value, urg.value)];
    const st = $("input[name=state]", form);
    if (st) $$("[data-when-state]", form).forEach((el) => { el.hidden = el.dataset.whenState !== st.value; });
  }

  document.addEventListener("change", (e) => {
    const form = e.target.closest && e.target.closest("[data-record-form]");
    if (form) {
      form.setAttribute("data-dirty", "");
      if (e.target.name === "state" && e.target.value === "Resolved") showTab(form, "resolution");
      syncForm(form);
    }
  });
  document.addEventListener("input", (e) => {
    const form = e.target.closest && e.target.closest("[data-record-form]");
    if (form) form.setAttribute("data-dirty", "");
  });

  function showTab(form, name) {
    $$("[data-tab]", form).forEach((t) => t.setAttribute("aria-selected", t.dataset.tab === name ? "true" : "false"));
    $$("[data-panel]", form).forEach((p) => { p.hidden = p.dataset.panel !== name; });
  }

  document.addEventListener("click", (e) => {
    const tab = e.target.closest("[data-tab]");
    if (tab) { showTab(tab.closest("form"), tab.dataset.tab); return; }
    const jt = e.target.closest("[data-jtab]");
    if (jt) {
      const box = jt.closest("[data-journal]");
      $$("[data-jtab]", box).forEach((t) => t.setAttribute("aria-selected", t === jt ? "true" : "false"));
      $$("[data-jpane]", box).forEach((p) => { p.hidden = p.dataset.jpane !== jt.dataset.jtab; });
      const ta = $(`[data-jpane='${jt.dataset.jtab}'] textarea`, box); if (ta) ta.focus();
      return;
    }
    const resolve = e.target.closest("[data-resolve]");
    if (resolve) {
      const form = resolve.closest("form");
      const st = $("input[name=state]", form);
      setChoice(st.closest("[data-select-menu]"), "Resolved");
      form.setAttribute("data-dirty", "");
      syncForm(form);
      showTab(form, "resolution");
      const code = $("#f-resolution_code", form); if (code) code.focus();
      return;
    }
    if (e.target.closest("[data-kb-close]")) { const p = $("#tk-kb-panel"); if (p) p.innerHTML = ""; return; }
    const add = e.target.closest("[data-cond-add]");
    if (add) {
      const rows = $("[data-cond-rows]", add.closest("form"));
      const first = $("[data-cond]", rows);
      const copy = first.cloneNode(true);
      const join = add.dataset.join || "and";
      $("input[name=cv]", copy).value = "";
      $("input[name=cj]", copy).value = join;
      $("[data-cond-join]", copy).textContent = join === "nq" ? "" : join;
      copy.classList.toggle("is-or", join === "or");
      if (join === "nq") {
        const sep = document.createElement("div");
        sep.className = "tk-cond-nq"; sep.setAttribute("data-cond-nq", "");
        sep.innerHTML = '— or — <span class="muted">(new criteria)</span>';
        rows.appendChild(sep);
      }
      rows.appendChild(copy);
      return;
    }
    const rm = e.target.closest("[data-cond-remove]");
    if (rm) {
      const rows = rm.closest("[data-cond-rows]");
      if ($$("[data-cond]", rows).length > 1) {
        const row = rm.closest("[data-cond]");
        const prev = row.previousElementSibling;
        if (prev && prev.matches("[data-cond-nq]")) prev.remove();
        row.remove();
        const firstRow = $("[data-cond]", rows);
        if (firstRow) { $("input[name=cj]", firstRow).value = "and"; $("[data-cond-join]", firstRow).textContent = ""; }
        const lead = rows.firstElementChild; if (lead && lead.matches("[data-cond-nq]")) lead.remove();
      }
      else { $("input[name=cv]", rows).value = ""; setChoice($("[data-select-menu]", rows), $("[data-select-menu] [role=option]", rows).dataset.value); }
      return;
    }
    const tog = e.target.closest("[data-toggle]");
    if (tog) {
      const el = $(tog.dataset.toggle);
      if (el) { el.hidden = !el.hidden; tog.setAttribute("aria-expanded", el.hidden ? "false" : "true"); }
    }
  });

  /* Reference fields: pick a suggestion with the mouse or arrows + Enter, or a row of the lookup list. */
  function setRef(box, id, name, members) {
    const input = $("input[type=text]", box);
    if (window.htmx) htmx.trigger(input, "htmx:abort");
    input.value = name;
    $("input[name$='_ref']", box).value = id;
    $("input[name$='_ref_name']", box).value = name;
    $(".tk-ref-list", box).innerHTML = "";
    input.setAttribute("aria-expanded", "false");
    input.classList.remove("invalid");
    const form = box.closest("form");
    if (form && form.matches("[data-record-form]")) form.setAttribute("data-dirty", "");
    if (!form) return;
    const field = input.name;
    // ServiceNow clears Assigned to when the new group doesn't hold them, and a CI of another service.
    const clear = (name) => {
      const other = $(`[data-ref] input[name='${name}']`, form);
      if (!other) return;
      const ob = other.closest("[data-ref]");
      other.value = ""; $("input[name$='_ref']", ob).value = ""; $("input[name$='_ref_name']", ob).value = "";
    };
    if (field === "assignment_group" && members !== undefined) {
      const cur = $("input[name='assigned_to_ref']", form);
      if (cur && cur.value && !members.split(" ").includes(cur.value)) clear("assigned_to");
    }
    if (field === "business_service") clear("cmdb_ci");
  }
  function pick(li) { setRef(li.closest("[data-ref]"), li.dataset.id, li.dataset.name, li.dataset.members); }
  document.addEventListener("click", (e) => {
    const row = e.target.closest("[data-lookup-pick]");
    const dlg = e.target.closest("[data-lookup]");
    if (row && dlg) {
      const input = $(`[data-ref] input[type=text][name='${dlg.dataset.field}']`);
      if (input) { setRef(input.closest("[data-ref]"), row.dataset.id, row.dataset.name, row.dataset.members); input.focus(); }
      dlg.remove();
      return;
    }
    if (e.target.closest("[data-lookup-close]") || (dlg && e.target === dlg)) { dlg.remove(); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { const d = $("[data-lookup]"); if (d) { d.remove(); e.preventDefault(); } }
  });
  // a late answer to a suggestion request must not reopen the list over a value just picked
  document.addEventListener("htmx:beforeSwap", (e) => {
    const list = e.detail.target;
    if (!list || !list.matches || !list.matches(".tk-ref-list")) return;
    const box = list.closest("[data-ref]"), input = $("input[type=text]", box);
    if ($("input[name$='_ref']", box).value && input.value === $("input[name$='_ref_name']", box).value) {
      e.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    const list = e.detail.target;
    if (list && list.matches && list.matches(".tk-ref-list")) {
      const input = $("input[type=text]", list.closest("[data-ref]"));
      if (input) input.setAttribute("aria-expanded", list.children.length ? "true" : "false");
    }
  });
  document.addEventListener("mousedown", (e) => {
    const li = e.target.closest(".tk-ref-list li[data-id]");
    if (li) { e.preventDefault(); pick(li); }
  });
  document.addEventListener("keydown", (e) => {
    const input = e.target;
    if (!input.closest || !input.closest("[data-ref]") || input.type !== "text") return;
    const list = $(".tk-ref-list", input.closest("[data-ref]"));
    deskworld.listbox(e, list, { pick, close: () => { list.innerHTML = ""; } });
  });
  document.addEventListener("focusout", (e) => {
    const box = e.target.closest && e.target.closest("[data-ref]");
    if (box) setTimeout(() => { if (!box.contains(document.activeElement)) { const l = $(".tk-ref-list", box); if (l) l.innerHTML = ""; } }, 150);
  });

  /* The header's All menu pins / unpins the application navigator; History lists the records opened
     in this browser session (newest first), as ServiceNow's History menu does. */
  document.addEventListener("click", (e) => {
    const all = e.target.closest("[data-all-menu]");
    if (!all) return;
    const nav = document.getElementById("tk-sidebar");
    const open = nav.hidden;
    nav.hidden = !open;
    all.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) { const f = $("[data-nav-filter]", nav); if (f) f.focus(); }
  });
  const HKEY = "tk-history";
  function history() { try { return JSON.parse(sessionStorage.getItem(HKEY) || "[]"); } catch (err) { return []; } }
  function noteVisit() {
    const form = $("[data-record-form]");
    const num = document.querySelector(".tk-form-num");
    if (!form || !num || num.textContent.trim() === "New record") return;
    const title = (($("#f-short_description") || {}).value || "").trim();
    const item = { n: num.textContent.trim(), t: title, u: location.pathname };
    const h = [item].concat(history().filter((x) => x.n !== item.n)).slice(0, 10);
    try { sessionStorage.setItem(HKEY, JSON.stringify(h)); } catch (err) { /* storage full or blocked */ }
  }
  function drawHistory() {
    const box = $("[data-history-items]");
    if (!box) return;
    const h = history();
    if (!h.length) return;
    box.innerHTML = "";
    h.forEach((x) => {
      const a = document.createElement("a");
      a.setAttribute("role", "menuitem"); a.href = x.u;
      a.textContent = x.n + (x.t ? " - " + x.t : "");
      box.appendChild(a);
    });
  }
  document.addEventListener("toggle", (e) => { if (e.target.matches && e.target.matches("[data-history-menu]") && e.target.open) drawHistory(); }, true);
  document.addEventListener("DOMContentLoaded", noteVisit);

  /* Navigator filter (ServiceNow's "Filter navigator"). */
  document.addEventListener("input", (e) => {
    if (!e.target.matches("[data-nav-filter]")) return;
    const q = e.target.value.trim().toLowerCase();
    $$("[data-nav-app]").forEach((app) => {
      const head = $(".tk-nav-head", app).textContent.toLowerCase();
      let any = false;
      $$("[data-nav-item]", app).forEach((li) => {
        const show = !q || head.includes(q) || li.textContent.toLowerCase().includes(q);
        li.hidden = !show; any = any || show;
      });
      app.hidden = !any;
    });
  });

  /* After a journal post, clear what was posted; after an attach, mark the hit. */
  document.addEventListener("htmx:afterRequest", (e) => {
    const el = e.detail.elt;
    if (!e.detail.successful || !el || !el.matches) return;
    if (el.matches("[data-post-journal]")) {
      const pane = el.closest("[data-jpane]");
      const ta = pane && $("textarea", pane); if (ta) ta.value = "";
    }
    if (el.matches("[data-kb-attach]")) {
      const span = document.createElement("span");
      span.className = "tk-attached"; span.textContent = "✓ Attached";
      el.replaceWith(span);
    }
  });

  /* Lists wider than their container: shadows at the overflowing edge, besides the scrollbar. */
  function syncScroll(wrap) {
    const box = wrap.closest("[data-hscroll-box]") || wrap;
    const max = wrap.scrollWidth - wrap.clientWidth;
    box.classList.toggle("over-left", wrap.scrollLeft > 1);
    box.classList.toggle("over-right", wrap.scrollLeft < max - 1);
  }
  document.addEventListener("scroll", (e) => { if (e.target.matches && e.target.matches("[data-hscroll]")) syncScroll(e.target); }, true);
  window.addEventListener("resize", () => $$("[data-hscroll]").forEach(syncScroll));

  /* List context menus: a column header's (its ☰ button or a right-click) — sort, group by, personalize —
     and a cell's (right-click) — Show Matching / Filter Out. */
  function closeMenus() { $$(".tk-ctx").forEach((m) => { m.hidden = true; }); }
  function openMenu(menu, x, y) {
    closeMenus();
    menu.hidden = false;
    const r = menu.getBoundingClientRect();
    menu.style.left = Math.min(x, window.innerWidth - r.width - 8) + "px";
    menu.style.top = Math.min(y, window.innerHeight - r.height - 8) + "px";
    const first = $("[role=menuitem]", menu); if (first) first.focus();
  }
  function cellUrl(td, op) {
    const list = td.closest("[data-list-url]");
    const u = new URL(list.dataset.listUrl, location.href);
    u.searchParams.append("f", td.dataset.cellCol + ":" + op + ":" + td.dataset.cellVal);
    u.searchParams.delete("page");
    return u.pathname + u.search;
  }
  document.addEventListener("contextmenu", (e) => {
    const th = e.target.closest("th[data-col-menu]");
    const td = !th && e.target.closest("td[data-cell-col]");
    if (th) { e.preventDefault(); openMenu($(".tk-ctx", th), e.clientX, e.clientY); return; }
    if (td) {
      e.preventDefault();
      const menu = $("[data-cell-menu]", td.closest("[data-list-url]"));
      $$("[data-cell-action]", menu).forEach((a) => { a.href = cellUrl(td, a.dataset.cellAction); });
      openMenu(menu, e.clientX, e.clientY);
    }
  });
  document.addEventListener("click", (e) => {
    const btn = e.target.closest("[data-col-menu-btn]");
    if (btn) {
      const r = btn.getBoundingClientRect();
      openMenu($(".tk-ctx", btn.closest("th")), r.left, r.bottom + 2);
      return;
    }
    const pers = e.target.closest("[data-personalize]");
    if (pers) {
      closeMenus();
      const d = $("[data-personalize-dialog]", pers.closest("[data-list-url]"));
      d.hidden = false;
      return;
    }
    if (e.target.closest("[data-personalize-close]")) { e.target.closest("[data-personalize-dialog]").hidden = true; return; }
    const li = e.target.closest(".tk-slush-list li");
    if (li) {
      const dlg = li.closest("[data-personalize-dialog]");
      const sel = $("[data-slush-selected]", dlg), avail = $("[data-slush-available]", dlg);
      const move = (to) => { $("input[name=col]", li).disabled = to === avail; to.appendChild(li); };
      if (e.target.closest("[data-slush-add]")) move(sel);
      else if (e.target.closest("[data-slush-remove]")) move(avail);
      else if (e.target.closest("[data-slush-up]") && li.previousElementSibling) li.parentNode.insertBefore(li, li.previousElementSibling);
      else if (e.target.closest("[data-slush-down]") && li.nextElementSibling) li.parentNode.insertBefore(li.nextElementSibling, li);
      return;
    }
    if (!e.target.closest(".tk-ctx")) closeMenus();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenus(); });

  function init(root) {
    $$("[data-hscroll]", root.querySelectorAll ? root : document).forEach(syncScroll);
    $$("[data-record-form]", root).forEach(syncForm);
    if (root.matches && root.matches("[data-record-form]")) syncForm(root);
  }
  document.addEventListener("htmx:load", (e) => init(e.target));
  document.addEventListener("DOMContentLoaded", () => init(document));
})();
