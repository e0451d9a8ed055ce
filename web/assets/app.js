// The page of `vzero web`: run dashboards (polled live), recorded games, and play through a JSON session.
'use strict';
const TOKEN = document.querySelector('meta[name="vzero-token"]').content;
const $ = (id) => document.getElementById(id);

// A request to the server with the launch's token; the JSON reply, or an Error with the server's message.
async function api(path, body) {
  const init = { headers: { 'X-Vzero-Token': TOKEN } };
  if (body !== undefined) {
    init.method = 'POST';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = text; }
  if (!res.ok) throw new Error(data && data.error ? data.error : `${res.status} ${text}`);
  return data;
}

// An HTML element of tag with text and attributes.
function h(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------- tabs
for (const b of document.querySelectorAll('.tab')) {
  b.addEventListener('click', () => {
    for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t === b);
    $('page-runs').classList.toggle('hidden', b.dataset.tab !== 'runs');
    $('page-play').classList.toggle('hidden', b.dataset.tab !== 'play');
  });
}

// ---------------------------------------------------------------- dashboard
const runs = [];  // per run: {run, dir, data, card, stamp}

// The rows of a {header, rows} table as objects.
function records(table) {
  return (table.rows || []).map((r) => Object.fromEntries(table.header.map((k, i) => [k, r[i]])));
}

// A moving average of ys over a window of k (centred, shorter at the ends).
function smooth(points, k) {
  return points.map((p, i) => {
    const w = points.slice(Math.max(0, i - k), i + k + 1);
    return { x: p.x, y: w.reduce((a, q) => a + q.y, 0) / w.length };
  });
}

// The x of a generation on the chosen axis (generation, cumulative games, positions, hours or CPU
// hours: cpu_seconds, or seconds in rows written before that column).
function xMapper(metrics) {
  const axis = $('x-axis').value;
  const cum = { 0: { games: 0, positions: 0, hours: 0, cpu: 0 } };
  let games = 0, positions = 0, seconds = 0, cpu = 0;
  for (const m of metrics) {
    games += m.games || 0; positions += m.positions || 0; seconds += m.seconds || 0;
    cpu += typeof m.cpu_seconds === 'number' ? m.cpu_seconds : m.seconds || 0;
    cum[m.generation] = { games, positions, hours: seconds / 3600, cpu: cpu / 3600 };
  }
  return (g) => axis === 'generation' ? g : cum[g] ? cum[g][axis] : undefined;
}
// The x axis's name.
function xName() { return $('x-axis').selectedOptions[0].textContent; }

