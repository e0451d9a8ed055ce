// Small SVG charts for the dashboard: lines, points with error bars, horizontal reference lines.
'use strict';
const VChart = (() => {
  const NS = 'http://www.w3.org/2000/svg';

  // The SVG element of a tag with attributes.
  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // About five round tick values from lo to hi.
  function ticks(lo, hi) {
    const span = hi - lo || 1;
    const step0 = Math.pow(10, Math.floor(Math.log10(span / 5)));
    const step = [1, 2, 5, 10].map((m) => m * step0).find((s) => span / s <= 6) || step0 * 10;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toPrecision(10)));
    return out;
  }

  // A number for an axis label.
  function fmt(v) { return Math.abs(v) >= 1e4 ? v.toExponential(1) : String(Number(v.toPrecision(4))); }

  // Draws series into container. Each series: name, colour, kind ('line', 'points' or 'hline'), points
  // [{x, y, lo, hi, label, attrs}] (hline: y only), optionally dash (a stroke-dasharray), width,
  // opacity, key (the series' data-series attribute) and legend (false: not in the legend).
  // opts: width, height, cls, xLabel, empty (the text without data), legend (names above the plot),
  // yMin/yMax (fixed ends of the y axis). Returns the SVG.
  function draw(container, series, opts) {
    opts = opts || {};
    const W = opts.width || 520, H = opts.height || 220, L = 48, R = 28, T = opts.legend ? 24 : 10, B = 28;
    const xs = [], ys = [];
    for (const s of series) for (const p of s.points) {
      if (s.kind !== 'hline') xs.push(p.x);
      ys.push(p.y);
      if (p.lo !== undefined) ys.push(p.lo, p.hi);
    }
    const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart ' + (opts.cls || '') });
    if (!xs.length) {
      el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle' }, svg).textContent = opts.empty || 'no data yet';
      container.replaceChildren(svg);
      return svg;
    }
    let x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    if (x0 === x1) { x0 -= 1; x1 += 1; }
    if (y0 === y1) { y0 -= 1; y1 += 1; }
    const pad = (y1 - y0) * 0.05; y0 -= pad; y1 += pad;
    if (opts.yMin !== undefined) y0 = opts.yMin;
    if (opts.yMax !== undefined) y1 = opts.yMax;
    const X = (x) => L + (x - x0) / (x1 - x0) * (W - L - R);
    const Y = (y) => T + (y1 - y) / (y1 - y0) * (H - T - B);
    for (const t of ticks(y0, y1)) {
      el('line', { x1: L, x2: W - R, y1: Y(t), y2: Y(t), class: 'grid' }, svg);
      el('text', { x: L - 4, y: Y(t) + 3, 'text-anchor': 'end' }, svg).textContent = fmt(t);
    }
    for (const t of ticks(x0, x1)) el('text', { x: X(t), y: H - B + 13, 'text-anchor': 'middle' }, svg).textContent = fmt(t);
    el('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }, svg);
    el('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }, svg);
    if (opts.xLabel) el('text', { x: W - R, y: H - 3, 'text-anchor': 'end' }, svg).textContent = opts.xLabel;
    if (opts.legend) {
      let x = L;
      for (const s of series.filter((t) => t.legend !== false)) {
        const item = el('g', { class: 'legend-item', 'data-series': s.key || s.name }, svg);
        el('line', { x1: x, x2: x + 14, y1: 10, y2: 10, stroke: s.colour, 'stroke-width': 3, 'stroke-dasharray': s.dash }, item);
        const label = el('text', { x: x + 17, y: 13 }, item);
        label.textContent = s.name;
        x += 24 + 5.5 * s.name.length;
      }
    }
    for (const s of series) {
      if (s.kind === 'hline') {
        for (const p of s.points) {
          el('line', { x1: L, x2: W - R, y1: Y(p.y), y2: Y(p.y), stroke: s.colour, class: 'fixed' }, svg);
          el('text', { x: L + 4, y: Y(p.y) - 3, fill: s.colour }, svg).textContent = s.name;
        }
        continue;
      }
      if (s.kind === 'line' || s.joined) {
        const d = s.points.map((p, k) => (k ? 'L' : 'M') + X(p.x).toFixed(1) + ',' + Y(p.y).toFixed(1)).join(' ');
        el('path', { d, fill: 'none', stroke: s.colour, 'stroke-width': s.width || 1.5, 'stroke-opacity': s.opacity,
          'stroke-dasharray': s.dash, class: 'series', 'data-series': s.key || s.name }, svg);
        if (s.kind === 'line' && s.points.length === 1)  // one point: a dot, since a path of one point shows nothing
          el('circle', { cx: X(s.points[0].x), cy: Y(s.points[0].y), r: 3, fill: s.colour }, svg);
      }
      if (s.kind === 'points') {
        for (const p of s.points) {
          const attrs = p.attrs || {};
          if (p.lo !== undefined) {
            el('line', { x1: X(p.x), x2: X(p.x), y1: Y(p.lo), y2: Y(p.hi), class: 'errbar', ...attrs }, svg);
            for (const v of [p.lo, p.hi]) el('line', { x1: X(p.x) - 4, x2: X(p.x) + 4, y1: Y(v), y2: Y(v), class: 'errbar-cap' , stroke: '#2d6cdf'}, svg);
          }
          const dot = el('circle', { cx: X(p.x), cy: Y(p.y), r: 4, class: 'ladder-point', ...attrs }, svg);
          if (p.title) el('title', {}, dot).textContent = p.title;
          if (p.label !== undefined) el('text', { x: X(p.x) + 6, y: Y(p.y) - 5 }, svg).textContent = p.label;
        }
      }
    }
    container.replaceChildren(svg);
    return svg;
  }

  return { draw };
})();
