// deskworld record: a person's input on the episode's screenshot, sent as deskworld actions.
//
// Each gesture becomes one action (gestures.js says which), sent in order, one at a time (the next
// waits for the env's step). Coordinates are the screenshot's pixels, whatever size the picture is
// shown at.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const shot = $('shot'), screen = $('screen');
  const S = {version: -1, phase: 'starting', state: {}, inflight: false, queue: [], shown: -1, loading: false,
             shownAt: performance.now(), gestureAt: null};
  let G = null;                    // the gesture recogniser (below)

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
    if (!RECORD.direct && ['acting', 'verdict', 'finished'].includes(st.phase) && S.shown !== st.version) {
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
    const busy = S.inflight || S.queue.length || (G && G.busy()) || S.loading;
    const ready = S.phase === 'acting' && !busy;
    document.body.dataset.idle = ready ? 'true' : 'false';
    $('status').textContent = {starting: 'Starting…', verdict: 'Task ended', finished: 'Finished',
                               failed: 'Failed'}[S.phase] || (ready ? 'Your turn' : 'Working…');
    $('status').dataset.ready = ready ? 'true' : 'false';
  }

  // ------------------------------------------------------------------ gestures → actions
  const inside = (e) => {
    const r = shot.getBoundingClientRect();
    return e.clientX >= r.left && e.clientX < r.right && e.clientY >= r.top && e.clientY < r.bottom;
  };
  const ON_SCREEN = new Set(['mousedown', 'contextmenu', 'dragstart', 'wheel', 'keydown']);
  G = window.DeskGestures({
    on: (type, fn) => (ON_SCREEN.has(type) ? screen : window).addEventListener(type, fn,
                                                                              type === 'wheel' ? {passive: false} : true),
    point(e) {
      const r = shot.getBoundingClientRect();
      const w = shot.naturalWidth || 1280, h = shot.naturalHeight || 800;
      const x = Math.round((e.clientX - r.left) * w / r.width), y = Math.round((e.clientY - r.top) * h / r.height);
      return {x: Math.min(Math.max(x, 0), w - 1), y: Math.min(Math.max(y, 0), h - 1)};
    },
    inside, enqueue, began, idle, error: showError,
    focus: () => screen.focus({preventScroll: true}),
  });
  const settle = G.settle;

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
    if (S.queue.length || G.pending() || S.inflight) { e.preventDefault(); e.returnValue = ''; }
  });

  poll();
})();
