/* Chat page behaviour: the composer (Enter sends, Shift+Enter is a new line,
   @mention autocomplete, files from Drive), editing in place, and keeping the
   timeline scrolled where a reader expects it. No timers, no polling. */
(function () {
  "use strict";

  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));

  /* ---------------------------------------------------------------- composer */
  function hasContent(form) {
    const ta = $("[data-compose-text]", form);
    return !!((ta && ta.value.trim()) || $("input[name='drive']", form));
  }
  function sync(form) {
    form.classList.toggle("has-content", hasContent(form));
    const ta = $("[data-compose-text]", form);
    if (ta) {
      ta.style.height = "auto";
      ta.style.height = Math.min(ta.scrollHeight, 220) + "px";
    }
  }
  function members(form) {
    if (!form._members) {
      try { form._members = JSON.parse(form.dataset.members || "[]"); } catch (e) { form._members = []; }
    }
    return form._members;
  }

  /* @mention autocomplete */
  function mentionQuery(ta) {
    const before = ta.value.slice(0, ta.selectionStart);
    const m = before.match(/(^|[\s(])@([\w.\-]*)$/);
    return m ? { q: m[2].toLowerCase(), start: before.length - m[2].length - 1 } : null;
  }
  function listOf(form) { return $(".mention-list", form); }
  function closeList(form) {
    const list = listOf(form);
    if (list) { list.hidden = true; list.innerHTML = ""; }
  }
  function openList(form, found) {
    const list = listOf(form);
    list.innerHTML = "";
    found.forEach((p, i) => {
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", i === 0 ? "true" : "false");
      li.dataset.id = p.id;
      const av = document.createElement("span");
      av.className = "avatar"; av.textContent = initials(p.name); av.style.background = color(p.id);
      const nm = document.createElement("span"); nm.className = "nm"; nm.textContent = p.name;
      const sub = document.createElement("span"); sub.className = "sub"; sub.textContent = "@" + p.id;
      li.append(av, nm, sub);
      list.appendChild(li);
    });
    list.hidden = found.length === 0;
  }
  function initials(name) {
    const parts = name.replace("Dr.", "").replace("Capt.", "").split(/\s+/).filter((p) => /^[A-Za-z]/.test(p));
    return parts.length ? (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase() : "?";
  }
  const PALETTE = ["#1a73e8", "#d93025", "#188038", "#e37400", "#9334e6", "#007b83", "#c5221f", "#1967d2", "#b06000", "#3c4043", "#a142f4", "#12b5cb"];
  function color(key) {                       // same hash as apps.core.people.color_for
    let h = 0;
    for (const ch of key) h = (Math.imul(h, 31) + ch.codePointAt(0)) >>> 0;
    return PALETTE[h % PALETTE.length];
  }
  function updateMentions(ta) {
    const form = ta.closest("form[data-composer]");
    const mq = mentionQuery(ta);
    if (!mq) { closeList(form); return; }
    const q = mq.q;
    const found = members(form).filter((p) => !q || p.id.startsWith(q) ||
      p.name.toLowerCase().split(/\s+/).some((w) => w.startsWith(q)) || p.name.toLowerCase().startsWith(q)).slice(0, 8);
    openList(form, found);
  }
  function pick(form, li) {
    const ta = $("[data-compose-text]", form);
    const mq = mentionQuery(ta);
    if (!mq) return;
    const insert = "@" + li.dataset.id + " ";
    ta.value = ta.value.slice(0, mq.start) + insert + ta.value.slice(ta.selectionStart);
    const pos = mq.start + insert.length;
    ta.setSelectionRange(pos, pos);
    ta.focus();
    closeList(form);
    sync(form);
  }

  document.addEventListener("keydown", (e) => {
    const ta = e.target;
    if (!ta.matches) return;
    if (ta.matches("[data-compose-text]")) {
      const form = ta.closest("form[data-composer]");
      const list = listOf(form);
      const open = list && !list.hidden && list.children.length;
      if (open && deskworld.listbox(e, list, {
        pick: (li) => pick(form, li), tab: true, first: true, scroll: true, shift: false,
        close: (ev) => { ev.preventDefault(); ev.stopPropagation(); closeList(form); },
      })) return;
      if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !e.isComposing) {
        e.preventDefault();
        if (hasContent(form) && !form.classList.contains("sending")) form.requestSubmit();
      }
      return;
    }
    if (ta.matches("[data-edit-box]")) {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); ta.form.requestSubmit(); }
      else if (e.key === "Escape") {
        e.preventDefault(); e.stopPropagation();
        const c = $("[data-edit-cancel]", ta.form); if (c) c.click();
      }
    }
  }, true);

  document.addEventListener("input", (e) => {
    const ta = e.target;
    if (ta.matches && ta.matches("[data-compose-text]")) {
      sync(ta.closest("form"));
      updateMentions(ta);
    }
  });
  document.addEventListener("click", (e) => {
    const ta = e.target.closest && e.target.closest("[data-compose-text]");
    if (ta) updateMentions(ta);
    const at = e.target.closest("[data-insert-at]");
    if (at) {
      const form = at.closest("form");
      const t = $("[data-compose-text]", form);
      const pos = t.selectionStart ?? t.value.length;
      const pre = t.value.slice(0, pos);
      const ins = (pre && !/\s$/.test(pre) ? " @" : "@");
      t.value = pre + ins + t.value.slice(pos);
      t.focus();
      t.setSelectionRange(pos + ins.length, pos + ins.length);
      sync(form);
      updateMentions(t);
    }
    const rm = e.target.closest("[data-remove-att]");
    if (rm) {
      const form = rm.closest("form");
      rm.closest(".att").remove();
      sync(form);
    }
    const attach = e.target.closest("[data-attach-picked]");
    if (attach) attachPicked(attach.closest("dialog"));
  });
  document.addEventListener("mousedown", (e) => {
    const li = e.target.closest && e.target.closest(".mention-list [role=option]");
    if (li) { e.preventDefault(); pick(li.closest("form"), li); }
  });
  document.addEventListener("focusout", (e) => {
    const ta = e.target;
    if (ta.matches && ta.matches("[data-compose-text]")) {
      const form = ta.closest("form");
      if (!form.contains(e.relatedTarget)) closeList(form);
    }
  });

  /* Files from Drive: the picker adds chips (hidden inputs "drive") to the composer that opened it. */
  function attachPicked(dialog) {
    const form = document.getElementById(dialog.dataset.target);
    if (form) {
      const box = $("[data-files]", form);
      $$("input[type=checkbox]:checked", dialog).forEach((c) => {
        if ($(`input[name='drive'][value='${c.value}']`, box)) return;
        const chip = document.createElement("span");
        chip.className = "att";
        const ic = c.closest(".picker-row").querySelector(".ficon");
        if (ic) chip.appendChild(ic.cloneNode(true));
        const n = document.createElement("span"); n.className = "n"; n.textContent = c.dataset.name;
        const hid = document.createElement("input"); hid.type = "hidden"; hid.name = "drive"; hid.value = c.value;
        const x = document.createElement("button"); x.type = "button"; x.textContent = "×";
        x.setAttribute("aria-label", "Remove " + c.dataset.name); x.dataset.removeAtt = "";
        chip.append(n, hid, x);
        box.appendChild(chip);
      });
      sync(form);
      const ta = $("[data-compose-text]", form); if (ta) ta.focus();
    }
    if (dialog.open) dialog.close();
    dialog.remove();
  }

  /* ---------------------------------------------------------------- htmx: sending, scrolling, editing */
  let pending = null;          // scroll state of the timeline being replaced
  let forceBottom = false;

  function atBottom(el) { return el.scrollHeight - el.scrollTop - el.clientHeight < 40; }
  function placeTimeline(el, first) {
    const hl = el.dataset.highlight && document.getElementById("list-msg-" + el.dataset.highlight);
    if (first && hl) { hl.scrollIntoView({ block: "center" }); return; }
    const line = $("#new-messages", el);
    if (first && line) { line.scrollIntoView({ block: "center" }); if (atBottom(el)) return; return; }
    el.scrollTop = el.scrollHeight;
  }
  function placeThread(pane) {
    const sc = $(".thread-scroll", pane);
    if (!sc) return;
    const hl = sc.dataset.highlight && document.getElementById("thread-msg-" + sc.dataset.highlight);
    if (hl) hl.scrollIntoView({ block: "center" }); else sc.scrollTop = sc.scrollHeight;
  }

  document.addEventListener("htmx:beforeRequest", (e) => {
    const elt = e.detail.elt;
    // A region being refreshed while its owner edits a message keeps the edit box.
    if ((elt.id === "messages" || elt.id === "thread-pane") && $("[data-edit-box]", elt)) { e.preventDefault(); return; }
    if (elt.matches && elt.matches("form[data-composer]")) {
      elt.classList.add("sending");
      if (elt.id === "main-composer") forceBottom = true;
    }
  });
  document.addEventListener("htmx:beforeSwap", (e) => {
    const t = e.detail.target;
    if (t && t.id === "messages") pending = { bottom: forceBottom || atBottom(t), top: t.scrollTop };
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const elt = e.detail.elt;
    if (!(elt.matches && elt.matches("form[data-composer]"))) return;
    elt.classList.remove("sending");
    forceBottom = false;
    if (e.detail.successful && document.body.contains(elt)) {
      const ta = $("[data-compose-text]", elt);
      ta.value = "";
      $("[data-files]", elt).innerHTML = "";
      const also = $("input[name='also_channel']", elt); if (also) also.checked = false;
      sync(elt);
      ta.focus();
    }
  });
  document.addEventListener("htmx:load", (e) => {
    const el = e.detail.elt;
    if (el.id === "messages") {
      if (pending) {
        if (pending.bottom) el.scrollTop = el.scrollHeight; else el.scrollTop = pending.top;
        pending = null;
      } else placeTimeline(el, true);
    }
    if (el.id === "thread-pane" && !el.hidden) {
      placeThread(el);
      const ta = $("[data-compose-text]", el);
      if (ta && el.hasAttribute("data-focus")) ta.focus();
    }
    const box = el.matches && el.matches(".msg") ? $("[data-edit-box]", el) : null;
    if (box) { box.focus(); box.setSelectionRange(box.value.length, box.value.length); el.scrollIntoView({ block: "nearest" }); }
  });
  document.addEventListener("DOMContentLoaded", () => {
    const el = document.getElementById("messages");
    if (el) placeTimeline(el, true);
    // Placed with the fallback font's line heights if the web font was still loading: place again
    // once it is (unless the user has scrolled since), so the timeline lands where it always does.
    if (el && document.fonts && document.fonts.status !== "loaded") {
      const top = el.scrollTop;
      document.fonts.ready.then(() => { if (el.isConnected && el.scrollTop === top) placeTimeline(el, true); });
    }
    const pane = document.getElementById("thread-pane");
    if (pane && !pane.hidden) placeThread(pane);
    const ta = $("#main-composer [data-compose-text]");
    if (ta && !(pane && !pane.hidden)) ta.focus();
    $$("form[data-composer]").forEach(sync);
  });
})();