// Draws one run's card from its summary.
function renderRun(r) {
  const d = r.data;
  const card = r.card;
  card.querySelector('.run-dir').textContent = d.dir;
  card.querySelector('h2').textContent = d.name || d.dir;
  let metrics = records(d.metrics);
  const ratings = records(d.ratings);
  const lastGen = metrics.length ? metrics[metrics.length - 1].generation : 0;
  const minGen = $('recent').checked ? Math.max(0, lastGen - 19) : 0;
  const X = xMapper(metrics);
  metrics = metrics.filter((m) => m.generation >= minGen);
  // The ladder: generations as points with 95% intervals, other players as lines.
  const gens = [], fixed = [];
  for (const p of ratings) {
    const m = /^gen-(\d+)$/.exec(p.player);
    if (m) {
      const g = Number(m[1]);
      if (g < minGen || X(g) === undefined) continue;
      gens.push({ x: X(g), y: p.elo, lo: p.elo - p.margin, hi: p.elo + p.margin, label: String(p.games),
        title: `gen ${g}: ${p.elo.toFixed(0)} ± ${p.margin.toFixed(0)} Elo, ${p.games} games`,
        attrs: { 'data-gen': g, 'data-games': p.games } });
    } else {
      fixed.push(p);
    }
  }
  gens.sort((a, b) => a.x - b.x);
  const colours = ['#d1495b', '#4caf50', '#8e44ad', '#e67e22', '#16a085'];
  const ladder = [{ name: 'generations', kind: 'points', joined: true, colour: '#2d6cdf', points: gens }];
  fixed.forEach((p, k) => ladder.push({ name: `${p.player} (${p.elo.toFixed(0)})`, kind: 'hline', colour: colours[k % colours.length], points: [{ y: p.elo }] }));
  VChart.draw(card.querySelector('.ladder'), ladder, { cls: 'ladder-chart', xLabel: xName() + ' · Elo (gen-000 = 0), labels: games', empty: 'no ratings yet' });
  // A metric by generation, raw and (from five points on) smoothed; name: its legend text.
  const line = (key, colour, name, extra) => {
    const pts = metrics.filter((m) => typeof m[key] === 'number' && X(m.generation) !== undefined).map((m) => ({ x: X(m.generation), y: m[key] }));
    const out = [{ name: name || key, key, kind: 'line', colour, points: pts, opacity: pts.length > 4 ? 0.35 : 1, ...extra }];
    if (pts.length > 4) out.push({ name: key + ' (smoothed)', key: key + '-smoothed', kind: 'line', colour, points: smooth(pts, 2), width: 2.5, legend: false, ...extra });
    return out;
  };
  const chart = (cls, series, opts) => VChart.draw(card.querySelector(cls), series, { legend: true, xLabel: xName(), ...opts });
  // Losses and validation.
  chart('.loss', [...line('policy_loss', '#2d6cdf', 'policy loss'), ...line('value_loss', '#d1495b', 'value loss'), ...line('val_value_mse', '#e67e22', 'validation value MSE')]);
  // Self-play speed and the inference batches' fill.
  chart('.speed', [...line('selfplay_pos_per_s', '#4caf50', 'positions/s'), ...line('selfplay_evals_per_s', '#8e44ad', 'evals/s')]);
  chart('.batch', [...line('mean_batch', '#16a085', 'batch fill (positions per evaluator call)')]);
  // How self-play games ended, and the draws, as shares of each generation's games.
  const ends = [['end_mate', '#d1495b', 'mate'], ['end_repetition', '#2d6cdf', 'repetition'], ['end_cap', '#e67e22', 'move cap'],
    ['end_resign', '#8e44ad', 'resign'], ['end_other', '#7f8c8d', 'other']];
  chart('.ends', [...ends.flatMap(([k, c, n]) => line(k, c, n)), ...line('draw_share', '#222', 'draws', { dash: '5 3' })], { yMin: 0, yMax: 1 });
  const last = metrics[metrics.length - 1];
  card.querySelector('.speed-text').textContent = last
    ? `last generation: ${Number(last.selfplay_pos_per_s).toFixed(0)} positions/s, ${Number(last.selfplay_evals_per_s).toFixed(0)} evals/s, batch fill ${Number(last.mean_batch).toFixed(1)}, cache hits ${(100 * last.cache_hit_rate).toFixed(0)}%`
    : 'no generation finished yet';
  card.querySelector('.progress').textContent = d.progress.length ? d.progress.join('\n') : '(nothing in progress)';
  card.querySelector('.cfg').textContent = d.config || '(no config.toml)';
  // The generations with recorded games.
  const sel = card.querySelector('.gen-select');
  const before = sel.value;
  sel.replaceChildren(...d.record_generations.map((g) => h('option', { value: g }, `generation ${g}`)));
  if (d.record_generations.includes(Number(before))) sel.value = before;
  else if (d.record_generations.length) { sel.value = d.record_generations[d.record_generations.length - 1]; loadGames(r); }
}

