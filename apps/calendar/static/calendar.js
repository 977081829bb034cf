/* Calendar page behaviour: the grid scrolled to 8 AM, click or drag on empty time to create,
   drag an event to move it (15-minute steps), the event card as a popover, and the event form
   (all day, repeat, guests, find a time). Nothing here reads the clock or runs on its own timer
   beyond htmx's. */
(function () {
  "use strict";
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const pad = (n) => String(n).padStart(2, "0");
  const hhmm = (m) => pad(Math.floor(m / 60)) + ":" + pad(m % 60);
  const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

  /* ---------------------------------------------------------------- scroll: 8 AM first, kept across refreshes */
  let savedScroll = null;
  function initScroll(root) {
    $$("[data-scroll-to]", root).forEach((el) => {
      if (el.dataset.scrolled) return;
      el.dataset.scrolled = "1";
      el.scrollTop = el.id === "cal-scroll" && savedScroll !== null ? savedScroll : +el.dataset.scrollTo;
    });
  }
  document.addEventListener("htmx:beforeSwap", (e) => {
    const s = $("#cal-scroll");
    if (s && e.detail.target && e.detail.target.contains(s)) savedScroll = s.scrollTop;
  });
  document.addEventListener("htmx:oobBeforeSwap", () => { const s = $("#cal-scroll"); if (s) savedScroll = s.scrollTop; });
  document.addEventListener("htmx:load", (e) => initScroll(e.target.parentNode || document));
  document.addEventListener("DOMContentLoaded", () => { initScroll(document); initForm(); });

  /* ---------------------------------------------------------------- the popover (#cal-pop) */
  let anchor = null;
  let ignoreClick = false;
  function pop() { return $("#cal-pop"); }
  function closePop() {
    const p = pop(); if (p) p.innerHTML = "";
    $$(".cal-ev.placeholder").forEach((el) => el.remove());
    anchor = null;
  }
  function openPop(url, at) {
    anchor = at;
    htmx.ajax("GET", url, { target: "#cal-pop", swap: "innerHTML" });
  }
  function place() {
    const p = pop();
    if (!p || !p.firstElementChild) return;
    const card = p.firstElementChild;
    const w = card.offsetWidth, h = card.offsetHeight;
    let x = (innerWidth - w) / 2, y = Math.max(16, (innerHeight - h) / 2);
    if (anchor && anchor.isConnected) {
      const r = anchor.getBoundingClientRect();
      x = r.right + 8 + w < innerWidth - 8 ? r.right + 8 : r.left - 8 - w;
      if (x < 8) x = Math.max(8, Math.min(innerWidth - w - 8, r.left));
      y = Math.max(8, Math.min(innerHeight - h - 8, r.top));
    }
    p.style.left = x + "px";
    p.style.top = y + "px";
    const f = $("[autofocus]", card); if (f) f.focus();
  }
  document.addEventListener("htmx:afterSwap", (e) => {
    if (e.detail.target && e.detail.target.id === "cal-pop") place();
    if (e.detail.target && e.detail.target.id === "cal-card" && pop() && pop().contains(e.detail.target)) place();
  });
  document.addEventListener("click", (e) => {
    if (ignoreClick) { ignoreClick = false; if (e.target.closest(".cal-col, .cal-ev, .cal-mcell")) { e.preventDefault(); return; } }
    if (e.target.closest("[data-cal-close]")) { e.preventDefault(); closePop(); return; }
    const more = e.target.closest("[data-more]");
    if (more) {
      e.preventDefault();
      const form = more.closest("form");
      const q = new URLSearchParams(new FormData(form));
      q.delete("quick");
      location.assign(more.dataset.more + "?" + q.toString());
      return;
    }
    const ev = e.target.closest(".cal-view a.cal-ev");
    if (ev && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
      e.preventDefault();
      closePop();
      openPop(ev.getAttribute("href"), ev);
      return;
    }
    const p = pop();
    if (p && p.firstElementChild && !p.contains(e.target) && !e.target.closest("dialog, #modal, .toast")) closePop();
    // all-day row and month cells: a click on empty space creates an all-day event
    const cell = e.target.closest(".cal-allday-cell, .cal-mcell");
    if (cell && !e.target.closest("a") && cell.closest(".cal-view")) {
      const d = cell.dataset.date;
      const view = cell.closest(".cal-view");
      quickAt(cell, `${d}T00:00`, `${d}T00:00`, true, view.dataset.back);
    }
  }, true);
  /* ---------------------------------------------------------------- the view menu's keys: D, W, M, X */
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable=true], [role=textbox]")) return;
    if (document.querySelector("dialog[open]")) return;
    const item = e.key.length === 1 && $(`.cal-viewmenu [data-view-key="${e.key.toLowerCase()}"]`);
    if (item) { e.preventDefault(); location.assign(item.getAttribute("href")); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && pop() && pop().firstElementChild && !document.querySelector("dialog[open]")) closePop();
  });

  function quickAt(el, start, end, allDay, back) {
    const q = new URLSearchParams({ start, end, back });
    if (allDay) q.set("all_day", "1");
    openPop("/calendar/quick?" + q.toString(), el);
  }

  /* ---------------------------------------------------------------- grid: create by click/drag, move by drag */
  let drag = null;
  function ppm(col) {
    const grid = col.closest(".cal-grid");
    return parseFloat(getComputedStyle(grid).getPropertyValue("--hour")) / 60;
  }
  function minutesAt(col, y) {
    const r = col.getBoundingClientRect();
    return Math.max(0, Math.min(24 * 60, (y - r.top) / ppm(col)));
  }
  function columnAt(x) {
    return $$(".cal-view .cal-col").find((c) => { const r = c.getBoundingClientRect(); return x >= r.left && x < r.right; });
  }
  const mins = (iso) => { const t = iso.slice(11, 16).split(":"); return +t[0] * 60 + +t[1]; };
  const H24 = (document.documentElement.dataset.locale || "en-US") !== "en-US";      // en-GB, de-DE: 14:30
  const fmt = (m) => {
    const h = Math.floor(m / 60) % 24, mm = m % 60;
    return H24 ? pad(h) + ":" + pad(mm) : (h % 12 || 12) + (mm ? ":" + pad(mm) : "") + (h < 12 ? "am" : "pm");
  };

  document.addEventListener("dragstart", (e) => { if (e.target.closest && e.target.closest(".cal-ev")) e.preventDefault(); });
  document.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const chip = e.target.closest(".cal-view .cal-mcell .cal-ev[data-day-movable]");
    if (chip) {                                       // month view: drag a chip to another day
      drag = { kind: "day", el: chip, from: chip.closest(".cal-mcell").dataset.date, x0: e.clientX, y0: e.clientY, moved: false };
      return;
    }
    const col = e.target.closest(".cal-view .cal-col");
    if (!col) return;
    const ev = e.target.closest(".cal-ev");
    if (ev && e.target.closest(".cal-ev-resize")) {  // the bottom edge: change the end, 15-minute steps
      drag = { kind: "resize", el: ev, col, x0: e.clientX, y0: e.clientY, start: mins(ev.dataset.start), moved: false };
      e.preventDefault();
      return;
    }
    if (ev && ev.dataset.movable) {
      const start = mins(ev.dataset.start);
      let len = mins(ev.dataset.end) - start;
      if (ev.dataset.end.slice(0, 10) !== ev.dataset.start.slice(0, 10) || len <= 0) len = Math.max(15, 24 * 60 - start);
      drag = { kind: "move", el: ev, col, x0: e.clientX, y0: e.clientY, grab: minutesAt(col, e.clientY) - start, len, moved: false };
    } else if (!ev) {
      const m0 = Math.floor(minutesAt(col, e.clientY) / 15) * 15;
      drag = { kind: "create", col, x0: e.clientX, y0: e.clientY, m0, moved: false };
      e.preventDefault();
    }
  });
  function placeholder(col, m0, m1) {
    let el = $(".cal-ev.placeholder");
    if (!el) {
      el = document.createElement("div");
      el.className = "cal-ev placeholder";
      el.innerHTML = '<span class="cal-ev-title">(No title)<span class="cal-ev-time"></span></span>';
    }
    if (el.parentNode !== col) col.appendChild(el);
    const k = ppm(col), short = m1 - m0 < 45;
    el.classList.toggle("short", short);             // a short block is one line: "(No title), 2 – 2:30pm"
    el.style.cssText = `--c: #039be5; top: ${m0 * k}px; height: ${Math.max(15, m1 - m0) * k - 2}px; left: 1px; width: calc(100% - 4px)`;
    const t = el.querySelector(".cal-ev-time"), title = el.querySelector(".cal-ev-title");
    if (short) { if (t.parentNode !== title) title.appendChild(t); t.textContent = `, ${range(m0, m1)}`; }
    else { if (t.parentNode !== el) el.appendChild(t); t.textContent = range(m0, m1); }
    return el;
  }
  function range(a, b) {                              // "2 – 2:30pm", "11am – 12:30pm" (Google Calendar's)
    const same = b < 1440 && (a < 720) === (b < 720);
    const s = fmt(a);
    return `${same ? s.replace(/(am|pm)$/, "") : s} – ${fmt(b)}`;
  }
  document.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag.moved && Math.abs(e.clientX - drag.x0) + Math.abs(e.clientY - drag.y0) < 5) return;
    drag.moved = true;
    if (drag.kind === "resize") {
      const end = Math.max(drag.start + 15, Math.min(24 * 60, Math.round(minutesAt(drag.col, e.clientY) / 15) * 15));
      const el = drag.el;
      el.classList.add("dragging");
      el.style.height = (end - drag.start) * ppm(drag.col) - 2 + "px";
      const t = el.querySelector(".cal-ev-time");
      if (t) t.textContent = el.classList.contains("short") ? ", " + fmt(drag.start) : range(drag.start, end);
      drag.end = end;
      return;
    }
    if (drag.kind === "day") {
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const cell = under && under.closest(".cal-view .cal-mcell");
      $$(".cal-mcell.drop-target").forEach((c) => c.classList.remove("drop-target"));
      drag.el.classList.add("dragging");
      if (cell) { cell.classList.add("drop-target"); drag.target = cell.dataset.date; }
      return;
    }
    if (drag.kind === "move") {
      const col = columnAt(e.clientX) || drag.col;
      let m = Math.round((minutesAt(col, e.clientY) - drag.grab) / 15) * 15;
      m = Math.max(0, Math.min(24 * 60 - Math.min(drag.len, 24 * 60), m));
      const el = drag.el;
      el.classList.add("dragging");
      if (el.parentNode !== col) col.appendChild(el);
      el.style.top = m * ppm(col) + "px";
      el.style.left = "1px";
      el.style.width = "calc(100% - 4px)";
      const t = el.querySelector(".cal-ev-time");
      if (t) t.textContent = (el.classList.contains("short") ? ", " + fmt(m) : `${fmt(m)} – ${fmt(m + drag.len)}`);
      drag.target = { date: col.dataset.date, m };
    } else {
      const m = minutesAt(drag.col, e.clientY);
      const a = Math.min(drag.m0, Math.floor(m / 15) * 15);
      const b = Math.max(drag.m0 + 15, Math.ceil(m / 15) * 15);
      drag.range = [a, b];
      placeholder(drag.col, a, b);
    }
  });
  document.addEventListener("pointerup", () => {
    const d = drag;
    drag = null;
    if (!d) return;
    if (d.kind === "day") {
      $$(".cal-mcell.drop-target").forEach((c) => c.classList.remove("drop-target"));
      d.el.classList.remove("dragging");
      if (!d.moved) return;
      ignoreClick = true;
      if (!d.target || d.target === d.from) return;
      const el = d.el, s0 = el.dataset.start;
      const day = addDays(s0.slice(0, 10), dayDiff(d.from, d.target));
      htmx.ajax("POST", `/calendar/event/${el.dataset.event}/move`, {
        target: "#cal-view", swap: "outerHTML", source: el,
        values: { start: `${day}T${s0.slice(11, 16)}`, occ: el.dataset.occ, back: el.closest(".cal-view").dataset.back },
      });
      return;
    }
    const view = d.col.closest(".cal-view");
    if (d.kind === "resize") {
      if (!d.moved) return;
      ignoreClick = true;
      if (d.end == null) return;
      const el = d.el, date = el.dataset.start.slice(0, 10);
      const end = d.end >= 24 * 60 ? `${nextDay(date)}T00:00` : `${date}T${hhmm(d.end)}`;
      htmx.ajax("POST", `/calendar/event/${el.dataset.event}/move`, {
        target: "#cal-view", swap: "outerHTML", source: el,
        values: { start: el.dataset.start, end, occ: el.dataset.occ, back: view.dataset.back },
      });
      return;
    }
    if (d.kind === "move") {
      if (!d.moved) return;
      ignoreClick = true;
      if (!d.target) return;
      const el = d.el;
      htmx.ajax("POST", `/calendar/event/${el.dataset.event}/move`, {
        target: "#cal-view", swap: "outerHTML", source: el,
        values: { start: `${d.target.date}T${hhmm(d.target.m)}`, occ: el.dataset.occ, back: view.dataset.back },
      });
      return;
    }
    ignoreClick = true;
    closePop();
    let a, b;
    if (d.moved && d.range) { [a, b] = d.range; } else { a = Math.floor(d.m0 / 30) * 30; b = a + 30; }
    b = Math.min(b, 24 * 60);
    const date = d.col.dataset.date;
    const el = placeholder(d.col, a, b);
    const endDate = b >= 24 * 60 ? nextDay(date) : date;
    quickAt(el, `${date}T${hhmm(a)}`, `${endDate}T${hhmm(b % (24 * 60))}`, false, view.dataset.back);
  });
  function nextDay(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    const t = new Date(0); t.setUTCFullYear(y, m - 1, d + 1);     // Date.UTC reads years 0–99 as 19xx
    return `${String(t.getUTCFullYear()).padStart(4, "0")}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  }

  /* ---------------------------------------------------------------- "This event / … / All events" closes once answered */
  document.addEventListener("htmx:afterRequest", (e) => {
    const d = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("dialog.cal-scope");
    if (d && e.detail.successful) { if (d.open) d.close(); d.remove(); }
  });

  /* ---------------------------------------------------------------- sidebar: add someone's calendar */
  document.addEventListener("mousedown", (e) => {
    const opt = e.target.closest("#cal-people-list [role=option]");
    if (!opt) return;
    e.preventDefault();
    const form = opt.closest("form");
    $("input[name=person]", form).value = opt.dataset.email;
    form.submit();
  });

  /* ---------------------------------------------------------------- the event form */
  function form() { return $("#event-form"); }
  const MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  function setDate(f, name, iso) {                  // a date_input (in-page picker): the posted value and its box
    const h = $(`input[name='${name}']`, f);
    if (!h) return;
    h.value = iso;
    const box = h.closest(".dw-picker") && $(".dw-picker-box", h.closest(".dw-picker"));
    if (box && /^\d{4}-\d{2}-\d{2}$/.test(iso)) { const [y, m, d] = iso.split("-").map(Number); box.value = `${MON[m - 1]} ${d}, ${y}`; }
  }
  function setSelect(name, value) {
    const input = $(`#event-form input[type=hidden][name='${name}']`);
    if (!input) return;
    const opt = $(`[role=option][data-value='${value}']`, input.closest("[data-select-menu]"));
    if (opt) opt.click();
  }
  function initForm() {
    const f = form();
    if (!f) return;
    f.dataset.prevStart = ($("input[name=start_time]", f) || {}).value || "";
    f.dataset.prevDate = ($("input[name=start_date]", f) || {}).value || "";
  }
  let ftTimer = null;
  function refreshFindTime() {
    const panel = $("#tab-findtime");
    if (!panel || panel.hidden) return;
    clearTimeout(ftTimer);
    ftTimer = setTimeout(() => document.body.dispatchEvent(new CustomEvent("cal:findtime")), 250);
  }
  function repeatLabels(f) {
    const v = $("input[name=start_date]", f).value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return;
    const [y, m, d] = v.split("-").map(Number);
    const wd = DAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
    const menu = $("input[name=repeat]", f).closest("[data-select-menu]");
    const set = (val, text) => {
      const o = $(`[data-value='${val}']`, menu); if (!o) return;
      o.textContent = text;
      if (o.getAttribute("aria-selected") === "true") $("[data-select-label]", menu).textContent = text;
    };
    set("weekly", `Weekly on ${wd}`);
    set("monthly", `Monthly on day ${d}`);
  }
  function addDays(iso, n) {
    const [y, m, d] = iso.split("-").map(Number);
    const t = new Date(0); t.setUTCFullYear(y, m - 1, d + n);     // typing a year passes through 0002, 0020…
    return `${String(t.getUTCFullYear()).padStart(4, "0")}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  }
  const dayDiff = (a, b) => (Date.parse(b + "T00:00:00Z") - Date.parse(a + "T00:00:00Z")) / 86400000;
  document.addEventListener("change", (e) => {
    const f = e.target.closest && e.target.closest("#event-form");
    if (!f) return;
    const t = e.target;
    if (t.matches("[data-allday]")) f.classList.toggle("all-day", t.checked);
    if (t.name === "repeat") $("#cal-custom").hidden = t.value !== "custom";
    if (t.name === "freq") $("[data-weekly]", f).hidden = t.value !== "weekly";
    if (t.name === "start_date" && /^\d{4}-\d{2}-\d{2}$/.test(t.value)) {
      const end = $("input[name=end_date]", f);
      const prev = f.dataset.prevDate;
      if (prev && /^\d{4}-\d{2}-\d{2}$/.test(end.value)) setDate(f, "end_date", addDays(t.value, Math.max(0, dayDiff(prev, end.value))));
      else setDate(f, "end_date", t.value);
      f.dataset.prevDate = t.value;
      repeatLabels(f);
    }
    if (t.name === "start_time") {
      const prev = f.dataset.prevStart, end = $("input[name=end_time]", f).value;
      if (prev && end) {
        const len = mins("0000-00-00T" + end) - mins("0000-00-00T" + prev);
        const m = mins("0000-00-00T" + t.value) + (len > 0 ? len : 60);
        if (m < 24 * 60) setSelect("end_time", hhmm(m));
      }
      f.dataset.prevStart = t.value;
    }
    refreshFindTime();
  });
  document.addEventListener("input", (e) => { if (e.target.closest && e.target.closest("#event-form")) refreshFindTime(); });
  document.addEventListener("toggle", (e) => {
    const d = e.target;
    if (!(d.matches && d.matches("#event-form [data-select-menu]") && d.open)) return;
    const cur = $("[role=option][aria-selected=true]", d), box = $(".popover", d);
    if (cur && box) box.scrollTop = cur.offsetTop - 96;
  }, true);
  document.addEventListener("click", (e) => {
    const tab = e.target.closest("[data-cal-tab]");
    if (tab) {
      $$("[data-cal-tab]").forEach((b) => {
        const on = b === tab;
        b.setAttribute("aria-selected", on ? "true" : "false");
        $("#" + b.dataset.calTab).hidden = !on;
      });
      if (tab.dataset.calTab === "tab-findtime") document.body.dispatchEvent(new CustomEvent("cal:findtime"));
      return;
    }
    const sugg = e.target.closest(".cal-sugg");
    if (sugg) {
      const f = form();
      setDate(f, "start_date", sugg.dataset.date);
      setDate(f, "end_date", sugg.dataset.date);
      f.dataset.prevDate = sugg.dataset.date;
      const all = $("[data-allday]", f);
      if (all.checked) { all.checked = false; f.classList.remove("all-day"); }
      setSelect("start_time", sugg.dataset.start);
      setSelect("end_time", sugg.dataset.end);
      repeatLabels(f);
      f.dispatchEvent(new Event("change", { bubbles: true }));
      refreshFindTime();
      return;
    }
    const rm = e.target.closest("[data-remove-guest]");
    if (rm) {
      const f = form();
      const email = rm.dataset.removeGuest.toLowerCase();
      $$("[data-chips='guests'] input[type=hidden]", f).forEach((h) => { if (h.value.toLowerCase() === email) h.closest(".rchip").remove(); });
      rm.closest("li").remove();
      f.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
  document.addEventListener("htmx:afterSwap", (e) => { if (e.detail.target && e.detail.target.id === "tab-findtime") initScroll(e.detail.target); });
})();
