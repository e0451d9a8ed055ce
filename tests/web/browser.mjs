// Drives vzero web's page in Debian's chromium: the ladder followed live by server-sent events (and by
// polling without them), the curves, a replay, a Los Alamos game by clicks and a drag with value bars,
// World chess's pool, joker and every kind of action, a minishogi drop and a 4-player attrition
// placement, with a screenshot of each.
// Usage: node browser.mjs URL SHOTS_DIR GENERATIONS READY: GENERATIONS comma-separated (those the loop
// will rate); READY is created once the page shows the run folder still empty (then the loop starts).
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';

const [url, shots, gensText, ready] = process.argv.slice(2);
const gens = gensText.split(',').map(Number);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.setDefaultTimeout(Number(process.env.VZERO_WEB_TIMEOUT_MS || 120000));
const shot = async (name) => {
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
  console.log(`screenshot ${shots}/${name}.png`);
};
const status = () => page.$eval('#play-status', (s) => ({ text: s.textContent, engine: Number(s.dataset.engineMoves), terminal: s.dataset.terminal === 'true' }));
// Waits until it is the person's turn (or the game ended).
const myTurn = () => page.waitForFunction(() => {
  const s = document.getElementById('play-status');
  return s.textContent.startsWith('Your move') || s.dataset.terminal === 'true';
});
// Starts a game of variant against player at seat 0 from fen ('' the start).
async function start(variant, player, fen) {
  await page.click('#tab-play');
  await page.selectOption('#play-variant', variant);
  await page.selectOption('#play-seat', '0');
  await page.fill('#play-player', player);
  await page.fill('#play-fen', fen);
  await page.click('#play-start');
  await page.waitForFunction((v) => {
    const fen = document.getElementById('play-fen-out').textContent;
    return fen !== '' && document.getElementById('play-board').dataset.legal !== undefined && document.title && v;
  }, variant);
  await myTurn();
}

// On a failure: a screenshot of the page as it was, and the page's errors.
process.on('uncaughtException', async (e) => {
  console.error(e);
  console.error('page errors:', errors);
  await page.screenshot({ path: `${shots}/failure.png`, fullPage: true }).catch(() => {});
  console.error(`screenshot ${shots}/failure.png`);
  process.exit(1);
});

// 1. The dashboard, followed live by the server's events: every generation on the ladder, with its
// error bar.
await page.goto(url);
await page.waitForSelector('.ladder svg');
await page.waitForSelector('#live[data-mode="sse"]');
assert.equal(await page.locator('.ladder .ladder-point').count(), 0, 'the run folder starts empty');
const eventsBefore = Number(await page.getAttribute('#live', 'data-events'));
writeFileSync(ready, '');
await page.waitForSelector('.ladder .ladder-point[data-gen="1"]');
assert.equal(await page.getAttribute('#live', 'data-mode'), 'sse', 'the page follows the run by its event stream');
assert.ok(Number(await page.getAttribute('#live', 'data-events')) > eventsBefore, 'changes came as events');
await shot('live-sse');
await page.waitForSelector(`.ladder .ladder-point[data-gen="${gens[gens.length - 1]}"]`);
for (const g of gens) {
  assert.equal(await page.locator(`.ladder circle.ladder-point[data-gen="${g}"]`).count(), 1, `generation ${g} on the ladder`);
  const bar = page.locator(`.ladder line.errbar[data-gen="${g}"]`);
  assert.equal(await bar.count(), 1, `error bar of generation ${g}`);
  if (g > 0) {  // generation 0 is the anchor of the scale (margin 0)
    const [y1, y2] = await Promise.all([bar.getAttribute('y1'), bar.getAttribute('y2')]);
    assert.ok(Math.abs(Number(y1) - Number(y2)) > 1, `error bar of generation ${g} has a length`);
  }
}
assert.ok(await page.locator('.loss path').count() > 0, 'loss curves drawn');
for (const [chart, key] of [['speed', 'selfplay_pos_per_s'], ['speed', 'selfplay_evals_per_s'], ['batch', 'mean_batch'],
  ['ends', 'end_mate'], ['ends', 'end_cap'], ['ends', 'draw_share']])
  assert.equal(await page.locator(`.${chart} path.series[data-series="${key}"]`).count(), 1, `the curve of ${key}`);
// CPU hours as the x axis: every generation still on the ladder, in order of compute.
await page.selectOption('#x-axis', 'cpu');
assert.equal(await page.locator('.ladder circle.ladder-point').count(), gens.length, 'the ladder by CPU hours');
const xs = await page.$$eval('.ladder circle.ladder-point', (cs) => cs.map((c) => [Number(c.dataset.gen), Number(c.getAttribute('cx'))]));
xs.sort((a, b) => a[0] - b[0]);
for (let k = 1; k < xs.length; k++) assert.ok(xs[k][1] > xs[k - 1][1], 'CPU hours grow with the generations');
await page.selectOption('#x-axis', 'generation');
assert.match(await page.textContent('.run .cfg'), /variant = /);
await shot('dashboard');