// Lists the recorded games of the selected generation of a run.
async function loadGames(r) {
  const sel = r.card.querySelector('.gen-select');
  if (sel.value === '') return;
  const gen = Number(sel.value);
  let games;
  try {
    games = await api(`/api/games?run=${r.run}&gen=${gen}`);
  } catch (e) {
    r.card.querySelector('.games-summary').textContent = e.message;
    return;
  }
  const body = r.card.querySelector('.games tbody');
  const reasons = {};
  let draws = 0;
  body.replaceChildren(...games.map((g) => {
    reasons[g.reason] = (reasons[g.reason] || 0) + 1;
    if (g.result.every((v) => v === 0)) draws++;
    const tr = h('tr', { 'data-game': g.i });
    for (const v of [g.i, g.match, g.players.join(' – '), g.result.map((x) => (x > 0 ? '+' : '') + x).join(' '), g.reason, g.plies]) tr.appendChild(h('td', {}, String(v)));
    tr.addEventListener('click', () => openReplay(r, gen, g.i).catch((e) => {
      r.card.querySelector('.games-summary').textContent = e.message;
    }));
    return tr;
  }));
  const shares = Object.entries(reasons).map(([k, v]) => `${k} ${(100 * v / games.length).toFixed(0)}%`).join(', ');
  r.card.querySelector('.games-summary').textContent = games.length
    ? `${games.length} games; end reasons: ${shares}; draws ${(100 * draws / games.length).toFixed(0)}%` : 'no games';
}

// Builds the cards of every run and starts polling their folders.
async function startDashboard() {
  const info = await api('/api/runs');
  $('no-runs').classList.toggle('hidden', info.runs.length > 0);
  for (const run of info.runs) {
    const card = h('div', { class: 'run', 'data-run': run.run });
    card.innerHTML = `<h2></h2><div class="muted run-dir"></div>
      <h3>Ladder: Elo by generation, 95% intervals</h3><div class="ladder"></div>
      <div class="charts">
        <div><h3>Training</h3><div class="loss"></div></div>
        <div><h3>Self-play: positions/s and evaluations/s</h3><div class="speed"></div></div>
        <div><h3>Self-play: batch fill</h3><div class="batch"></div></div>
        <div><h3>Self-play: how games ended, and draws (shares of the games)</h3><div class="ends"></div></div>
      </div>
      <div class="muted speed-text"></div>
      <h3>Generation in progress</h3><pre class="progress config"></pre>
      <h3>Games</h3><div><select class="gen-select"></select> <span class="muted games-summary"></span></div>
      <div class="games-wrap"><table class="games"><thead><tr><th>#</th><th>match</th><th>players</th><th>result</th><th>end</th><th>plies</th></tr></thead><tbody></tbody></table></div>
      <details><summary>config.toml</summary><pre class="config cfg"></pre></details>`;
    $('runs').appendChild(card);
    const r = { run: run.run, dir: run.dir, card, stamp: null, data: null };
    card.querySelector('.gen-select').addEventListener('change', () => loadGames(r));
    runs.push(r);
  }
  startLive();
}

// Shows how the page follows the runs: mode 'sse' (the server's events), 'poll' (every 2 s) or
// 'down' (the server is unreachable), with a note.
const live = { mode: '', events: 0, polling: null, source: null };
function liveStatus(mode, note) {
  live.mode = mode;
  const el = $('live');
  el.dataset.mode = mode;
  el.dataset.events = live.events;
  const how = { sse: 'live (server-sent events)', poll: 'live (polling every 2 s)', down: 'server unreachable' }[mode];
  el.textContent = `${how} · ${note || new Date().toLocaleTimeString()}`;
}

// Takes a run's new summary: redraws its card, and its games list when one is shown.
function takeRun(r, stamp, data) {
  r.data = data;
  r.stamp = stamp;
  renderRun(r);
  if (r.card.querySelector('.gen-select').value !== '') loadGames(r);
}

