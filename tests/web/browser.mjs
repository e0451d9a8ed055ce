// Drives vzero web's page in Debian's chromium: the ladder, a replay, a Los Alamos game, a minishogi
// drop and a 4-player attrition placement, with a screenshot of each.
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

// 1. The dashboard: every generation on the ladder, with its error bar.
await page.goto(url);
await page.waitForSelector('.ladder svg');
assert.equal(await page.locator('.ladder .ladder-point').count(), 0, 'the run folder starts empty');
writeFileSync(ready, '');
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
assert.match(await page.textContent('.run .cfg'), /variant = /);
await shot('dashboard');

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

// 3. Los Alamos by clicking, until the engine has answered three moves.
await start('losalamos', 'mcts:sims=24,evaluator=heuristic', '');
for (let k = 1; k <= 3; k++) {
  const legal = JSON.parse(await page.getAttribute('#play-board', 'data-legal'));
  const move = legal.map((a) => /^([a-z]\d+)([a-z]\d+)/.exec(a)).find(Boolean);
  assert.ok(move, 'a move on the board');
  await page.click(`#play-board [data-sq="${move[1]}"]`);
  await page.waitForSelector('#play-board circle.target');
  await page.click(`#play-board [data-sq="${move[2]}"]`);
  if (await page.isVisible('#chooser')) await page.click('#chooser button[data-action]');
  await page.waitForFunction((n) => Number(document.getElementById('play-status').dataset.engineMoves) >= n, k);
  await myTurn();
}
const s = await status();
assert.ok(s.engine >= 3, 'the engine answered three moves');
assert.ok((await page.locator('#play-moves li').count()) >= 6, 'six actions played');
await shot('losalamos');

// 4. A drop in minishogi: the pawn in hand onto c3.
await start('minishogi', 'mcts:sims=24,evaluator=heuristic', 'rbsgk/4p/5/P4/KGSBR[P] w - - 0 1');
await page.click('#hand-bottom button[data-hand="P"][data-seat="0"]');
await page.waitForSelector('#play-board circle.target');
await page.click('#play-board [data-sq="c3"]');
await page.waitForFunction(() => Number(document.getElementById('play-status').dataset.engineMoves) >= 1);
await myTurn();
assert.equal(await page.textContent('#play-moves li:first-child'), 'P@c3');
assert.match(await page.textContent('#play-fen-out'), /\[\]/, 'the hand is empty after the drop');
await shot('minishogi-drop');

// 5. A knight placed in 4-player attrition; the three engine seats place theirs.
await start('attrition-4p', 'mcts:sims=24,evaluator=rollout', '');
await page.click('#hand-bottom button[data-hand="N"]');
await page.click('#play-board [data-sq="c3"]');
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
