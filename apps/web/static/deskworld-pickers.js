/* The in-page date and time pickers of the date_input macro (_macros.html), drawn in the page (in
   the top layer, above dialogs): the browser's own date picker is outside the screenshot an agent sees.

   A picker is a .dw-picker: one or two text boxes (data-part date | time | datetime) and a hidden
   input (data-picker-value) holding what the form posts — YYYY-MM-DD, HH:MM or YYYY-MM-DDTHH:MM.
   Typing updates the hidden value as it goes (what can't be read is posted as typed, for the server
   to refuse by name); clicking a box opens a month calendar (role=dialog "Choose date") or a list of
   times (role=listbox "Choose time"); a choice writes the box in the product's format
   (data-skin: google | salesforce | servicenow) and announces "change" on the hidden input.
   "Today" is the world's day (the page's data-today), else the page's clock. */
(function () {
  "use strict";

  const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December"];
  const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const pad = (n) => String(n).padStart(2, "0");
  const iso = (y, m, d) => `${y}-${pad(m)}-${pad(d)}`;
  const valid = (y, m, d) => m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();

  /* The regional format (apps.core.locale): en-US (default), en-GB or de-DE, from <html data-locale>. */
  const LOCALE = document.documentElement.dataset.locale || "en-US";
  const H24 = LOCALE !== "en-US";

  /* ---------------------------------------------------------------- reading and writing */
  function parseDate(text) {
    const t = text.trim().replace(/\s+/g, " ");
    let m = t.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
    if (m) return valid(+m[1], +m[2], +m[3]) ? iso(+m[1], +m[2], +m[3]) : null;
    // 5/11/2026 (en-US: May 11), 05/11/2026 (en-GB: 5 November), 05.11.2026 (de-DE); 05112026 in the same order
    const numeric = LOCALE === "de-DE" ? /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/ : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
    m = t.match(numeric) || t.match(/^(\d{2})(\d{2})(\d{4})$/);
    if (m) {
      const [mo, d] = LOCALE === "en-US" ? [+m[1], +m[2]] : [+m[2], +m[1]];
      return valid(+m[3], mo, d) ? iso(+m[3], mo, d) : null;
    }
    const month = (w) => MONTHS.findIndex((n) => w.length >= 3 && n.toLowerCase().startsWith(w.toLowerCase().replace(/\.$/, ""))) + 1;
    m = t.match(/^(?:[A-Za-z]+,? )?([A-Za-z]+\.?) (\d{1,2}),? (\d{4})$/);            // (Tue,) Dec 8, 2026
    if (m && month(m[1])) return valid(+m[3], month(m[1]), +m[2]) ? iso(+m[3], month(m[1]), +m[2]) : null;
    m = t.match(/^(?:[A-Za-z]+,? )?(\d{1,2}) ([A-Za-z]+\.?),? (\d{4})$/);            // 8 Dec 2026
    if (m && month(m[2])) return valid(+m[3], month(m[2]), +m[1]) ? iso(+m[3], month(m[2]), +m[1]) : null;
    return null;
  }
  function parseTime(text) {
    const t = text.trim().toLowerCase().replace(/\s+/g, "");
    const m = t.match(/^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?(am|pm|a|p)?$/);
    if (!m) return null;
    let h = +m[1];
    const min = m[2] === undefined ? 0 : +m[2];
    if (m[4]) {
      if (h < 1 || h > 12) return null;
      h = (h % 12) + (m[4].startsWith("p") ? 12 : 0);
    } else if (m[2] === undefined) return null;                  // "14" alone is no time
    if (h > 23 || min > 59) return null;
    return `${pad(h)}:${pad(min)}`;
  }
  function dateText(value, skin) {
    const [y, mo, d] = value.split("-").map(Number);
    if (skin === "servicenow") return value;
    if (skin === "salesforce") {
      if (LOCALE === "en-US") return `${mo}/${d}/${y}`;
      return LOCALE === "de-DE" ? `${pad(d)}.${pad(mo)}.${y}` : `${pad(d)}/${pad(mo)}/${y}`;
    }
    const mon = MONTHS[mo - 1].slice(0, 3);
    return LOCALE === "en-US" ? `${mon} ${d}, ${y}` : `${d} ${mon} ${y}`;
  }
  /* A day's name in the month calendar: Tuesday, December 8, 2026 · Tuesday 8 December 2026 (en-GB) ·
     Tuesday, 8 December 2026 (de-DE). */
  function dayName(wd, mo, d, y) {
    if (LOCALE === "en-US") return `${wd}, ${MONTHS[mo - 1]} ${d}, ${y}`;
    return `${wd}${LOCALE === "en-GB" ? " " : ", "}${d} ${MONTHS[mo - 1]} ${y}`;
  }
  function timeText(value, skin) {
    const [h, m] = value.split(":").map(Number);
    if (skin === "servicenow") return `${value}:00`;
    if (H24) return `${pad(h)}:${pad(m)}`;
    const h12 = h % 12 || 12, half = h < 12 ? "am" : "pm";
    return skin === "salesforce" ? `${h12}:${pad(m)} ${half.toUpperCase()}` : `${h12}:${pad(m)}${half}`;
  }

  const partsOf = (picker) => ({
    kind: picker.dataset.picker, skin: picker.dataset.skin,
    date: picker.querySelector('.dw-picker-box[data-part="date"], .dw-picker-box[data-part="datetime"]'),
    time: picker.querySelector('.dw-picker-box[data-part="time"]'),
    hidden: picker.querySelector("[data-picker-value]"),
  });

  /* The value the boxes say, as the form posts it ("" when empty; the raw text when unreadable). */
  function valueOf(picker) {
    const p = partsOf(picker);
    if (p.kind === "time") {
      const raw = p.time.value.trim();
      return raw ? (parseTime(raw) || raw) : "";
    }
    if (p.date.dataset.part === "datetime") {                    // one box: 2026-12-08 14:30:00
      const raw = p.date.value.trim();
      if (!raw) return "";
      const m = raw.match(/^(.*?\d{4}|\d{4}-\d{1,2}-\d{1,2})(?:[ T]+(.+))?$/);
      const d = m && parseDate(m[1]), t = m && m[2] ? parseTime(m[2]) : "00:00";
      return d && t ? `${d}T${t}` : raw;
    }
    const draw = p.date.value.trim(), d = draw ? parseDate(draw) : "";
    if (p.kind === "date") return d === null ? draw : d;
    const traw = p.time.value.trim(), t = traw ? parseTime(traw) : "";
    if (!draw && !traw) return "";
    if (d === null || t === null) return `${d === null ? draw : d}T${t === null ? traw : t}`;
    return t ? `${d}T${t}` : d;
  }
  function sync(picker, announce) {
    const h = partsOf(picker).hidden, v = valueOf(picker);
    picker.classList.toggle("dw-picker-invalid", /[^0-9T:-]/.test(v));
    if (!("said" in h.dataset)) h.dataset.said = h.value;         // what the last "change" announced
    if (h.value !== v) {
      h.value = v;
      h.dispatchEvent(new Event("input", { bubbles: true }));
    }
    if (announce && h.dataset.said !== v) {                      // typed, then left: a change too
      h.dataset.said = v;
      h.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  /* Rewrite the boxes in the product's format (after a choice, or when the typing is done). */
  function tidy(picker) {
    const p = partsOf(picker), v = p.hidden.value;
    if (p.kind === "time") { if (/^\d{2}:\d{2}$/.test(v)) p.time.value = timeText(v, p.skin); return; }
    const m = v.match(/^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}))?$/);
    if (!m) return;
    if (p.date.dataset.part === "datetime") { p.date.value = `${m[1]} ${timeText(m[2] || "00:00", p.skin)}`; return; }
    p.date.value = dateText(m[1], p.skin);
    if (p.time && m[2]) p.time.value = timeText(m[2], p.skin);
  }

  /* ---------------------------------------------------------------- the pop-ups */
  let open = null;                                              // {el, box, picker}
  function close() {
    if (!open) return;
    open.box.setAttribute("aria-expanded", "false");
    if (open.el.matches(":popover-open")) open.el.hidePopover();
    open.el.remove();
    open = null;
  }
  function place(el, box) {
    const r = box.closest(".dw-picker-field").getBoundingClientRect();
    el.style.left = Math.max(4, Math.min(r.left, window.innerWidth - el.offsetWidth - 4)) + "px";
    const below = r.bottom + 4, above = r.top - el.offsetHeight - 4;
    el.style.top = (below + el.offsetHeight > window.innerHeight - 4 && above > 4 ? above : below) + "px";
  }
  function show(el, box, picker) {
    close();
    el.setAttribute("popover", "manual");
    el.classList.add(`dw-skin-${picker.dataset.skin}`);
    (box.closest("dialog") || document.body).appendChild(el);     // a modal dialog makes the rest inert
    el.showPopover();
    place(el, box);
    box.setAttribute("aria-expanded", "true");
    open = { el, box, picker };
  }
  function today() {                                            // the world's day, else the page's clock
    if (/^\d{4}-\d{2}-\d{2}$/.test(document.body.dataset.today || "")) return document.body.dataset.today;
    const n = new Date(Date.now());
    return iso(n.getFullYear(), n.getMonth() + 1, n.getDate());
  }
  function chosenDate(picker) {
    const m = partsOf(picker).hidden.value.match(/^(\d{4}-\d{2}-\d{2})/);
    return m ? m[1] : "";
  }
  function drawMonth(el, picker, y, mo) {
    const chosen = chosenDate(picker), now = today();
    const first = new Date(Date.UTC(y, mo - 1, 1)).getUTCDay();
    const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
    let cells = "";
    for (let i = 0; i < first; i++) cells += '<span class="dw-cal-pad"></span>';
    for (let d = 1; d <= days; d++) {
      const v = iso(y, mo, d), wd = DAYS[new Date(Date.UTC(y, mo - 1, d)).getUTCDay()];
      cells += `<button type="button" class="dw-cal-day${v === chosen ? " chosen" : ""}${v === now ? " today" : ""}"` +
        ` data-date="${v}" aria-label="${dayName(wd, mo, d, y)}"${v === chosen ? ' aria-pressed="true"' : ""}>${d}</button>`;
    }
    const skin = picker.dataset.skin;
    el.dataset.y = y; el.dataset.m = mo;
    el.innerHTML =
      `<div class="dw-cal-head"><span class="dw-cal-title">${MONTHS[mo - 1]} ${y}</span>` +
      '<button type="button" class="dw-cal-nav" data-step="-1" aria-label="Previous month" title="Previous month">‹</button>' +
      '<button type="button" class="dw-cal-nav" data-step="1" aria-label="Next month" title="Next month">›</button></div>' +
      `<div class="dw-cal-week" aria-hidden="true">${DAYS.map((d) => `<span>${skin === "google" ? d[0] : d.slice(0, 3)}</span>`).join("")}</div>` +
      `<div class="dw-cal-grid">${cells}</div>` +
      (skin === "google" ? "" : '<div class="dw-cal-foot"><button type="button" class="dw-cal-today" data-date="' + now + '">Today</button></div>');
  }
  function openCalendar(box, picker) {
    const el = document.createElement("div");
    el.className = "dw-cal";
    el.setAttribute("role", "dialog");
    el.setAttribute("aria-label", "Choose date");
    const start = (chosenDate(picker) || today()).split("-").map(Number);
    drawMonth(el, picker, start[0], start[1]);
    show(el, box, picker);
  }
  function openTimes(box, picker) {
    const skin = picker.dataset.skin, el = document.createElement("div");
    el.className = "dw-times";
    el.setAttribute("role", "listbox");
    el.setAttribute("aria-label", "Choose time");
    const cur = (partsOf(picker).hidden.value.match(/(\d{2}:\d{2})$/) || [])[1];
    let html = "";
    for (let q = 0; q < 96; q++) {
      const v = `${pad(Math.floor(q / 4))}:${pad((q % 4) * 15)}`;
      html += `<div class="dw-time${v === cur ? " chosen" : ""}" role="option" data-time="${v}" aria-selected="${v === cur}">${timeText(v, skin)}</div>`;
    }
    el.innerHTML = html;
    show(el, box, picker);
    const near = el.querySelector(".chosen") || el.querySelector(`[data-time="${cur ? cur.slice(0, 3) + "00" : "09:00"}"]`);
    if (near) el.scrollTop = near.offsetTop - el.clientHeight / 2 + near.offsetHeight / 2;
  }
  function choose(picker, part, value) {
    const p = partsOf(picker);
    if (part === "date") {
      if (p.date.dataset.part === "datetime") {
        const t = (p.hidden.value.match(/T(\d{2}:\d{2})$/) || [])[1] || "00:00";
        p.date.value = `${value} ${timeText(t, p.skin)}`;
      } else p.date.value = dateText(value, p.skin);
    } else p.time.value = timeText(value, p.skin);
    sync(picker, true);
    tidy(picker);
    const box = part === "date" ? p.date : p.time;
    close();
    box.focus();
  }
  function toggle(box) {
    const picker = box.closest(".dw-picker");
    if (open && open.box === box) { close(); return; }
    if (box.dataset.part === "time") openTimes(box, picker); else openCalendar(box, picker);
  }

  document.addEventListener("click", (e) => {
    const btn = e.target.closest(".dw-picker-btn");
    if (btn) { e.preventDefault(); toggle(btn.parentElement.querySelector(".dw-picker-box")); return; }
    const box = e.target.closest(".dw-picker-box");
    if (box) { if (!open || open.box !== box) toggle(box); return; }
    if (!open || !open.el.contains(e.target)) return;
    const nav = e.target.closest(".dw-cal-nav");
    if (nav) {
      let y = +open.el.dataset.y, m = +open.el.dataset.m + +nav.dataset.step;
      if (m < 1) { m = 12; y--; } else if (m > 12) { m = 1; y++; }
      drawMonth(open.el, open.picker, y, m);
      return;
    }
    const day = e.target.closest("[data-date]");
    if (day) { choose(open.picker, "date", day.dataset.date); return; }
    const t = e.target.closest("[data-time]");
    if (t) choose(open.picker, "time", t.dataset.time);
  });
  document.addEventListener("pointerdown", (e) => {
    if (open && !open.el.contains(e.target) && !e.target.closest(".dw-picker-field")) close();
  }, true);
  document.addEventListener("input", (e) => {
    const box = e.target.closest && e.target.closest(".dw-picker-box");
    if (box) sync(box.closest(".dw-picker"), false);
  });
  document.addEventListener("change", (e) => {
    const box = e.target.closest && e.target.closest(".dw-picker-box");
    if (!box) return;
    const picker = box.closest(".dw-picker");
    sync(picker, true);
    tidy(picker);
  });
  document.addEventListener("keydown", (e) => {
    const box = e.target.closest && e.target.closest(".dw-picker-box");
    if (!box) return;
    if (e.key === "ArrowDown" && !(open && open.box === box)) { e.preventDefault(); toggle(box); }
    else if (e.key === "Escape" && open) { e.preventDefault(); e.stopPropagation(); close(); }
    else if (e.key === "Enter" && open && open.box === box) { e.preventDefault(); close(); tidy(box.closest(".dw-picker")); }
    else if (e.key === "Tab") close();
  }, true);
  document.addEventListener("htmx:beforeSwap", (e) => {            // only a swap that replaces the picker
    if (open && (!e.detail.target || e.detail.target.contains(open.box))) close();
  });
  window.addEventListener("resize", close);
})();