// Follows the run folders by the server's events (/api/events); polls instead when the browser has
// no EventSource or the server refuses or ends the stream for good (too many streams open).
function startLive() {
  if (!window.EventSource) return startPolling('this browser has no EventSource');
  const source = new EventSource(`/api/events?t=${TOKEN}`);
  live.source = source;
  source.addEventListener('run', (ev) => {
    const m = JSON.parse(ev.data);
    const r = runs[m.run];
    live.events++;
    if (r && m.stamp !== r.stamp) takeRun(r, m.stamp, m.data);
    liveStatus('sse');
  });
  source.addEventListener('open', () => liveStatus('sse', 'connected'));
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) {  // refused (429, 403): no retry
      live.source = null;
      startPolling('no event stream');
    } else {
      liveStatus('down', 'reconnecting…');
    }
  });
}

// Polls the folders' stamps every 2 s (the fallback of the event stream).
function startPolling(why) {
  if (live.polling) return;
  liveStatus('poll', why);
  poll();
  live.polling = setInterval(poll, 2000);
}

// Fetches the runs whose folders changed since the last look.
async function poll() {
  try {
    const stamps = await api('/api/stamps');
    for (const r of runs) {
      if (stamps[r.run] === r.stamp) continue;
      takeRun(r, stamps[r.run], await api(`/api/run?run=${r.run}`));
    }
    liveStatus('poll');
  } catch (e) {
    liveStatus('down', e.message);
  }
}
for (const id of ['x-axis', 'recent']) $(id).addEventListener('change', () => runs.forEach((r) => r.data && renderRun(r)));

// ---------------------------------------------------------------- replay
const replay = { game: null, ply: 0, flip: false };

// Opens game i of generation gen of a run in the replay view.
async function openReplay(r, gen, i) {
  replay.game = await api(`/api/game?run=${r.run}&gen=${gen}&i=${i}`);
  replay.ply = 0;
  const g = replay.game;
  $('replay-title').textContent = `${r.data.name} · generation ${gen} · game ${i}: ${g.players.join(' – ')} · ${g.result.join(' ')} (${g.reason})`;
  const pgn = $('replay-pgn');
  pgn.classList.toggle('hidden', !g.pgn);
  pgn.href = `/api/game.pgn?run=${r.run}&gen=${gen}&i=${i}&t=${TOKEN}`;
  $('replay-moves').replaceChildren(...g.moves.map((m, k) => {
    const li = h('li', { 'data-ply': k + 1 }, m);
    li.addEventListener('click', () => showPly(k + 1));
    return li;
  }));
  $('replay').classList.remove('hidden');
  showPly(0);
  $('replay').scrollIntoView();
}

// Shows the replayed game after ply plies.
function showPly(ply) {
  const g = replay.game;
  if (!g) return;
  replay.ply = Math.max(0, Math.min(g.moves.length, ply));
  const fen = g.fens[replay.ply];
  const a = replay.ply > 0 ? VBoard.parseAction(g.moves[replay.ply - 1]) : {};
  VBoard.draw($('replay-board'), VBoard.parseFen(g.variant, fen), { flip: replay.flip, last: [a.from, a.to].filter(Boolean) });
  $('replay-fen').textContent = fen;
  renderNotes($('replay-info'), VBoard.parseFen(g.variant, fen));
  const ply_el = $('replay-ply');
  ply_el.textContent = `ply ${replay.ply} of ${g.moves.length}` + (g.opening_plies ? ` (the opening: ${g.opening_plies})` : '');
  ply_el.dataset.ply = replay.ply;
  ply_el.dataset.total = g.moves.length;
  for (const li of $('replay-moves').children) li.classList.toggle('current', Number(li.dataset.ply) === replay.ply);
}
$('replay-first').addEventListener('click', () => showPly(0));
$('replay-prev').addEventListener('click', () => showPly(replay.ply - 1));
$('replay-next').addEventListener('click', () => showPly(replay.ply + 1));
$('replay-last').addEventListener('click', () => showPly(Infinity));
$('replay-flip').addEventListener('click', () => { replay.flip = !replay.flip; showPly(replay.ply); });
$('replay-close').addEventListener('click', () => { $('replay').classList.add('hidden'); replay.game = null; });
document.addEventListener('keydown', (ev) => {
  if (!replay.game || $('page-runs').classList.contains('hidden') || ev.target.tagName === 'INPUT') return;
  const to = { ArrowLeft: replay.ply - 1, ArrowRight: replay.ply + 1, Home: 0, End: Infinity }[ev.key];
  if (to !== undefined) { ev.preventDefault(); showPly(to); }
});

