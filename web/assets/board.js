// vzero's board: positions from FEN (docs/fen.md, docs/fen-attrition.md) drawn as SVG, any size, 2-4 seats.
'use strict';
const VBoard = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const S = 60;  // the side of a square in SVG units
  const CHESS_COLOURS = ['#f4f1e8', '#2b2b2b'];
  const SEAT_COLOURS = ['#f2c14e', '#3a7bd5', '#d1495b', '#4caf50'];  // attrition's seats 0-3
  const SHOGI = new Set(['shogi', 'minishogi']);  // whose pieces face the opponent

  // Whether a variant is one of the attrition family (knights of 2-4 seats on marked squares).
  function isAttrition(variant) { return variant.startsWith('attrition'); }

  // The fill of a seat's pieces in a variant.
  function seatColour(variant, seat) {
    if (seat < 0) return '#9e9e9e';
    return isAttrition(variant) ? SEAT_COLOURS[seat] : CHESS_COLOURS[seat];
  }

  // A position of a FEN: files, ranks, squares[rankFromTop][file] ({letter, seat, marked} or null), hands.
  function parseFen(variant, fen) {
    const fields = fen.trim().split(/\s+/);
    let board = fields[0];
    let handText = null;
    const bracket = board.indexOf('[');
    if (bracket >= 0) {
      handText = board.slice(bracket + 1, board.indexOf(']', bracket));
      board = board.slice(0, bracket);
    }
    const attrition = isAttrition(variant);
    const rows = board.split('/').map((rank) => {
      const row = [];
      for (let k = 0; k < rank.length; k++) {
        const c = rank[k];
        if (c >= '0' && c <= '9') {
          let n = c;
          while (!attrition && k + 1 < rank.length && rank[k + 1] >= '0' && rank[k + 1] <= '9') n += rank[++k];
          for (let e = 0; e < Number(n); e++) row.push(null);
        } else if (attrition) {
          row.push(c === 'x' ? { marked: true } : { letter: 'N', seat: c.charCodeAt(0) - 97, marked: true });
        } else {
          let letter = c;
          if (c === '+' && k + 1 < rank.length) letter = '+' + rank[++k];
          const base = letter[letter.length - 1];
          const seat = variant === 'parachute' && base === 'Y' ? -1 : base === base.toUpperCase() ? 0 : 1;
          row.push({ letter: letter.toUpperCase(), seat });
        }
      }
      return row;
    });
    const hands = [];
    if (handText !== null) {
      for (const c of handText) {
        const seat = c === c.toUpperCase() ? 0 : 1;
        const letter = c.toUpperCase();
        let h = hands.find((x) => x.seat === seat && x.letter === letter);
        if (!h) hands.push(h = { seat, letter, count: 0 });
        h.count++;
      }
    }
    // World chess's fields after the six (docs/fen.md): the captured pool, the last piece types, the
    // joker streak.
    const pool = [];
    let lastTypes = null, streak = 0;
    for (const f of fields.slice(1)) {
      if (f.startsWith('pool:')) for (const c of f.slice(5)) pool.push({ seat: c === c.toUpperCase() ? 0 : 1, letter: c.toUpperCase() });
      else if (f.startsWith('last:')) lastTypes = [f[5], f[6]];
      else if (f.startsWith('streak:')) streak = Number(f.slice(7));
    }
    return { variant, files: rows[0].length, ranks: rows.length, rows, hands, hasHands: handText !== null,
      toMove: fields[1] === 'b' ? 1 : 0, pool, lastTypes: lastTypes || ['-', '-'], streak };
  }

  // World chess's pieces by letter (configs/variants/world.toml).
  const WORLD_NAMES = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', M: 'camel', O: 'cannon',
    G: 'gold', S: 'silver', L: 'lance', J: 'joker', K: 'king' };
  // The name of a piece letter in a variant ('' when the board knows none).
  function pieceName(variant, letter) { return variant === 'world' ? WORLD_NAMES[letter.toUpperCase()] || '' : ''; }

  // What a position holds beside its squares, for the side panels: World chess's captured pool of each
  // seat (the pieces its pawns may promote into) and the power of each seat's joker on the board.
  // Each note: {kind: 'pool' | 'joker', seat, letters | power, text}.
  function notes(pos) {
    if (pos.variant !== 'world') return [];
    const side = ['White', 'Black'];
    const out = [];
    for (const seat of [0, 1]) {
      const letters = pos.pool.filter((p) => p.seat === seat).map((p) => p.letter);
      out.push({ kind: 'pool', seat, letters: letters.join(''),
        text: `${side[seat]}'s pool: ` + (letters.length ? letters.map((l) => `${l} (${WORLD_NAMES[l]})`).join(', ') : 'empty (its pawns wait on the 7th rank)') });
    }
    for (const seat of [0, 1]) {
      const onBoard = pos.rows.some((row) => row.some((c) => c && c.letter === 'J' && c.seat === seat));
      if (!onBoard) continue;
      const type = pos.lastTypes[1 - seat];  // a joker moves as the opponent's last piece type (WC-7)
      let text, power = type;
      if (type === '-') { text = `no power yet (${side[1 - seat]} has not acted)`; power = '-'; }
      else if (pos.streak >= 2 && pos.toMove === seat) { text = `may not move (two joker moves in a row)`; power = '-'; }
      else text = `moves as a ${WORLD_NAMES[type.toUpperCase()] || type} (${side[1 - seat]}'s last piece type)`;
      out.push({ kind: 'joker', seat, power, text: `${side[seat]}'s joker: ${text}` });
    }
    return out;
  }

  // An action's parts: {drop, to} for "X@sq", {from, to, suffix} for a move, {} for anything else.
  function parseAction(text) {
    let m = /^([A-Za-z+]+)@([a-z]\d+)$/.exec(text);
    if (m) return { drop: m[1].toUpperCase(), to: m[2] };
    m = /^([a-z]\d+)([a-z]\d+)(.*)$/.exec(text);
    if (m) return { from: m[1], to: m[2], suffix: m[3] };
    return {};
  }

  // The name of the square at file f, rank r counted from the top.
  function squareName(pos, f, r) { return String.fromCharCode(97 + f) + (pos.ranks - r); }

  // The SVG element of a tag with attributes.
  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // Draws pos into container. opts: flip, selected (square), targets (squares), last ([from, to]),
  // arrows ([{from, to, weight}]), onDown(square), onUp(square).
  function draw(container, pos, opts) {
    opts = opts || {};
    const W = pos.files * S, H = pos.ranks * S;
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'board-svg', 'data-files': pos.files, 'data-ranks': pos.ranks });
    const defs = el('defs', {}, svg);
    const marker = el('marker', { id: 'arrowhead', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 2.5, markerHeight: 2.5, markerUnits: 'strokeWidth', orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#1b7f3b' }, marker);
    const centre = (sq) => {
      const f = sq.charCodeAt(0) - 97, rank = Number(sq.slice(1));
      let x = f, y = pos.ranks - rank;
      if (opts.flip) { x = pos.files - 1 - x; y = pos.ranks - 1 - y; }
      return [x * S + S / 2, y * S + S / 2];
    };
    const targets = new Set(opts.targets || []);
    const last = new Set(opts.last || []);
    for (let r = 0; r < pos.ranks; r++) {
      for (let f = 0; f < pos.files; f++) {
        const sq = squareName(pos, f, r);
        const [cx, cy] = centre(sq);
        const x = cx - S / 2, y = cy - S / 2;
        const dark = (f + r) % 2 === 1;
        const cell = pos.rows[r][f];
        let fill = dark ? '#b58863' : '#f0d9b5';
        if (last.has(sq)) fill = dark ? '#aaa23a' : '#cdd26a';
        if (opts.selected === sq) fill = '#f2c14e';
        el('rect', { x, y, width: S, height: S, fill, 'data-sq': sq, class: 'sq' }, svg);
        if (cell && cell.marked && !cell.letter) {
          el('path', { d: `M${x + 14},${y + 14} L${x + S - 14},${y + S - 14} M${x + S - 14},${y + 14} L${x + 14},${y + S - 14}`,
            stroke: '#6d4c33', 'stroke-width': 4, 'pointer-events': 'none' }, svg);
        }
        if (f === (opts.flip ? pos.files - 1 : 0)) el('text', { x: x + 3, y: y + 12, 'font-size': 10, fill: '#555', 'pointer-events': 'none' }, svg).textContent = pos.ranks - r;
        if (r === (opts.flip ? 0 : pos.ranks - 1)) el('text', { x: x + S - 9, y: y + S - 3, 'font-size': 10, fill: '#555', 'pointer-events': 'none' }, svg).textContent = String.fromCharCode(97 + f);
        if (cell && cell.letter) {
          const g = pieceGlyph(pos, cell, cx, cy, opts.flip, svg);
          g.setAttribute('data-sq', sq);
          if (cell.marked) el('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, fill: 'none', stroke: '#6d4c33', 'stroke-width': 2 }, g);
        }
        if (targets.has(sq)) el('circle', { cx, cy, r: 8, fill: 'rgba(27,127,59,.55)', 'pointer-events': 'none', class: 'target', 'data-sq': sq }, svg);
      }
    }
    for (const a of opts.arrows || []) {
      const [x2, y2] = centre(a.to);
      const width = 3 + 12 * a.weight;
      if (a.from) {
        const [x1, y1] = centre(a.from);
        el('line', { x1, y1, x2, y2, stroke: '#1b7f3b', 'stroke-opacity': 0.35 + 0.5 * a.weight, 'stroke-width': width,
          'marker-end': 'url(#arrowhead)', 'pointer-events': 'none', class: 'hint-arrow' }, svg);
      } else {
        el('circle', { cx: x2, cy: y2, r: S * 0.42, fill: 'none', stroke: '#1b7f3b', 'stroke-width': width / 2,
          'stroke-opacity': 0.4 + 0.5 * a.weight, 'pointer-events': 'none', class: 'hint-arrow' }, svg);
      }
    }
    container.replaceChildren(svg);
    container.vboard = { pos, flip: !!opts.flip, selected: opts.selected, onDown: opts.onDown, onUp: opts.onUp };
    if (opts.onDown) listen(container);
    return svg;
  }

  // A piece (a disc with its letter, turned for shogi's far side) centred on cx, cy, in parent.
  function pieceGlyph(pos, cell, cx, cy, flip, parent) {
    const g = el('g', { class: 'piece', 'data-piece': cell.letter, 'data-seat': cell.seat, 'pointer-events': 'none' }, parent);
    el('circle', { cx, cy, r: S * 0.36, fill: seatColour(pos.variant, cell.seat), stroke: '#333', 'stroke-width': 2 }, g);
    const light = cell.seat === 1 && !isAttrition(pos.variant);
    const turned = cell.seat === 1 && SHOGI.has(pos.variant) ? (flip ? 0 : 180) : cell.seat === 0 && SHOGI.has(pos.variant) && flip ? 180 : 0;
    el('text', { x: cx, y: cy + 7, 'text-anchor': 'middle', 'font-size': cell.letter.length > 1 ? 18 : 22,
      'font-weight': 'bold', fill: light ? '#fff' : '#222', transform: turned ? `rotate(180 ${cx} ${cy})` : undefined }, g).textContent = cell.letter;
    const name = pieceName(pos.variant, cell.letter);
    if (name) el('title', {}, g).textContent = name;
    return g;
  }

  // The board's square under a point of the page (client coordinates); null off the board.
  function squareAt(container, clientX, clientY) {
    const svg = container.querySelector('svg.board-svg');
    const st = container.vboard;
    if (!svg || !st) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
    let f = Math.floor(p.x / S), r = Math.floor(p.y / S);
    if (f < 0 || r < 0 || f >= st.pos.files || r >= st.pos.ranks) return null;
    if (st.flip) { f = st.pos.files - 1 - f; r = st.pos.ranks - 1 - r; }
    return squareName(st.pos, f, r);
  }

  // Pointer input of a playable board, set up once per container: a press on a square calls onDown(sq)
  // (which may redraw the board); a press that selected a piece (opts.selected) and then moves drags
  // it, drawn under the pointer (class drag-ghost), with the original faded; the release calls
  // onUp(sq, dragged) with the square under the pointer (null off the board).
  function listen(container) {
    if (container.vboardListening) return;
    container.vboardListening = true;
    let drag = null;  // {from, x, y, moved, pointerId}
    const ghostOf = (svg) => svg.querySelector('.drag-ghost');
    container.addEventListener('pointerdown', (ev) => {
      const st = container.vboard;
      if (!st || !st.onDown || ev.button > 0) return;
      const sq = squareAt(container, ev.clientX, ev.clientY);
      if (!sq) return;
      ev.preventDefault();
      st.onDown(sq);
      drag = { from: sq, x: ev.clientX, y: ev.clientY, moved: false, pointerId: ev.pointerId };
    });
    window.addEventListener('pointermove', (ev) => {
      if (!drag || ev.pointerId !== drag.pointerId) return;
      const svg = container.querySelector('svg.board-svg');
      const st = container.vboard;
      if (!svg || !st) return;
      if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 4) return;
      const original = svg.querySelector(`g.piece[data-sq="${drag.from}"]`);
      if (!original || st.selected !== drag.from) return;  // only a piece the press selected moves
      drag.moved = true;
      const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM().inverse());
      let ghost = ghostOf(svg);
      if (!ghost) {
        original.setAttribute('opacity', '0.3');
        const f = drag.from.charCodeAt(0) - 97, r = st.pos.ranks - Number(drag.from.slice(1));
        ghost = pieceGlyph(st.pos, st.pos.rows[r][f], 0, 0, st.flip, svg);
        ghost.classList.add('drag-ghost');
      }
      ghost.setAttribute('transform', `translate(${p.x.toFixed(1)},${p.y.toFixed(1)})`);
    });
    const release = (ev) => {
      if (!drag || ev.pointerId !== drag.pointerId) return;
      const d = drag;
      drag = null;
      const svg = container.querySelector('svg.board-svg');
      if (svg && ghostOf(svg)) {
        ghostOf(svg).remove();
        const original = svg.querySelector(`g.piece[data-sq="${d.from}"]`);
        if (original) original.removeAttribute('opacity');
      }
      const st = container.vboard;
      if (st && st.onUp) st.onUp(ev.type === 'pointerup' ? squareAt(container, ev.clientX, ev.clientY) : null, d.moved);
    };
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
  }

  return { parseFen, parseAction, draw, seatColour, isAttrition, notes, pieceName };
})();
