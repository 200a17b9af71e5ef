#!/usr/bin/env node
// CEL speed comparison: @marcbachmann/cel-js vs @bufbuild/cel, "compile once, evaluate many".
//
//   node bench/cel/speed.mjs            full run (about a minute on a 2-core machine)
//   node bench/cel/speed.mjs --quick    fewer iterations (smoke test)
//
// For each representative override condition it measures
//   compile  marc: env.parse(src) + program.check()   (check() types the tree once; without it
//                  the first evaluation does it)
//            buf:  plan(env, parse(src))
//   eval     one call of the compiled program against a prepared activation, as the verdict
//            gateway builds it from JSON (safe integers as BigInt, other numbers as number,
//            objects as plain objects, arrays as arrays)
// Each figure is the median over RUNS timed runs of µs per operation, after a warm-up.
// It also reports package size on disk, dependency count, cold import time and the
// esbuild-bundled (minified) size of each library.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import * as buf from '@bufbuild/cel';
import { Environment } from '@marcbachmann/cel-js';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 3 : 9;
const EVAL_ITERS = quick ? 20_000 : 200_000;
const COMPILE_ITERS = quick ? 300 : 3_000;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const marcEnv = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
const bufEnv = buf.celEnv();

const items = Array.from({ length: 10 }, (_, i) => ({
  sku: `SKU-${i}`,
  price: i % 2 ? 10n + BigInt(i) : 9.5 + i,
  qty: BigInt(i + 1),
}));
const CASES = [
  {
    name: 'scalar compare',
    src: 'amount < 20 && currency == "EUR"',
    activation: { amount: 12.5, currency: 'EUR' },
    expect: true,
  },
  {
    name: 'nested + in list',
    src: 'transfer.amount <= 5000 && transfer.country in ["DE","FR","NL"]',
    activation: { transfer: { amount: 4200n, country: 'NL' } },
    expect: true,
  },
  {
    name: 'string method',
    src: 'scope.region == "eu" && action.startsWith("payments.")',
    activation: { scope: { region: 'eu' }, action: 'payments.refund' },
    expect: true,
  },
  {
    name: 'has() + size()',
    src: 'has(customer.tags) && size(customer.tags) > 0 && "vip" in customer.tags',
    activation: { customer: { id: 'c-1', tags: ['new', 'eu', 'vip'] } },
    expect: true,
  },
  {
    name: 'list macro (10 items)',
    src: 'items.all(i, i.price < 100)',
    activation: { items },
    expect: true,
  },
];

const LIBS = {
  marc: {
    compile(src) {
      const program = marcEnv.parse(src);
      const checked = program.check();
      if (!checked.valid) throw checked.error;
      return program;
    },
    parseOnly: (src) => marcEnv.parse(src),
    run: (program, activation) => program(activation),
  },
  buf: {
    compile: (src) => buf.plan(bufEnv, buf.parse(src)),
    parseOnly: (src) => buf.parse(src),
    run: (program, activation) => program(activation),
  },
};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

let sink = 0;
function timeRuns(iters, fn) {
  const perOp = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iters; i++) if (fn() === true) sink++;
    const t1 = process.hrtime.bigint();
    perOp.push(Number(t1 - t0) / 1000 / iters);
  }
  return { median: median(perOp), min: Math.min(...perOp), max: Math.max(...perOp) };
}

// ---------------------------------------------------------------------------------------------
// Timing.

const results = [];
for (const c of CASES) {
  const row = { name: c.name, src: c.src };
  for (const [lib, L] of Object.entries(LIBS)) {
    const program = L.compile(c.src);
    const got = L.run(program, c.activation);
    if (got !== c.expect) throw new Error(`${lib} ${c.src}: expected ${c.expect}, got ${String(got)}`);
    // warm-up
    for (let i = 0; i < COMPILE_ITERS; i++) L.compile(c.src);
    for (let i = 0; i < EVAL_ITERS; i++) L.run(program, c.activation);
    row[lib] = {
      parse: timeRuns(COMPILE_ITERS, () => L.parseOnly(c.src)),
      compile: timeRuns(COMPILE_ITERS, () => L.compile(c.src)),
      eval: timeRuns(EVAL_ITERS, () => L.run(program, c.activation)),
    };
  }
  results.push(row);
}

// ---------------------------------------------------------------------------------------------
// Packaging: size on disk, dependencies (transitive, incl. peers), import time, bundle size.

function dirSize(dir) {
  let total = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules') continue;
      const s = dirSize(p);
      total += s.bytes;
      files += s.files;
    } else if (entry.isFile()) {
      total += statSync(p).size;
      files++;
    }
  }
  return { bytes: total, files };
}