// Shows a position's notes (World chess: the pools and the jokers' powers) in box.
function renderNotes(box, pos) {
  const notes = VBoard.notes(pos);
  box.replaceChildren(...notes.map((n) => h('div', { class: 'note ' + n.kind, 'data-seat': n.seat,
    ...(n.kind === 'pool' ? { 'data-pool': n.letters } : { 'data-power': n.power }) }, n.text)));
  box.classList.toggle('hidden', notes.length === 0);
}

// ---------------------------------------------------------------- play
const play = { session: null, state: null, legal: [], seat: 0, selected: null, hand: null, flip: false,
  arrows: [], busy: false, engineMoves: 0, variants: [], fen: '' };

// One request line to the game's JSON session (docs/protocol.md); its reply.
function session(request) { return api(`/api/session?s=${play.session}`, JSON.stringify(request)); }

// Fills the variant and seat choosers.
async function startPlay() {
  const data = await api('/api/variants');
  play.variants = data.variants;
  $('play-variant').replaceChildren(...data.variants.map((v) => h('option', { value: v.id }, `${v.name} (${v.id})`)));
  $('play-variant').value = data.variants.some((v) => v.id === 'losalamos') ? 'losalamos' : data.variants[0].id;
  const seats = () => {
    const v = play.variants.find((x) => x.id === $('play-variant').value);
    $('play-seat').replaceChildren(...Array.from({ length: v.players }, (_, k) => h('option', { value: k }, `seat ${k}`)));
  };
  $('play-variant').addEventListener('change', seats);
  seats();
}

// Shows an error of the play page ('' hides it).
function playError(text) {
  $('play-error').textContent = text;
  $('play-error').classList.toggle('hidden', !text);
}

// Starts a new game in a new session from the form.
async function newGame(ev) {
  if (ev) ev.preventDefault();
  playError('');
  play.state = null;  // nothing of the last game stays on the page while the new one starts
  play.legal = [];
  $('play-fen-out').textContent = '';
  $('play-moves').replaceChildren();
  $('play-board').replaceChildren();
  renderStatus('starting…');
  try {
    if (play.session) api(`/api/session/close?s=${play.session}`, '{}').catch(() => {});
    play.session = (await api('/api/session/new', '{}')).session;
    const request = { cmd: 'start', variant: $('play-variant').value, player: $('play-player').value.trim() || 'auto' };
    if ($('play-fen').value.trim()) request.fen = $('play-fen').value.trim();
    play.seat = Number($('play-seat').value);
    play.flip = play.seat === 1;
    play.engineMoves = 0;
    play.arrows = [];
    play.values = null;
    renderValues();
    $('play-pgn-out').classList.add('hidden');
    const state = await session(request);
    play.fen = state.fen;  // the start position, for the PGN
    await setState(state);
    await engineTurns();
  } catch (e) {
    playError(e.message);
    renderStatus('');
  }
}

// Takes a state reply and the legal actions that go with it, and redraws.
async function setState(state) {
  play.state = state;
  play.legal = state.terminal ? [] : (await session({ cmd: 'legal' })).actions;
  play.selected = null;
  play.hand = null;
  renderPlay();
}

