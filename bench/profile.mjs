#!/usr/bin/env node
// Summarises a V8 CPU profile (`node --cpu-prof`): the share of busy time (idle excluded) per function, by self
// time, and by inclusive time for the functions named with --focus. Used for docs/benchmarks.md's profiles.
//
//   node bench/profile.mjs <file.cpuprofile> [--top 30] [--focus name1,name2]
import fs from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
if (!file) {
  process.stderr.write('usage: node bench/profile.mjs <file.cpuprofile> [--top 30] [--focus name1,name2]\n');
  process.exit(2);
}
const top = Number(option('top', '30'));
const focus = (option('focus', '') || '').split(',').filter(Boolean);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const label = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
};
let total = 0;
let idle = 0;
const bySelf = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  total += us;
  if (n.callFrame.functionName === '(idle)') {
    idle += us;
    continue;
  }
  const key = label(n);
  bySelf.set(key, (bySelf.get(key) ?? 0) + us);
}
const busy = total - idle;
const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)} %)`);
console.log(`\nself time, share of busy time:`);
for (const [key, us] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${key}`);

if (focus.length) {
  // Inclusive time: a sample counts once for a focused name if the name is anywhere on its stack.
  console.log(`\ninclusive time of the focused functions:`);
  const inclusive = new Map(focus.map((f) => [f, 0]));
  for (const [id, us] of self) {
    if (byId.get(id).callFrame.functionName === '(idle)') continue;
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur).callFrame.functionName;
      if (inclusive.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, inclusive.get(name) + us);
      }
    }
  }
  for (const [name, us] of inclusive) console.log(`${pct(us)}  ${name}`);
}
