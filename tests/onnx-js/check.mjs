// Runs every ONNX export that tests/export_check.sh wrote into DIR with
// onnxruntime-node, on its golden set (positions of random play and
// LibTorch's outputs), and fails when any output differs by more than 1e-4.
// It also maps each position's legal actions to policy indices through the
// JSON sidecar alone, as a frontend would. Exit 77 (CTest: skipped) when
// onnxruntime-node is not installed (npm ci in this folder).
// Usage: node check.mjs DIR
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let ort;
try {
  ort = require('onnxruntime-node');
} catch (e) {
  console.log('skipped: onnxruntime-node is not installed (run npm ci in tests/onnx-js; scripts/test.sh does)');
  process.exit(77);
}

const tolerance = 1e-4;
const dir = process.argv[2];
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
// A little-endian float32 file as a Float32Array.
const readFloats = (file) => {
  const b = fs.readFileSync(file);
  const out = new Float32Array(b.length / 4);
  for (let i = 0; i < out.length; ++i) out[i] = b.readFloatLE(4 * i);
  return out;
};
const maxDiff = (a, b) => {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; ++i) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

let failed = false;
const cases = fs.readFileSync(path.join(dir, 'cases.txt'), 'utf8').trim().split('\n').map((l) => l.split(' '));
for (const [name, variant] of cases) {
  const golden = path.join(dir, `${name}.golden`);
  const manifest = readJson(path.join(golden, 'manifest.json'));
  const sidecar = readJson(path.join(dir, `${name}.json`));
  const session = await ort.InferenceSession.create(path.join(dir, `${name}.onnx`));
  const names = manifest.outputs.map((o) => o.name);
  if (session.inputNames.join() !== 'input' || session.outputNames.join() !== names.join())
    throw new Error(`${name}: inputs ${session.inputNames} outputs ${session.outputNames}, expected ${names}`);

  const shape = manifest.input.shape;
  const x = readFloats(path.join(golden, manifest.input.file));
  const per = x.length / shape[0];
  const diffs = {};
  // The whole set as one batch, then a batch of 3 (the batch dimension is dynamic).
  for (const n of [shape[0], 3]) {
    const feeds = { input: new ort.Tensor('float32', x.subarray(0, n * per), [n, ...shape.slice(1)]) };
    const got = await session.run(feeds);
    for (const o of manifest.outputs) {
      const want = readFloats(path.join(golden, o.file));
      const width = o.shape[1];
      if (got[o.name].dims.join() !== [n, width].join()) throw new Error(`${name}: ${o.name} dims ${got[o.name].dims}`);
      diffs[o.name] = Math.max(diffs[o.name] ?? 0, maxDiff(got[o.name].data, want.subarray(0, n * width)));
    }
  }
  // The sidecar alone maps each legal action (text) to its policy logit.
  const index = new Map(sidecar.actions.map((a, i) => [a, i]));
  for (const legal of manifest.legal)
    for (const a of legal) if (!index.has(a)) throw new Error(`${name}: legal action ${a} not in the sidecar`);
  const bad = Object.entries(diffs).filter(([, d]) => !(d <= tolerance));
  if (bad.length) failed = true;
  console.log(`${bad.length ? 'FAIL' : 'ok'} ${name} (${variant}, ${shape[0]} positions): max |onnx - libtorch| ` +
              Object.entries(diffs).map(([k, d]) => `${k} ${d.toExponential(2)}`).join(' '));
}
if (failed) process.exit(1);
console.log(`onnxruntime-node ${ort.env.versions?.common ?? ''}: ${cases.length} exports match LibTorch within ${tolerance}`);