// Lets the engine act while it is not the person's turn; the value bars then show its last search
// (or, for a player without one, a cheap evaluation; at the end, the result).
async function engineTurns() {
  let valued = false;
  while (play.state && !play.state.terminal && play.state.to_move !== play.seat) {
    play.busy = true;
    renderStatus('the engine is thinking…');
    const reply = await session({ cmd: 'pick', apply: true });
    play.engineMoves++;
    play.arrows = [];
    if (reply.value) {
      setValues(reply.value, 'search', `the engine's search for seat ${reply.seat} (it played ${reply.action})`);
      valued = true;
    }
    await setState(reply);
  }
  if (!valued || (play.state && play.state.terminal)) await evaluate();
  play.busy = false;
  renderStatus();
}

// Sets the value bars: values per seat in [-1, 1], their source ('search', 'evaluation', 'analysis',
// 'result') and a note of it.
function setValues(values, source, note, best) {
  play.values = { values, source, note, best };
  renderValues();
}

// Value bars from a cheap look at the position: a one-playout analysis (the player's evaluator, or
// the heuristic one); the returns once the game is over.
async function evaluate() {
  const s = play.state;
  if (!s) return;
  if (s.terminal) return setValues(s.returns, 'result', `the result: ${s.end_reason}`);
  try {
    const a = await session({ cmd: 'analyse', sims: 1, top: 1 });
    setValues(a.value, 'evaluation', 'a quick evaluation of the position (one playout)');
  } catch (e) {
    playError(e.message);
  }
}

// Draws one value bar per seat (play.values).
function renderValues() {
  const box = $('values');
  const v = play.values;
  if (!v || !play.state) return box.replaceChildren();
  box.dataset.source = v.source;
  const variant = play.state.variant;
  box.replaceChildren(h('div', { class: 'muted values-note' }, v.note), ...v.values.map((x, seat) => {
    const row = h('div', { 'data-seat': seat, 'data-value': x });
    row.appendChild(h('label', {}, `seat ${seat}: ${x >= 0 ? '+' : ''}${x.toFixed(2)}` + (v.best && seat === v.best.seat ? ` · best ${v.best.action}` : '')));
    const bar = h('div', { class: 'bar' });
    const fill = h('i');
    fill.style.width = `${(50 + 50 * Math.max(-1, Math.min(1, x))).toFixed(1)}%`;
    fill.style.background = VBoard.seatColour(variant, seat) === '#f4f1e8' ? '#c9b98a' : VBoard.seatColour(variant, seat);
    bar.appendChild(fill);
    row.appendChild(bar);
    return row;
  }));
}

// Runs work with the board busy; shows its error, if any, and calls after() once it ends.
async function whileBusy(work, after) {
  play.busy = true;
  try {
    await work();
  } catch (e) {
    playError(e.message);
  } finally {
    play.busy = false;
    after();
  }
}

// Plays the person's action, then the engine's answers.
async function act(action) {
  if (play.busy) return;
  await whileBusy(async () => {
    $('chooser').classList.add('hidden');
    play.arrows = [];
    await setState(await session({ cmd: 'apply', action }));
    await engineTurns();
  }, renderStatus);
}

// Plays one of the candidates, asking which when there are several (promotions).
function choose(candidates) {
  if (candidates.length === 1) return act(candidates[0]);
  const box = $('chooser');
  box.replaceChildren(h('span', {}, 'which one? '), ...candidates.map((c) => {
    const suffix = VBoard.parseAction(c).suffix;
    const name = suffix ? VBoard.pieceName(play.state.variant, suffix) : '';
    const b = h('button', { 'data-action': c }, name ? `${c} (${name})` : c);
    b.addEventListener('click', () => act(c));
    return b;
  }), (() => { const b = h('button', {}, 'cancel'); b.addEventListener('click', () => box.classList.add('hidden')); return b; })());
  box.classList.remove('hidden');
}

// The legal actions from one square to another, or of a drop of letter on a square.
function candidates(from, to) { return play.legal.filter((a) => { const p = VBoard.parseAction(a); return p.from === from && p.to === to; }); }
function dropCandidates(letter, to) { return play.legal.filter((a) => { const p = VBoard.parseAction(a); return p.drop === letter && p.to === to; }); }
// Whether the person may act now.
function myTurn() { return play.state && !play.state.terminal && play.state.to_move === play.seat && !play.busy; }

