// deskworld record: a person's input on the episode's screenshot, sent as deskworld actions.
//
// Each gesture becomes one action, sent in order, one at a time (the next waits for the env's step):
// a press and release in place is a click (two or three in quick succession a double or triple click;
// the right button a right click), a press, move and release a drag (its path), the wheel a scroll (the
// deltas of one burst summed), printable keys typed text (a run of them one type action), any other key
// or a chord (ctrl+a, shift+Tab) a key action, and the pointer resting still for a moment a move (hover).
// Coordinates are the screenshot's pixels, whatever size the picture is shown at.
(() => {
  'use strict';
  const CLICK_GAP_MS = 350;     // a second press sooner than this is a double click
  const TEXT_GAP_MS = 700;      // typed text is sent once the keys pause this long
  const WHEEL_GAP_MS = 250;     // a wheel burst ends after this pause
  const HOVER_MS = 600;         // the pointer resting this long is a hover
  const DRAG_PX = 5;            // a press that moves further is a drag
  const MAX_DRAG_POINTS = 100;

  const $ = (id) => document.getElementById(id);
  const shot = $('shot'), screen = $('screen');
  const S = {version: -1, phase: 'starting', state: {}, inflight: false, queue: [], click: null, clickTimer: null,
             text: '', textTimer: null, wheel: null, wheelTimer: null, drag: null, hoverTimer: null,
             lastPoint: null, ptr: null, hovering: false, shown: -1, loading: false, shownAt: performance.now(), gestureAt: null};

  // ------------------------------------------------------------------ talking to the server
  async function post(path, body) {
    const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json',
      [RECORD.csrfHeader]: RECORD.csrf}, body: JSON.stringify(body || {})});
    let data = {};
    try { data = await r.json(); } catch (e) { /* an empty or non-JSON body */ }
    return {ok: r.ok, status: r.status, data};
  }

  async function poll() {
    for (;;) {
      try {
        const r = await fetch('/state?after=' + S.version);
        if (r.ok) render(await r.json());
        else await pause(1000);
      } catch (e) {
        await pause(1000);             // the server restarting, the tunnel dropping: try again
      }
    }
  }
  const pause = (ms) => new Promise((res) => setTimeout(res, ms));

  // When the person began a gesture, measured against the moment the screen they were looking at
  // appeared: what the step's "person" timing records (the env's time and the page's delays apart).
  function began() {
    if (S.gestureAt === null) S.gestureAt = {at: performance.now(), shown: S.shownAt};
  }

  function enqueue(action) {
    const g = S.gestureAt || {at: performance.now(), shown: S.shownAt};
    S.gestureAt = null;
    const now = performance.now();
    action = {action, timing: {look_ms: Math.max(0, Math.round(g.at - g.shown)), gesture_ms: Math.round(now - g.at)}};
    S.queue.push(action);
    pump();
    idle();
  }

  async function pump() {
    if (S.inflight || S.phase !== 'acting' || !S.queue.length) return;
    const item = S.queue.shift();
    S.inflight = true;
    idle();
    const r = await post('/act', item);
    S.inflight = false;
    if (r.ok) {
      render(r.data);
    } else if (r.status === 409) {
      S.queue.unshift(item);             // not our turn yet: send it when it is
      if (r.data.state) render(r.data.state);
    } else {
      showError(r.data.message || ('the action was refused (' + r.status + ')'));
    }
    idle();
    pump();
  }

  // ------------------------------------------------------------------ what the page shows
  function render(st) {
    if (!st || st.version < S.version) return;
    S.version = st.version;
    S.phase = st.phase;
    S.state = st;
    document.body.dataset.phase = st.phase;
    $('progress').textContent = st.total ? `Task ${st.index} of ${st.total}` : '';
    $('task-title').textContent = st.title || 'Task';
    // the prompt's own line breaks inside a paragraph are the file's wrapping, not the writer's
    $('goal').textContent = (st.goal || '').replace(/([^\n])\n(?!\n)/g, '$1 ');
    $('steps').textContent = st.max_steps ? `Step ${st.step || 0} of ${st.max_steps}` : '';
    if (document.activeElement !== $('address')) $('address').value = st.url || '';
    $('ask-box').hidden = !st.can_ask;
    if (st.error) showError(st.error); else $('action-error').hidden = true;
    $('reply').hidden = !st.user_reply;
    $('reply').textContent = st.user_reply ? 'Reply: ' + st.user_reply : '';
    const veil = {starting: 'Starting the task…', failed: 'The environment failed: ' + (st.message || '')}[st.phase];
    $('veil').hidden = !veil;
    $('veil-text').textContent = veil || '';
    if (['acting', 'verdict', 'finished'].includes(st.phase) && S.shown !== st.version) {
      S.loading = true;
      S.shown = st.version;
      shot.src = '/screen.png?v=' + st.version;
    }
    verdict(st);
    idle();
    pump();
  }

  shot.addEventListener('load', () => { S.loading = false; S.shownAt = performance.now(); idle(); });
  shot.addEventListener('error', () => { S.loading = false; idle(); });

  function verdict(st) {
    const box = $('verdict'), v = st.verdict, s = st.summary;
    const end = st.phase === 'finished';
    if (!(st.phase === 'verdict' && v) && !end) { box.hidden = true; return; }
    box.hidden = false;
    box.dataset.passed = v ? (v.passed ? 'true' : 'false') : '';
    const hidden = v && v.hidden;
    $('verdict-title').textContent = !v ? 'All done' : v.status === 'error' ? 'The environment broke (not your fault)'
      : hidden ? 'Task submitted' : v.passed ? 'Passed' : 'Not passed';
    if (hidden) box.dataset.passed = '';
    const sub = v ? [(hidden ? '' : `score ${Number(v.score || 0).toFixed(2)} · `) +
                     `${v.steps} step${v.steps === 1 ? '' : 's'} · ${v.seconds} s`] : [];
    if (end && s) sub.push(s.hidden ? `All done — ${s.tasks} task${s.tasks === 1 ? '' : 's'} recorded, thank you`
      : `All done — ${s.passed} of ${s.tasks} task${s.tasks === 1 ? '' : 's'} passed, thank you`);
    $('verdict-sub').textContent = sub.join(' · ');
    $('verdict-lines').replaceChildren(...((v && v.lines) || []).map((t) => {
      const li = document.createElement('li');
      li.textContent = t;
      return li;
    }));
    $('next').hidden = end;
  }

  function showError(text) {
    $('action-error').hidden = false;
    $('action-error').textContent = 'Last action: ' + text;
  }

  // Idle: nothing typed, pressed or scrolled waits to be sent, nothing is in flight, and the screen shown
  // is the latest. (Tests wait for it; people see it in the status pill.)
  function idle() {
    const busy = S.inflight || S.queue.length || S.click || S.text || S.wheel || S.drag || S.hovering || S.loading;
    const ready = S.phase === 'acting' && !busy;
    document.body.dataset.idle = ready ? 'true' : 'false';
    $('status').textContent = {starting: 'Starting…', verdict: 'Task ended', finished: 'Finished',
                               failed: 'Failed'}[S.phase] || (ready ? 'Your turn' : 'Working…');
    $('status').dataset.ready = ready ? 'true' : 'false';
  }

  // ------------------------------------------------------------------ gestures → actions
  // Mouse events carry whole CSS pixels; the pointer events just before them carry the fractions a
  // scaled or sub-pixel-placed picture needs to be exact. Use those when they are of the same spot.
  window.addEventListener('pointerdown', (e) => { S.ptr = e; }, true);
  window.addEventListener('pointermove', (e) => { S.ptr = e; }, true);
  window.addEventListener('pointerup', (e) => { S.ptr = e; }, true);

  function point(e) {
    if (S.ptr && Math.abs(S.ptr.clientX - e.clientX) < 1 && Math.abs(S.ptr.clientY - e.clientY) < 1) e = S.ptr;
    const r = shot.getBoundingClientRect();
    const w = shot.naturalWidth || 1280, h = shot.naturalHeight || 800;
    const x = Math.round((e.clientX - r.left) * w / r.width), y = Math.round((e.clientY - r.top) * h / r.height);
    return {x: Math.min(Math.max(x, 0), w - 1), y: Math.min(Math.max(y, 0), h - 1)};
  }
  const inside = (e) => {
    const r = shot.getBoundingClientRect();
    return e.clientX >= r.left && e.clientX < r.right && e.clientY >= r.top && e.clientY < r.bottom;
  };
  const mods = (e) => ['ctrl', 'alt', 'shift', 'meta'].filter((m) => e[m + 'Key']);
  const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
  const BUTTONS = ['left', 'middle', 'right'];

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
    enqueue(a);
  }

  function sendWheel() {
    const w = S.wheel;
    if (!w) return;
    S.wheel = null;
    const dx = Math.round(w.dx), dy = Math.round(w.dy);
    if (dx || dy) enqueue({type: 'scroll', x: w.x, y: w.y, dx, dy});
    else idle();
  }

  function sendText() {
    if (!S.text) return;
    const text = S.text;
    S.text = '';
    enqueue({type: 'type', text});
  }

  screen.addEventListener('mousedown', (e) => {
    if (!inside(e)) return;
    e.preventDefault();
    screen.focus({preventScroll: true});
    cancelHover();
    const p = point(e);
    const button = BUTTONS[e.button] || 'left';
    const more = S.click && e.detail > 1 && S.click.button === button && dist(S.click, p) <= 6;
    clearTimeout(S.clickTimer);
    if (!more) { settle(); began(); }
    else { clearTimeout(S.wheelTimer); clearTimeout(S.textTimer); sendWheel(); sendText(); }
    S.drag = {button, start: p, path: [p], moved: false, mods: mods(e)};
    idle();
  });

  window.addEventListener('mousemove', (e) => {
    if (S.drag) {
      const p = point(e), last = S.drag.path[S.drag.path.length - 1];
      if (dist(p, S.drag.start) > DRAG_PX) S.drag.moved = true;
      if (dist(p, last) >= 6 && S.drag.path.length < MAX_DRAG_POINTS - 1) S.drag.path.push(p);
      return;
    }
    if (!inside(e) || e.buttons) { cancelHover(); idle(); return; }     // left the screen: no hover
    scheduleHover(point(e));
  });

  window.addEventListener('mouseup', (e) => {
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
      enqueue(a);
      return;
    }
    const count = S.click && e.detail > 1 ? Math.max(e.detail, S.click.count + 1) : 1;
    S.click = {x: d.start.x, y: d.start.y, button: d.button, mods: d.mods, count};
    clearTimeout(S.clickTimer);
    if (count >= 3) sendClick();
    else S.clickTimer = setTimeout(() => { sendClick(); }, CLICK_GAP_MS);
    idle();
  });

  screen.addEventListener('contextmenu', (e) => e.preventDefault());
  screen.addEventListener('dragstart', (e) => e.preventDefault());

  screen.addEventListener('wheel', (e) => {
    if (!inside(e)) return;
    e.preventDefault();
    cancelHover();
    if (!S.wheel) {
      clearTimeout(S.clickTimer); clearTimeout(S.textTimer); sendClick(); sendText();
      began();
      S.wheel = {...point(e), dx: 0, dy: 0};
    }
    const k = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
    S.wheel.dx += e.deltaX * k;
    S.wheel.dy += e.deltaY * k;
    clearTimeout(S.wheelTimer);
    S.wheelTimer = setTimeout(sendWheel, WHEEL_GAP_MS);
    idle();
  }, {passive: false});

  function scheduleHover(p) {
    clearTimeout(S.hoverTimer);
    S.hovering = true;
    idle();
    S.hoverTimer = setTimeout(() => {
      S.hovering = false;
      if (S.drag || S.click || S.text || S.wheel || (S.lastPoint && dist(S.lastPoint, p) <= 8)) { idle(); return; }
      S.lastPoint = p;
      began();
      enqueue({type: 'move', x: p.x, y: p.y});
    }, HOVER_MS);
  }
  function cancelHover() { clearTimeout(S.hoverTimer); S.hovering = false; }

  const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph', 'Dead', 'Unidentified']);
  const KEY_NAMES = {' ': 'space', '+': 'plus'};

  screen.addEventListener('keydown', (e) => {
    if (MODIFIER_KEYS.has(e.key) || e.isComposing) return;
    e.preventDefault();
    cancelHover();
    const chord = e.ctrlKey || e.metaKey || (e.altKey && e.key.length !== 1);
    if (e.key.length === 1 && !chord && !e.altKey) {
      clearTimeout(S.clickTimer); clearTimeout(S.wheelTimer); sendClick(); sendWheel();
      if (!S.text) began();
      S.text += e.key;
      clearTimeout(S.textTimer);
      S.textTimer = setTimeout(sendText, TEXT_GAP_MS);
      idle();
      return;
    }
    settle();
    began();
    let key = KEY_NAMES[e.key] || e.key;
    if (key.length === 1) {
      if (key.charCodeAt(0) > 0x7e) { showError(`the key ${key} can't be pressed in a chord; type it instead`); return; }
      key = key.toLowerCase();
    }
    const m = mods(e).filter((x) => !(x === 'shift' && e.key.length === 1 && !chord));
    enqueue({type: 'key', keys: [...m, key].join('+')});
  });

  // ------------------------------------------------------------------ the buttons
  const act = (a) => { settle(); began(); enqueue(a); };
  $('back').addEventListener('click', () => act({type: 'back'}));
  $('wait').addEventListener('click', () => act({type: 'wait', ms: 1000}));
  $('nav').addEventListener('submit', (e) => {
    e.preventDefault();
    const url = $('address').value.trim();
    if (url) act({type: 'navigate', url});
    $('address').blur();
  });
  $('done').addEventListener('click', () => {
    const answer = $('answer').value.trim();
    act(answer ? {type: 'done', status: 'complete', answer} : {type: 'done', status: 'complete'});
  });
  $('infeasible').addEventListener('click', () => act({type: 'done', status: 'infeasible'}));
  $('ask').addEventListener('click', () => {
    const text = $('question').value.trim();
    if (!text) { showError('write a question first'); return; }
    $('question').value = '';
    act({type: 'ask_user', text});
  });
  $('next').addEventListener('click', async () => {
    $('answer').value = '';
    const r = await post('/next');
    if (r.ok) render(r.data);
    else if (r.data.state) render(r.data.state);
  });
  window.addEventListener('beforeunload', (e) => {
    if (S.queue.length || S.text || S.click || S.inflight) { e.preventDefault(); e.returnValue = ''; }
  });

  poll();
})();