// Without EventSource the page polls, and shows the same ladder.
const polled = await browser.newPage({ viewport: { width: 1300, height: 800 } });
await polled.addInitScript(() => { delete window.EventSource; });
await polled.goto(url);
await polled.waitForSelector('#live[data-mode="poll"]');
await polled.waitForSelector(`.ladder .ladder-point[data-gen="${gens[gens.length - 1]}"]`);
assert.equal(await polled.locator('.ladder circle.ladder-point').count(), gens.length, 'the polled ladder');
await polled.close();

// 2. A recorded game replayed to its last move (End key).
await page.waitForSelector('.games tbody tr');
await page.click('.games tbody tr:first-child');
await page.waitForSelector('#replay:not(.hidden) #replay-board svg');
await page.keyboard.press('ArrowRight');
assert.equal(await page.getAttribute('#replay-ply', 'data-ply'), '1');
await page.keyboard.press('End');
const total = await page.getAttribute('#replay-ply', 'data-total');
assert.ok(Number(total) > 0, 'the game has moves');
assert.equal(await page.getAttribute('#replay-ply', 'data-ply'), total, 'replayed to the last move');
assert.equal(await page.getAttribute('#replay-moves li.current', 'data-ply'), total);
await page.locator('#replay').scrollIntoViewIfNeeded();
await shot('replay');

// The centre of a square of the play board, in page coordinates.
async function centre(sq) {
  const box = await page.locator(`#play-board rect.sq[data-sq="${sq}"]`).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}
// Drags the piece on from to to with the mouse (pointer events), taking screenshot name midway when given.
async function drag(from, to, name) {
  const [x1, y1] = await centre(from), [x2, y2] = await centre(to);
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, { steps: 5 });
  assert.equal(await page.locator('#play-board .drag-ghost').count(), 1, 'the dragged piece follows the pointer');
  if (name) await shot(name);
  await page.mouse.move(x2, y2, { steps: 5 });
  await page.mouse.up();
}
// The first legal move (from, to) of the person, or of a piece on a given square.
async function legalMove(from) {
  const legal = JSON.parse(await page.getAttribute('#play-board', 'data-legal'));
  return legal.map((a) => /^([a-z]\d+)([a-z]\d+)/.exec(a)).find((m) => m && (!from || m[1] === from));
}

// 3. Los Alamos: moves by clicking and one by dragging, until the engine has answered three moves;
// value bars for both seats all along, first from a quick evaluation, then from the engine's search.
await start('losalamos', 'mcts:sims=24,evaluator=heuristic', '');
await page.waitForSelector('#values[data-source="evaluation"]');
assert.equal(await page.locator('#values .bar').count(), 2, 'a value bar per seat before any move');
for (let k = 1; k <= 3; k++) {
  const move = await legalMove();
  assert.ok(move, 'a move on the board');
  if (k === 2) {
    await drag(move[1], move[2], 'losalamos-drag');
  } else {
    await page.click(`#play-board rect.sq[data-sq="${move[1]}"]`);
    await page.waitForSelector('#play-board circle.target');
    await page.click(`#play-board rect.sq[data-sq="${move[2]}"]`);
  }
  if (await page.isVisible('#chooser')) await page.click('#chooser button[data-action]');
  await page.waitForFunction((n) => Number(document.getElementById('play-status').dataset.engineMoves) >= n, k);
  await myTurn();
  assert.equal(await page.textContent(`#play-moves li:nth-child(${2 * k - 1})`), move[0], `move ${k} played`);
  assert.equal(await page.getAttribute('#values', 'data-source'), 'search', 'value bars from the engine\'s search');
  assert.equal(await page.locator('#values .bar').count(), 2, 'a value bar per seat');
}
const s = await status();
assert.ok(s.engine >= 3, 'the engine answered three moves');
assert.ok((await page.locator('#play-moves li').count()) >= 6, 'six actions played');
await shot('losalamos');