// A square pressed: a drop of the chosen hand piece, the end of a move (on the selected square itself
// an action in place, World chess's promotion of a waiting pawn), or the start of one.
function onDown(sq) {
  play.dragFrom = null;
  if (!myTurn()) return;
  if (play.hand) {
    const c = dropCandidates(play.hand, sq);
    if (c.length) return choose(c);
  }
  if (play.selected) {
    const c = candidates(play.selected, sq);
    if (c.length) return choose(c);
  }
  const from = play.legal.some((a) => VBoard.parseAction(a).from === sq);
  play.selected = from && play.selected !== sq ? sq : null;
  play.hand = null;
  play.dragFrom = play.selected;
  renderPlay();
}
// The pointer released over sq (null: off the board): the end of a move when a piece was dragged
// there from the square pressed.
function onUp(sq, dragged) {
  const from = play.dragFrom;
  play.dragFrom = null;
  if (!dragged || !from || !sq || from === sq || !myTurn()) return;
  const c = candidates(from, sq);
  if (c.length) choose(c);
}

// The status line ('' : whose turn it is, or how the game ended).
function renderStatus(text) {
  const s = play.state;
  const el = $('play-status');
  el.dataset.engineMoves = play.engineMoves;
  el.dataset.ply = s ? s.ply : 0;
  el.dataset.terminal = s ? s.terminal : false;
  if (text) { el.textContent = text; return; }
  if (!s) { el.textContent = 'Choose a variant and start a game.'; return; }
  el.textContent = s.terminal
    ? `Game over: ${s.end_reason}; returns ${s.returns.join(' ')}`
    : s.to_move === play.seat ? `Your move (seat ${play.seat})` : `Seat ${s.to_move} to move`;
}

// Redraws the board, hands, move list and FEN of the game.
function renderPlay() {
  const s = play.state;
  if (!s) return renderStatus();
  const pos = VBoard.parseFen(s.variant, s.fen);
  const targets = [];
  for (const a of play.legal) {
    const p = VBoard.parseAction(a);
    if ((play.selected && p.from === play.selected) || (play.hand && p.drop === play.hand)) targets.push(p.to);
  }
  const lastMove = s.moves.length ? VBoard.parseAction(s.moves[s.moves.length - 1]) : {};
  VBoard.draw($('play-board'), pos, { flip: play.flip, selected: play.selected, targets, last: [lastMove.from, lastMove.to].filter(Boolean),
    arrows: play.arrows, onDown, onUp });
  $('play-board').dataset.legal = JSON.stringify(play.legal);
  $('play-board').dataset.toMove = s.to_move;
  // Hands (from the FEN) and pieces to place (drops the FEN has no hand for).
  const dropLetters = new Set(play.legal.map((a) => VBoard.parseAction(a).drop).filter(Boolean));
  const handOf = (seat) => {
    const box = h('div', { class: 'hand', 'data-seat': seat });
    box.appendChild(h('span', { class: 'muted' }, `seat ${seat} hand:`));
    for (const p of pos.hands.filter((x) => x.seat === seat)) box.appendChild(handButton(pos, seat, p.letter, p.count, dropLetters));
    return box;
  };
  const top = [], bottom = [];
  if (pos.hasHands) {
    (play.flip ? bottom : top).push(handOf(1));
    (play.flip ? top : bottom).push(handOf(0));
  }
  const inHands = new Set(pos.hands.filter((x) => x.seat === s.to_move).map((x) => x.letter));
  const extra = [...dropLetters].filter((l) => !inHands.has(l));
  if (extra.length) {
    const box = h('div', { class: 'hand', 'data-seat': s.to_move });
    box.appendChild(h('span', { class: 'muted' }, `seat ${s.to_move} places:`));
    for (const l of extra) box.appendChild(handButton(pos, s.to_move, l, null, dropLetters));
    bottom.push(box);
  }
  $('hand-top').replaceChildren(...top);
  $('hand-bottom').replaceChildren(...bottom);
  $('play-moves').replaceChildren(...s.moves.map((m, k) => h('li', { 'data-ply': k + 1 }, m)));
  $('play-fen-out').textContent = s.fen;
  renderNotes($('play-info'), pos);
  renderValues();
  $('play-pgn').disabled = s.players !== 2;
  // Actions the board cannot show (anything that is not a move or a drop).
  const other = play.legal.filter((a) => { const p = VBoard.parseAction(a); return !p.to; });
  $('other-actions').replaceChildren(...other.map((a) => { const b = h('button', { 'data-action': a }, a); b.addEventListener('click', () => act(a)); return b; }));
  $('other-actions').classList.toggle('hidden', other.length === 0);
  renderStatus(play.busy ? 'the engine is thinking…' : '');
}

