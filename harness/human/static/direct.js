// deskworld record --direct: the apps' own page in a real window, the person's input on it recorded as
// deskworld actions (after gestures.js, with window.__DW_DIRECT = {f, w, h}: screenshot pixels per CSS
// pixel and the screenshot's size).
//
// Nothing the person does reaches the page by itself: every input event is stopped in the capture phase
// and given to the gesture recogniser, whose actions go to deskworld (the __dwSend binding), which carries
// each one out through the agent's executor — so the page only ever gets the recorded actions' input, and
// a replay of the recording gets the same. While an action is carried out (hold(spec) … release()) the
// page lets through the input that action dispatches: mouse events at its points (every move of a drag),
// its key presses in their order (spec.keys: Playwright's key names). The person's input meanwhile is
// still stopped and recorded.
//
// The one input that can't be stopped is a scroll bar's own drag or click: it is undone when the button
// comes up, and the gesture (a drag or click on the scroll bar) is recorded and carried out like any other.
(() => {
  'use strict';
  if (window.top !== window || window.__dwDirect) return;
  const C = window.__DW_DIRECT || {f: 1, w: innerWidth, h: innerHeight};
  const TYPES = ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'pointerover', 'pointerout',
                 'pointerenter', 'pointerleave', 'mousedown', 'mousemove', 'mouseup', 'mouseover', 'mouseout',
                 'mouseenter', 'mouseleave', 'click', 'dblclick', 'auxclick', 'contextmenu', 'wheel', 'keydown',
                 'keypress', 'keyup', 'beforeinput', 'input', 'paste', 'cut', 'copy', 'dragstart', 'selectstart',
                 'touchstart', 'touchmove', 'touchend'];
  const KEYS = new Set(['keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'paste', 'cut', 'copy']);
  const MOVES = new Set(['pointermove', 'pointerover', 'pointerout', 'pointerenter', 'pointerleave', 'mousemove',
                         'mouseover', 'mouseout', 'mouseenter', 'mouseleave']);
  const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph']);
  const handlers = {};
  let pass = null;                 // while an action is carried out: its points (CSS px), budget, keys (hold)
  let shownAt = performance.now(), gestureAt = null, scrollbar = null;
  const D = window.__dwDirect = {last: null};     // last: the last stopped pointer event's point (where the window is)

  function send(msg) {
    try { window.__dwSend(msg); } catch (e) { /* the binding is gone: the window is closing */ }
  }

  function near(e) {
    return pass.points.some(([x, y]) => Math.abs(e.clientX - x) <= 1.5 && Math.abs(e.clientY - y) <= 1.5);
  }

  // Whether a key event is the action's: a key press the next one it makes (Playwright's names: its key, or
  // its code), a release of one it pressed, the characters its presses and its inserted text make.
  function keyOfAction(e) {
    if (e.type === 'keydown') {
      const want = pass.keys[pass.i];
      const ok = MODIFIERS.has(e.key) || (want !== undefined && (e.key === want || e.code === want
        || e.key.toLowerCase() === want.toLowerCase() || (want === ' ' && e.code === 'Space')));
      if (ok && !MODIFIERS.has(e.key)) pass.i += 1;
      if (ok) pass.down.add(e.code);
      return ok;
    }
    if (e.type === 'keyup') return pass.down.delete(e.code);
    return true;           // keypress, beforeinput, input, paste…: only a press that passed (or typed text) makes them
  }

  // Whether an event is the input of the action being carried out. Its presses and releases pass at its
  // points as many times as it makes them, its keys in their order; the person's input meanwhile is stopped
  // and recorded (a key of theirs that is the very key expected next passes in its place, and the action's
  // own is then stopped and recorded as the person's: the page and the recording still agree).
  function passes(e) {
    if (!pass) return false;
    if (KEYS.has(e.type)) return pass.keys !== null && keyOfAction(e);
    if (e.type === 'dragstart' || e.type === 'selectstart') return true;
    if (MOVES.has(e.type)) return pass.moves || ('clientX' in e && near(e));
    if (!('clientX' in e) || !near(e) || !(pass.budget[e.type] > 0)) return false;
    pass.budget[e.type] -= 1;
    return true;
  }

  function onEvent(e) {
    if (!e.isTrusted || passes(e)) return;          // the page's own script's events are its own
    if ('clientX' in e) D.last = {type: e.type, clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY};
    if (e.type === 'mousedown') scrollbar = onScrollbar(e);
    if (e.type === 'mouseup' && scrollbar) {       // the scroll bar moved on its own: undo it
      for (const fn of handlers.mousemove || []) fn(e);      // (no move reached the page while it dragged)
      const s = scrollbar;
      scrollbar = null;
      s.el.scrollLeft = s.left;
      s.el.scrollTop = s.top;
    }
    // (a cancelled pointerdown would take the mouse events after it away from the gesture recogniser too)
    if (e.cancelable && !e.type.startsWith('pointer')) e.preventDefault();
    e.stopImmediatePropagation();
    for (const fn of handlers[e.type] || []) fn(e);
  }

  // A press on a scroll bar (which no page script can stop): the element and where it was scrolled.
  function onScrollbar(e) {
    const root = document.scrollingElement || document.documentElement;
    if (e.clientX >= root.clientWidth || e.clientY >= root.clientHeight) {
      return {el: root, left: root.scrollLeft, top: root.scrollTop};
    }
    const el = e.target;
    if (!(el instanceof Element)) return null;
    const r = el.getBoundingClientRect();
    const x = e.clientX - r.left - el.clientLeft, y = e.clientY - r.top - el.clientTop;
    if ((x >= el.clientWidth && el.scrollHeight > el.clientHeight) || (y >= el.clientHeight && el.scrollWidth > el.clientWidth)) {
      return {el, left: el.scrollLeft, top: el.scrollTop};
    }
    return null;
  }

  for (const t of TYPES) window.addEventListener(t, onEvent, {capture: true, passive: false});

  const G = window.DeskGestures({
    on: (type, fn) => { (handlers[type] = handlers[type] || []).push(fn); },
    point: (e) => ({x: Math.min(Math.max(Math.round(e.clientX * C.f), 0), C.w - 1),
                    y: Math.min(Math.max(Math.round(e.clientY * C.f), 0), C.h - 1)}),
    inside: () => true,
    hover: false,            // resting the pointer is no step here: the window shows CSS hover itself, and
                             // an action's own pointer move brings a page's hover script with it
    began() { if (gestureAt === null) gestureAt = performance.now(); },
    enqueue(action) {
      const now = performance.now(), at = gestureAt === null ? now : gestureAt;
      gestureAt = null;
      send({action, timing: {look_ms: Math.max(0, Math.round(at - shownAt)), gesture_ms: Math.round(now - at)}});
    },
    idle() {},
    error: (text) => send({error: text}),
  });

  // A page that goes away (an action's navigation) sends what was still gathering (a click that might have
  // become a double click, a run of typed text) rather than losing it.
  window.addEventListener('pagehide', () => G.settle(), true);

  // deskworld's side: hold(spec) before an action's input is dispatched, release() after its step.
  D.hold = (spec) => {
    pass = {points: spec.points || [], moves: !!spec.moves, budget: {...(spec.budget || {})},
            keys: spec.keys || null, i: 0, down: new Set()};
  };
  D.release = () => { pass = null; shownAt = performance.now(); };
  D.busy = () => G.busy();
  D.settle = () => G.settle();
})();
