// deskworld gestures: a person's mouse, wheel and keyboard input turned into deskworld actions, one
// action per gesture — the one recogniser both ways of recording use: the record page's screenshot
// (record.js) and, with `deskworld record --direct`, the apps' own page in a real window (direct.js).
//
// A press and release in place is a click (two or three in quick succession a double or triple click;
// the right button a right click), a press, move and release a drag (its path), the wheel a scroll (the
// deltas of one burst summed), printable keys typed text (a run of them one type action), any other key
// or a chord (ctrl+a, shift+Tab) a key action, and the pointer resting still for a moment a move (hover).
//
// DeskGestures(o) wires the handlers through o.on(type, fn) and calls back:
//   o.point(e) -> {x, y}   the event's point in screenshot pixels;  o.inside(e) -> bool  on the screen;
//   o.enqueue(action)      a finished action;  o.began()  a gesture began;  o.idle()  the state changed;
//   o.error(text)          a gesture that can't be an action;  o.focus()  (optional) take the keyboard;
//   o.hover                (optional) false: the pointer resting is no action (a real window shows hover itself).
// It returns {settle, busy}: settle() sends whatever is still gathering, busy() says whether anything is.
window.DeskGestures = function (o) {
  'use strict';
  const CLICK_GAP_MS = 350;     // a second press sooner than this is a double click
  const TEXT_GAP_MS = 700;      // typed text is sent once the keys pause this long
  const WHEEL_GAP_MS = 250;     // a wheel burst ends after this pause
  const HOVER_MS = 600;         // the pointer resting this long is a hover
  const DRAG_PX = 5;            // a press that moves further is a drag
  const MAX_DRAG_POINTS = 100;
  const BUTTONS = ['left', 'middle', 'right'];
  const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph', 'Dead', 'Unidentified']);
  const KEY_NAMES = {' ': 'space', '+': 'plus'};
  const S = {click: null, clickTimer: null, text: '', textTimer: null, wheel: null, wheelTimer: null, drag: null,
             hoverTimer: null, hovering: false, lastPoint: null, ptr: null};
  const mods = (e) => ['ctrl', 'alt', 'shift', 'meta'].filter((m) => e[m + 'Key']);
  const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

  // Mouse events carry whole CSS pixels; the pointer events just before them carry the fractions a
  // scaled or sub-pixel-placed picture needs to be exact. Use those when they are of the same spot.
  for (const t of ['pointerdown', 'pointermove', 'pointerup']) o.on(t, (e) => { S.ptr = e; });
  function point(e) {
    if (S.ptr && Math.abs(S.ptr.clientX - e.clientX) < 1 && Math.abs(S.ptr.clientY - e.clientY) < 1) e = S.ptr;
    return o.point(e);
  }

  // Whatever is still gathering (a click that may become a double click, a wheel burst, typed text)
  // goes out before the next gesture, so actions keep the order they were made in.
  function settle() {
    clearTimeout(S.clickTimer);
    clearTimeout(S.wheelTimer);
    clearTimeout(S.textTimer);
    sendClick();
    sendWheel();
    sendText();
  }

  function sendClick() {
    const c = S.click;
    if (!c) return;
    S.click = null;
    const kind = {1: 'click', 2: 'double_click', 3: 'triple_click'}[Math.min(c.count, 3)];
    const a = {type: kind, x: c.x, y: c.y};
    if (kind === 'click' && c.button !== 'left') a.button = c.button;
    if (c.mods.length) a.modifiers = c.mods;
    o.enqueue(a);
  }

  function sendWheel() {
    const w = S.wheel;
    if (!w) return;
    S.wheel = null;
    const dx = Math.round(w.dx), dy = Math.round(w.dy);
    if (dx || dy) o.enqueue({type: 'scroll', x: w.x, y: w.y, dx, dy});
    else o.idle();
  }

  function sendText() {
    if (!S.text) return;
    const text = S.text;
    S.text = '';
    o.enqueue({type: 'type', text});
  }

  o.on('mousedown', (e) => {
    if (!o.inside(e)) return;
    e.preventDefault();
    if (o.focus) o.focus();
    cancelHover();
    const p = point(e);
    const button = BUTTONS[e.button] || 'left';
    const more = S.click && e.detail > 1 && S.click.button === button && dist(S.click, p) <= 6;
    clearTimeout(S.clickTimer);
    if (!more) { settle(); o.began(); }
    else { clearTimeout(S.wheelTimer); clearTimeout(S.textTimer); sendWheel(); sendText(); }
    S.drag = {button, start: p, path: [p], moved: false, mods: mods(e)};
    o.idle();
  });

  o.on('mousemove', (e) => {
    if (S.drag) {
      const p = point(e), last = S.drag.path[S.drag.path.length - 1];
      if (dist(p, S.drag.start) > DRAG_PX) S.drag.moved = true;
      if (dist(p, last) >= 6 && S.drag.path.length < MAX_DRAG_POINTS - 1) S.drag.path.push(p);
      return;
    }
    if (!o.inside(e) || e.buttons || o.hover === false) { cancelHover(); o.idle(); return; }   // left the screen
    scheduleHover(point(e));
  });

  o.on('mouseup', (e) => {
    const d = S.drag;
    if (!d) return;
    S.drag = null;
    const p = point(e);
    S.lastPoint = p;
    if (d.moved) {
      const path = d.path.slice();
      if (dist(path[path.length - 1], p) > 0) path.push(p);
      const a = {type: 'drag', path};
      if (d.mods.length) a.modifiers = d.mods;
      S.click = null;
      o.enqueue(a);
      return;
    }
    const count = S.click && e.detail > 1 ? Math.max(e.detail, S.click.count + 1) : 1;
    S.click = {x: d.start.x, y: d.start.y, button: d.button, mods: d.mods, count};
    clearTimeout(S.clickTimer);
    if (count >= 3) sendClick();
    else S.clickTimer = setTimeout(() => { sendClick(); }, CLICK_GAP_MS);
    o.idle();
  });

  o.on('contextmenu', (e) => e.preventDefault());
  o.on('dragstart', (e) => e.preventDefault());

  o.on('wheel', (e) => {
    if (!o.inside(e)) return;
    e.preventDefault();
    cancelHover();
    if (!S.wheel) {
      clearTimeout(S.clickTimer); clearTimeout(S.textTimer); sendClick(); sendText();
      o.began();
      S.wheel = {...point(e), dx: 0, dy: 0};
    }
    const k = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
    S.wheel.dx += e.deltaX * k;
    S.wheel.dy += e.deltaY * k;
    clearTimeout(S.wheelTimer);
    S.wheelTimer = setTimeout(sendWheel, WHEEL_GAP_MS);
    o.idle();
  });

  function scheduleHover(p) {
    clearTimeout(S.hoverTimer);
    S.hovering = true;
    o.idle();
    S.hoverTimer = setTimeout(() => {
      S.hovering = false;
      if (S.drag || S.click || S.text || S.wheel || (S.lastPoint && dist(S.lastPoint, p) <= 8)) { o.idle(); return; }
      S.lastPoint = p;
      o.began();
      o.enqueue({type: 'move', x: p.x, y: p.y});
    }, HOVER_MS);
  }
  function cancelHover() { clearTimeout(S.hoverTimer); S.hovering = false; }

  o.on('keydown', (e) => {
    if (MODIFIER_KEYS.has(e.key) || e.isComposing) return;
    e.preventDefault();
    cancelHover();
    const chord = e.ctrlKey || e.metaKey || (e.altKey && e.key.length !== 1);
    if (e.key.length === 1 && !chord && !e.altKey) {
      clearTimeout(S.clickTimer); clearTimeout(S.wheelTimer); sendClick(); sendWheel();
      if (!S.text) o.began();
      S.text += e.key;
      clearTimeout(S.textTimer);
      S.textTimer = setTimeout(sendText, TEXT_GAP_MS);
      o.idle();
      return;
    }
    settle();
    o.began();
    let key = KEY_NAMES[e.key] || e.key;
    if (key.length === 1) {
      if (key.charCodeAt(0) > 0x7e) { o.error(`the key ${key} can't be pressed in a chord; type it instead`); return; }
      key = key.toLowerCase();
    }
    const m = mods(e).filter((x) => !(x === 'shift' && e.key.length === 1 && !chord));
    o.enqueue({type: 'key', keys: [...m, key].join('+')});
  });

  return {
    settle,
    busy: () => !!(S.click || S.text || S.wheel || S.drag || S.hovering),
    pending: () => !!(S.text || S.click),
  };
};
