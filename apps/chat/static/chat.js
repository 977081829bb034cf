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
    return !!((ta && ta.value.trim()) || $("input[name='drive'], input[name='local']", form));
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
  /* The word being typed before the caret when it matches re (its 2nd group: the query), e.g. "@pri". */
  function queryBefore(ta, re) {
    const before = ta.value.slice(0, ta.selectionStart);
    const m = before.match(re);
    return m ? { q: m[2].toLowerCase(), start: before.length - m[2].length - 1 } : null;
  }
  function hideList(list) { if (list) { list.hidden = true; list.innerHTML = ""; } }
  function mentionQuery(ta) { return queryBefore(ta, /(^|[\s(])@([\w.\-]*)$/); }
  function listOf(form) { return $(".mention-list", form); }
  function closeList(form) { hideList(listOf(form)); }
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
      const elist = $(".emoji-list", form);
      if (elist && !elist.hidden && elist.children.length && deskworld.listbox(e, elist, {
        pick: (li) => pickEmoji(form, li), tab: true, first: true, scroll: true, shift: false,
        close: (ev) => { ev.preventDefault(); ev.stopPropagation(); closeEmojiList(form); },
      })) return;
      const open = list && !list.hidden && list.children.length;
      if (open && deskworld.listbox(e, list, {
        pick: (li) => pick(form, li), tab: true, first: true, scroll: true, shift: false,
        close: (ev) => { ev.preventDefault(); ev.stopPropagation(); closeList(form); },
      })) return;
      if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !e.isComposing) {
        e.preventDefault();
        if (hasContent(form) && !form.classList.contains("sending")) form.requestSubmit();
      } else if (e.key === "ArrowUp" && !ta.value && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
        editLast(form, e);
      } else if ((e.ctrlKey || e.metaKey) && !e.altKey) {
        const k = e.key.toLowerCase();
        const f = !e.shiftKey ? { b: "bold", i: "italic" }[k] : { x: "strike", c: "code", u: "link", "7": "ol", "8": "ul", "&": "ol", "*": "ul" }[k];
        if (f) { e.preventDefault(); format(form, f); }
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
      updateEmoji(ta);
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
  /* A click on a suggestion (a person to mention or an emoji) picks it; leaving the box closes both lists. */
  document.addEventListener("mousedown", (e) => {
    const li = e.target.closest && e.target.closest(".mention-list [role=option], .emoji-list [role=option]");
    if (!li) return;
    e.preventDefault();
    (li.closest(".emoji-list") ? pickEmoji : pick)(li.closest("form"), li);
  });
  document.addEventListener("focusout", (e) => {
    const ta = e.target;
    if (ta.matches && ta.matches("[data-compose-text]")) {
      const form = ta.closest("form");
      if (!form.contains(e.relatedTarget)) { closeList(form); closeEmojiList(form); }
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

  /* ---------------------------------------------------------------- ↑ edits your last message */
  function editLast(form, e) {
    const scope = form.closest("#thread-pane") || document.getElementById("messages");
    if (!scope) return;
    const mine = $$(".msg[data-mine]", scope);
    const last = mine[mine.length - 1];
    if (!last) return;
    e.preventDefault();
    htmx.ajax("GET", last.dataset.edit, { target: "#" + last.id, swap: "outerHTML" });
  }

  /* ---------------------------------------------------------------- formatting toolbar: Slack's markup */
  function format(form, kind) {
    const ta = $("[data-compose-text]", form);
    const a = ta.selectionStart, b = ta.selectionEnd;
    const sel = ta.value.slice(a, b);
    let ins, caretA, caretB;
    const wrap = { bold: "*", italic: "_", strike: "~", code: "`" }[kind];
    if (wrap) {
      ins = wrap + sel + wrap; caretA = a + 1; caretB = a + 1 + sel.length;
    } else if (kind === "link") {
      const text = sel || "link text";
      ins = "[" + text + "](https://)"; caretA = a + text.length + 3; caretB = caretA + 8;
    } else {
      const lines = (sel || "").split("\n");
      ins = lines.map((l, i) => (kind === "ol" ? (i + 1) + ". " : "• ") + l).join("\n");
      const lineStart = ta.value.lastIndexOf("\n", a - 1) + 1;
      if (!sel && a !== lineStart) ins = "\n" + ins;
      caretA = caretB = a + ins.length;
    }
    ta.focus();
    ta.setRangeText(ins, a, b, "end");
    ta.setSelectionRange(caretA, caretB);
    sync(form);
  }
  document.addEventListener("click", (e) => {
    const btn = e.target.closest && e.target.closest("[data-fmt]");
    if (btn) format(btn.closest("form"), btn.dataset.fmt);
  });

  /* ---------------------------------------------------------------- emoji: the picker and :shortcode: */
  let emojiCtx = null;
  function catalog() {
    return $$("#emoji-picker .ep-emoji").map((b) => ({ char: b.dataset.char, name: b.dataset.name, words: b.dataset.words || "" }));
  }
  function matches(e, q) {
    return e.name.includes(q) || e.words.split(/\s+/).some((w) => w.startsWith(q));
  }
  function picker() { return document.getElementById("emoji-picker"); }
  function closePicker() {
    const p = picker();
    if (p && !p.hidden) { p.hidden = true; const back = emojiCtx && emojiCtx.focus; emojiCtx = null; if (back && back.isConnected) back.focus(); }
  }
  function filterPicker(q) {
    const p = picker();
    q = q.trim().toLowerCase().replace(/^:|:$/g, "");
    let any = false;
    $$(".ep-section", p).forEach((sec) => {
      let n = 0;
      $$(".ep-emoji", sec).forEach((b) => {
        const ok = !q || matches({ name: b.dataset.name, words: b.dataset.words || "" }, q);
        b.hidden = !ok; if (ok) n++;
      });
      sec.hidden = n === 0; if (n) any = true;
    });
    $(".ep-none", p).hidden = any;
  }
  function openPicker(btn) {
    const p = picker();
    if (!p) return;
    $$("details.menu-wrap[open]").forEach((d) => { d.open = false; });
    emojiCtx = { kind: btn.dataset.emojiFor, url: btn.dataset.url, target: btn.dataset.target, where: btn.dataset.where,
                 form: btn.closest("form"), focus: btn };
    p.hidden = false;
    const r = btn.getBoundingClientRect();
    const w = p.offsetWidth, h = p.offsetHeight;
    let left = Math.min(Math.max(8, r.right - w), window.innerWidth - w - 8);
    let top = r.top - h - 6 >= 8 ? r.top - h - 6 : Math.min(r.bottom + 6, window.innerHeight - h - 8);
    p.style.left = left + "px"; p.style.top = top + "px";
    const s = $("[data-emoji-search]", p); s.value = ""; filterPicker(""); s.focus();
    $("[data-emoji-grid]", p).scrollTop = 0;
  }
  function choose(char) {
    const ctx = emojiCtx;
    if (!ctx) return;
    if (ctx.kind === "react") {
      closePicker();
      htmx.ajax("POST", ctx.url, { target: ctx.target, swap: "outerHTML", values: { emoji: char, where: ctx.where } });
    } else if (ctx.form) {
      const ta = $("[data-compose-text]", ctx.form);
      closePicker();
      ta.focus();
      ta.setRangeText(char, ta.selectionStart, ta.selectionEnd, "end");
      sync(ctx.form);
    }
  }
  document.addEventListener("click", (e) => {
    const opener = e.target.closest && e.target.closest("[data-emoji-for]");
    if (opener) { e.preventDefault(); openPicker(opener); return; }
    const p = picker();
    if (!p || p.hidden) return;
    const em = e.target.closest(".ep-emoji");
    if (em) { choose(em.dataset.char); return; }
    const tab = e.target.closest(".ep-tab");
    if (tab) { const sec = document.getElementById("ep-" + tab.dataset.cat); $("[data-emoji-grid]", p).scrollTop = sec.offsetTop - $("[data-emoji-grid]", p).offsetTop; return; }
    if (!p.contains(e.target)) closePicker();
  });
  document.addEventListener("input", (e) => {
    if (e.target.matches && e.target.matches("[data-emoji-search]")) filterPicker(e.target.value);
  });
  document.addEventListener("mouseover", (e) => {
    const em = e.target.closest && e.target.closest(".ep-emoji");
    if (em) { const pv = $("[data-emoji-preview]"); if (pv) pv.textContent = em.dataset.char + "  :" + em.dataset.name + ":"; }
  });
  document.addEventListener("keydown", (e) => {
    const p = picker();
    if (!p || p.hidden || !p.contains(e.target)) return;
    if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); closePicker(); }
    else if (e.key === "Enter" && e.target.matches("[data-emoji-search]")) {
      e.preventDefault();
      const first = $$(".ep-emoji", p).find((b) => !b.hidden);
      if (first) choose(first.dataset.char);
    }
  }, true);

  function emojiQuery(ta) { return queryBefore(ta, /(^|[\s(]):([a-z0-9_+\-]{2,})$/i); }
  function closeEmojiList(form) { hideList($(".emoji-list", form)); }
  function updateEmoji(ta) {
    const form = ta.closest("form[data-composer]");
    const list = $(".emoji-list", form);
    if (!list) return;
    const eq = emojiQuery(ta);
    if (!eq) { closeEmojiList(form); return; }
    const all = catalog();
    const found = all.filter((x) => x.name.startsWith(eq.q)).concat(all.filter((x) => !x.name.startsWith(eq.q) && matches(x, eq.q))).slice(0, 8);
    list.innerHTML = "";
    found.forEach((x, i) => {
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", i === 0 ? "true" : "false");
      li.dataset.char = x.char;
      const c = document.createElement("span"); c.className = "em"; c.textContent = x.char;
      const n = document.createElement("span"); n.className = "nm"; n.textContent = ":" + x.name + ":";
      li.append(c, n);
      list.appendChild(li);
    });
    list.hidden = found.length === 0;
  }
  function pickEmoji(form, li) {
    const ta = $("[data-compose-text]", form);
    const eq = emojiQuery(ta);
    if (!eq) return;
    const ins = li.dataset.char + " ";
    ta.value = ta.value.slice(0, eq.start) + ins + ta.value.slice(ta.selectionStart);
    ta.setSelectionRange(eq.start + ins.length, eq.start + ins.length);
    ta.focus();
    closeEmojiList(form);
    sync(form);
  }

  /* ---------------------------------------------------------------- Ctrl+K: the quick switcher */
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      if (document.querySelector("dialog.switcher[open]")) return;
      htmx.ajax("GET", "/chat/switcher", { target: "#modal", swap: "innerHTML" });
      return;
    }
    const inp = e.target;
    if (!(inp.matches && inp.matches("[data-switcher-input]"))) return;
    const dlg = inp.closest("dialog");
    const vis = $$(".sw-item", dlg).filter((li) => !li.hidden);
    let i = vis.findIndex((li) => li.getAttribute("aria-selected") === "true");
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      i = e.key === "ArrowDown" ? Math.min(vis.length - 1, i + 1) : Math.max(0, i - 1);
      vis.forEach((li, j) => li.setAttribute("aria-selected", j === i ? "true" : "false"));
      if (vis[i]) vis[i].scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (vis[i]) goSwitch(vis[i]);
    }
  });
  function goSwitch(li) {
    if (li.dataset.url) { window.location.assign(li.dataset.url); return; }
    const form = $("[data-switcher-dm]", li.closest("dialog"));
    $("input[name=people]", form).value = li.dataset.person;
    form.requestSubmit();
  }
  document.addEventListener("input", (e) => {
    if (!(e.target.matches && e.target.matches("[data-switcher-input]"))) return;
    const dlg = e.target.closest("dialog");
    const q = e.target.value.trim().toLowerCase().replace(/^[#@]/, "");
    let first = true;
    $$(".sw-item", dlg).forEach((li) => {
      const show = q ? li.dataset.label.split(/[\s\-_.]+/).some((w) => w.startsWith(q)) || li.dataset.label.startsWith(q)
                     : !li.classList.contains("person");
      li.hidden = !show;
      li.setAttribute("aria-selected", show && first ? "true" : "false");
      if (show) first = false;
    });
  });
  document.addEventListener("click", (e) => {
    const li = e.target.closest && e.target.closest(".sw-item");
    if (li) goSwitch(li);
  });

  /* ---------------------------------------------------------------- older messages, files from the computer, menus */
  let loadingEarlier = false;
  document.addEventListener("scroll", (e) => {
    const el = e.target;
    if (el.id !== "messages" || el.scrollTop > 40 || loadingEarlier) return;
    const btn = $(".load-earlier button", el);
    if (btn) { loadingEarlier = true; btn.click(); }
  }, true);
  let earlierFrom = null;
  document.addEventListener("htmx:beforeSwap", (e) => {
    const t = e.detail.target;
    if (t && t.matches && t.matches(".load-earlier")) {
      const sc = t.closest("#messages");
      earlierFrom = sc ? { sc, h: sc.scrollHeight, top: sc.scrollTop } : null;
    }
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (earlierFrom) {
      const { sc, h, top } = earlierFrom;
      sc.scrollTop = top + (sc.scrollHeight - h);
      earlierFrom = null;
    }
    loadingEarlier = false;
  });
  document.addEventListener("htmx:configRequest", (e) => {
    const elt = e.detail.elt;
    if (elt && (elt.id === "messages" || (elt.matches && elt.matches("form[data-composer]#main-composer")))) {
      const list = document.getElementById("messages");
      if (list) e.detail.parameters.shown = $$(".msg-list > .msg", list).length;
    }
  });
  document.addEventListener("htmx:load", (e) => {
    const el = e.detail.elt;
    const picked = el.matches && el.matches("dialog[data-local-picked]") ? el : el.querySelector && el.querySelector("dialog[data-local-picked]");
    if (picked) {
      const form = document.getElementById(picked.dataset.target);
      if (form) {
        const box = $("[data-files]", form);
        $$(".att", picked).forEach((chip) => {
          const v = $("input[name=local]", chip).value;
          if (!$(`input[name='local'][value='${v}']`, box)) box.appendChild(chip);
        });
        sync(form);
        const ta = $("[data-compose-text]", form); if (ta) ta.focus();
      }
      if (picked.open) picked.close();
      picked.remove();
    }
    if (el.matches && el.matches("dialog[data-modal]")) $$("details.menu-wrap[open]").forEach((d) => { d.open = false; });
  });
  document.addEventListener("click", (e) => {
    const item = e.target.closest && e.target.closest("details.menu-wrap[open] .menu-item");
    if (item) item.closest("details").open = false;
  });
})();
