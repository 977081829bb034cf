/* Service Desk page behaviour: live priority, Assigned to limited to the group's members, On hold
   reason shown for On Hold, form tabs, journal tabs, reference-field pickers, the condition builder,
   the navigator filter and the knowledge panel. Nothing reads the clock. */
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

  function syncAssignees(form) {
    const grp = $("input[name=assignment_group]", form);
    const menu = $(".tk-assignee", form);
    if (!grp || !menu) return;
    const gid = grp.value;
    let current = $("input[type=hidden]", menu).value;
    $$("[role=option]", menu).forEach((o) => {
      const groups = (o.dataset.groups || "").split(" ").filter(Boolean);
      o.hidden = o.dataset.value !== "" && !!gid && !groups.includes(gid);
      if (o.dataset.value !== "" && !gid) o.hidden = true;
    });
    const cur = $$("[role=option]", menu).find((o) => o.dataset.value === current);
    if (current && cur && cur.hidden) setChoice(menu, "");
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
      if (e.target.name === "assignment_group") syncAssignees(form);
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
      $("input[name=cv]", copy).value = "";
      rows.appendChild(copy);
      return;
    }
    const rm = e.target.closest("[data-cond-remove]");
    if (rm) {
      const rows = rm.closest("[data-cond-rows]");
      if ($$("[data-cond]", rows).length > 1) rm.closest("[data-cond]").remove();
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

  function init(root) {
    $$("[data-record-form]", root).forEach((f) => { syncAssignees(f); syncForm(f); });
    if (root.matches && root.matches("[data-record-form]")) { syncAssignees(root); syncForm(root); }
  }
  document.addEventListener("htmx:load", (e) => init(e.target));
  document.addEventListener("DOMContentLoaded", () => init(document));
})();