function pkgDir(name) {
  return join(root, 'node_modules', name);
}

function depClosure(name, seen = new Map()) {
  if (seen.has(name)) return seen;
  const dir = pkgDir(name);
  const pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  seen.set(name, { version: pj.version, ...dirSize(dir) });
  const deps = { ...(pj.dependencies ?? {}), ...(pj.peerDependencies ?? {}) };
  for (const d of Object.keys(deps)) if (existsSync(pkgDir(d))) depClosure(d, seen);
  return seen;
}

function importMs(specifier) {
  const code = `const t=performance.now();await import(${JSON.stringify(specifier)});console.log(performance.now()-t)`;
  const xs = [];
  for (let i = 0; i < (quick ? 3 : 7); i++) {
    xs.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root }).toString()));
  }
  return median(xs);
}

async function bundleBytes(entry) {
  try {
    const esbuild = await import('esbuild');
    const out = await esbuild.build({
      stdin: { contents: entry, resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    return out.outputFiles[0].contents.length;
  } catch (e) {
    return `n/a (${e.message.split('\n')[0]})`;
  }
}

const packaging = {
  marc: {
    closure: depClosure('@marcbachmann/cel-js'),
    importMs: importMs('@marcbachmann/cel-js'),
    bundle: await bundleBytes(
      `import {Environment} from '@marcbachmann/cel-js'; export const e = new Environment({unlistedVariablesAreDyn: true}); export const p = (s) => e.parse(s);`,
    ),
  },
  buf: {
    closure: depClosure('@bufbuild/cel'),
    importMs: importMs('@bufbuild/cel'),
    bundle: await bundleBytes(
      `import {plan, parse, celEnv} from '@bufbuild/cel'; const env = celEnv(); export const p = (s) => plan(env, parse(s));`,
    ),
  },
};

// ---------------------------------------------------------------------------------------------
// Report.

const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const kb = (b) => `${(b / 1024).toFixed(0)} KiB`;

console.log(
  `CEL speed: node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model?.trim()}), ` +
    `${RUNS} runs, median µs/op (min-max); eval ${EVAL_ITERS.toLocaleString('en')} calls/run, ` +
    `compile ${COMPILE_ITERS.toLocaleString('en')}/run${quick ? ' [--quick]' : ''}`,
);
console.log(
  '@marcbachmann/cel-js ' +
    packaging.marc.closure.get('@marcbachmann/cel-js').version +
    ' Environment({unlistedVariablesAreDyn, homogeneousAggregateLiterals:false}); ' +
    '@bufbuild/cel ' +
    packaging.buf.closure.get('@bufbuild/cel').version +
    ' plan(celEnv(), parse())',
);
console.log(
  `\n${pad('condition', 24)}${lpad('marc parse', 12)}${lpad('marc compile', 14)}${lpad('buf compile', 13)}` +
    `${lpad('marc eval', 22)}${lpad('buf eval', 22)}${lpad('buf/marc', 10)}`,
);
for (const r of results) {
  const mr = r.marc.eval;
  const br = r.buf.eval;
  console.log(
    `${pad(r.name, 24)}${lpad(f(r.marc.parse.median), 12)}${lpad(f(r.marc.compile.median), 14)}` +
      `${lpad(f(r.buf.compile.median), 13)}` +
      `${lpad(`${f(mr.median)} (${f(mr.min)}-${f(mr.max)})`, 22)}` +
      `${lpad(`${f(br.median)} (${f(br.min)}-${f(br.max)})`, 22)}` +
      `${lpad(`${(br.median / mr.median).toFixed(1)}x`, 10)}`,
  );
}
console.log('(buf parse only, µs: ' + results.map((r) => f(r.buf.parse.median)).join(' / ') + ')');
for (const r of results) console.log(`  ${pad(r.name, 22)} ${r.src}`);

console.log('\nPackaging');
for (const [lib, p] of Object.entries(packaging)) {
  const pkgs = [...p.closure.entries()];
  const bytes = pkgs.reduce((a, [, v]) => a + v.bytes, 0);
  const files = pkgs.reduce((a, [, v]) => a + v.files, 0);
  console.log(
    `  ${pad(lib, 5)} ${pkgs.length - 1} dependencies, ${kb(bytes)} on disk in ${files} files; ` +
      `cold import ${p.importMs.toFixed(0)} ms; esbuild bundle (minified) ` +
      `${typeof p.bundle === 'number' ? kb(p.bundle) : p.bundle}`,
  );
  for (const [name, v] of pkgs) console.log(`        ${pad(`${name}@${v.version}`, 32)} ${lpad(kb(v.bytes), 9)}`);
}
if (sink < 0) console.log(sink);