// 3b. World chess: the captured pool and the joker's power shown; every legal action reachable from
// the board (moves, castling, the joker, a promotion with a choice, a waiting pawn's promotion in
// place, lance drops), and one of each kind played (then undone).
const worldFen = '7k2/2P7/5P4/10/4J5/10/R3K4R/10[Ll] w KQ - 0 1 pool:QN last:-b';
await start('world', 'random', worldFen);
assert.equal(await page.getAttribute('#play-info .pool[data-seat="0"]', 'data-pool'), 'NQ', "White's pool");
assert.equal(await page.getAttribute('#play-info .pool[data-seat="1"]', 'data-pool'), '', "Black's pool");
assert.equal(await page.getAttribute('#play-info .joker[data-seat="0"]', 'data-power'), 'b', 'the joker moves as a bishop');
assert.ok(!(await page.isVisible('#other-actions')), 'no action needs a button off the board');
const worldLegal = JSON.parse(await page.getAttribute('#play-board', 'data-legal'));
// Each square's targets, as the board shows them after a click on it.
const reached = new Set();
for (const from of [...new Set(worldLegal.map((a) => /^([a-z]\d+)[a-z]\d+/.exec(a)).filter(Boolean).map((m) => m[1]))]) {
  await page.click(`#play-board rect.sq[data-sq="${from}"]`);
  for (const to of await page.$$eval('#play-board circle.target', (cs) => cs.map((c) => c.dataset.sq)))
    for (const a of worldLegal) {  // every action from-to: the chooser offers them all
      const m = /^([a-z]\d+)([a-z]\d+)/.exec(a);
      if (m && m[1] === from && m[2] === to) reached.add(a);
    }
  await page.click('#play-board rect.sq[data-sq="h5"]');  // an empty square: nothing selected
}
await page.click('#hand-bottom button[data-hand="L"][data-seat="0"]');
for (const to of await page.$$eval('#play-board circle.target', (cs) => cs.map((c) => c.dataset.sq))) reached.add(`L@${to}`);
await page.click('#hand-bottom button[data-hand="L"][data-seat="0"]');
assert.deepEqual([...reached].sort(), [...worldLegal].sort(), 'every legal action of World chess is on the board');
// One of each kind, by the page's gestures; each is then undone.
const worldPlays = [
  ['c7c7n', async () => { await page.click('#play-board rect.sq[data-sq="c7"]'); await page.click('#play-board rect.sq[data-sq="c7"]');
    await page.waitForSelector('#chooser button[data-action="c7c7q"]'); await shot('world-pool'); await page.click('#chooser button[data-action="c7c7n"]'); }],
  ['f6f7q', async () => { await drag('f6', 'f7'); await page.click('#chooser button[data-action="f6f7q"]'); }],
  ['e2b2', async () => { await page.click('#play-board rect.sq[data-sq="e2"]'); await page.click('#play-board rect.sq[data-sq="b2"]'); }],
  ['e4b7', async () => { await page.click('#play-board rect.sq[data-sq="e4"]'); await page.click('#play-board rect.sq[data-sq="b7"]'); }],
  ['L@e1', async () => { await page.click('#hand-bottom button[data-hand="L"][data-seat="0"]'); await page.click('#play-board rect.sq[data-sq="e1"]'); }],
];
for (const [action, gesture] of worldPlays) {
  await gesture();
  await page.waitForFunction(() => Number(document.getElementById('play-status').dataset.ply) >= 2);
  await myTurn();
  assert.equal(await page.textContent('#play-moves li:first-child'), action, `${action} played from the board`);
  await page.click('#play-undo');
  await page.waitForFunction(() => Number(document.getElementById('play-status').dataset.ply) === 0);
  await myTurn();
}

// 4. A drop in minishogi: the pawn in hand onto c3.
await start('minishogi', 'mcts:sims=24,evaluator=heuristic', 'rbsgk/4p/5/P4/KGSBR[P] w - - 0 1');
await page.click('#hand-bottom button[data-hand="P"][data-seat="0"]');
await page.waitForSelector('#play-board circle.target');
await page.click('#play-board rect.sq[data-sq="c3"]');
await page.waitForFunction(() => Number(document.getElementById('play-status').dataset.engineMoves) >= 1);
await myTurn();
assert.equal(await page.textContent('#play-moves li:first-child'), 'P@c3');
assert.match(await page.textContent('#play-fen-out'), /\[\]/, 'the hand is empty after the drop');
await shot('minishogi-drop');

// 5. A knight placed in 4-player attrition; the three engine seats place theirs.
await start('attrition-4p', 'mcts:sims=24,evaluator=rollout', '');
await page.click('#hand-bottom button[data-hand="N"]');
await page.click('#play-board rect.sq[data-sq="c3"]');
await page.waitForFunction(() => Number(document.getElementById('play-status').dataset.engineMoves) >= 3);
await myTurn();
assert.equal(await page.textContent('#play-moves li:first-child'), 'N@c3');
const seats = await page.$$eval('#play-board g.piece', (gs) => gs.map((g) => g.dataset.seat).sort().join(','));
assert.equal(seats, '0,1,2,3', 'four knights in four seat colours');
await page.click('#play-hint');
await page.waitForSelector('#play-board .hint-arrow');
assert.equal(await page.locator('#values .bar').count(), 4, 'a value bar per seat');
await shot('attrition-4p');

assert.deepEqual(errors, [], 'no errors in the page');
await browser.close();
console.log('web browser test: ok');