// A hand piece: clicking it chooses it for a drop when the seat to move may drop it.
function handButton(pos, seat, letter, count, dropLetters) {
  const b = h('button', { class: 'hand-piece', 'data-hand': letter, 'data-seat': seat }, count ? `${letter}×${count}` : letter);
  b.style.background = VBoard.seatColour(pos.variant, seat);
  b.style.color = seat === 1 && !VBoard.isAttrition(pos.variant) ? '#fff' : '#222';
  const usable = seat === play.state.to_move && dropLetters.has(letter);
  b.disabled = !usable;
  if (play.hand === letter && usable) b.classList.add('selected');
  b.addEventListener('click', () => {
    if (!myTurn()) return;
    play.hand = play.hand === letter ? null : letter;
    play.selected = null;
    renderPlay();
  });
  return b;
}

// Undoes the person's last action and the engine's answers to it.
async function undo() {
  if (!play.state || play.busy) return;
  await whileBusy(async () => {
    let state = play.state;
    do {
      state = await session({ cmd: 'undo' });
    } while (state.ply > 0 && state.to_move !== play.seat);
    play.arrows = [];
    await setState(state);
    await evaluate();
  }, renderStatus);
}

// Shows the engine's view: arrows weighted by visits and a value bar per seat.
async function hint() {
  if (!play.state || play.state.terminal || play.busy) return;
  await whileBusy(async () => {
    renderStatus('analysing…');
    const a = await session({ cmd: 'analyse', top: 5 });
    const most = Math.max(1, ...a.actions.map((x) => x.visits));
    play.arrows = a.actions.map((x) => ({ ...VBoard.parseAction(x.action), weight: x.visits / most })).filter((x) => x.to);
    setValues(a.value, 'analysis', `an analysis of ${a.visits} visits`, { seat: a.to_move, action: a.actions[0] ? a.actions[0].action : '-' });
  }, renderPlay);
}

// Shows the game's PGN and offers it as a file.
async function showPgn() {
  if (!play.state) return;
  try {
    const res = await fetch('/api/pgn', { method: 'POST', headers: { 'X-Vzero-Token': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant: play.state.variant, fen: play.fen, moves: play.state.moves }) });
    const text = await res.text();
    if (!res.ok) throw new Error(text);
    $('play-pgn-out').value = text;
    $('play-pgn-out').classList.remove('hidden');
  } catch (e) {
    playError(e.message);
  }
}

$('play-form').addEventListener('submit', newGame);
$('play-undo').addEventListener('click', undo);
$('play-flip').addEventListener('click', () => { play.flip = !play.flip; renderPlay(); });
$('play-hint').addEventListener('click', hint);
$('play-pgn').addEventListener('click', showPgn);

startDashboard().catch((e) => { $('live').textContent = e.message; });
startPlay().catch((e) => playError(e.message));
renderStatus();
