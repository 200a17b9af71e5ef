#!/usr/bin/env node
// CEL conformance comparison: @marcbachmann/cel-js vs @bufbuild/cel.
//
// Runs the cel-spec conformance test data shipped in @bufbuild/cel-spec
// (cel.expr.conformance.test.SimpleTestFile messages, upstream cel-spec v0.25.1, exposed as
// `getConformanceSuite()`: file -> section -> SimpleTest) against both libraries, using each
// library's "compile once, evaluate many" API, and prints pass / fail / skipped per file.
//
//   node bench/cel/conformance.mjs               table only
//   node bench/cel/conformance.mjs --failures    also list every failing test per library
//   node bench/cel/conformance.mjs --json FILE   also write the raw results as JSON
//
// Libraries / configurations compared:
//   marc      @marcbachmann/cel-js  new Environment({unlistedVariablesAreDyn: true})
//             (what the global parse()/evaluate() use: homogeneous list/map literals enforced)
//   marc-mix  @marcbachmann/cel-js  same, plus homogeneousAggregateLiterals: false
//             (spec behaviour for unchecked expressions: [1, 'a'] is a list(dyn))
//   buf       @bufbuild/cel         plan(celEnv(), parse(src))
// For the extension files (informational, not part of the core figure) marc also gets
// enableOptionalTypes: true and buf gets the `strings` extension functions.
//
// Scope: Arbiter evaluates conditions against activations built from JSON (bool, int as
// BigInt, double, string, null, list, string-keyed map). Files and tests that need protobuf
// message types, wrappers, Any/Struct, enums, containers, declared function types or that
// only check static types are skipped; see SKIPPED_FILES and skipReason().

import { writeFileSync } from 'node:fs';
import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import * as buf from '@bufbuild/cel';
import { strings as bufStrings } from '@bufbuild/cel/ext';
import { Environment } from '@marcbachmann/cel-js';
import { UnsignedInt, Duration as MarcDuration } from '@marcbachmann/cel-js/evaluator';

const args = process.argv.slice(2);
const showFailures = args.includes('--failures');
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;

// ---------------------------------------------------------------------------------------------
// Which files run.

const CORE_FILES = [
  'basic',
  'comparisons',
  'conversions',
  'fields',
  'fp_math',
  'integer_math',
  'lists',
  'logic',
  'macros',
  'parse',
  'plumbing',
  'string',
  'timestamps',
];
// CEL extensions (not part of the core language); run for information only.
const EXT_FILES = ['bindings_ext', 'block_ext', 'encoders_ext', 'macros2', 'math_ext', 'optionals', 'string_ext'];
const SKIPPED_FILES = {
  dynamic: 'protobuf wrappers, Any, Struct/Value/ListValue and message fields',
  enums: 'protobuf enum types (TestAllTypes.NestedEnum, GlobalEnum)',
  proto2: 'protobuf message literals and field semantics',
  proto2_ext: 'protobuf extensions',
  proto3: 'protobuf message literals and field semantics',
  wrappers: 'protobuf wrapper types',
  namespace: 'container / namespace resolution with declared identifiers',
  type_deductions: 'type-checker results only (typed_result / check_only)',
  unknowns: 'unknown-set evaluation (no tests in this release)',
};

const PROTO_RE = /TestAllTypes|NestedTestAllTypes|GlobalEnum|NestedEnum|google\.protobuf\.|cel\.expr\.conformance/;

// ---------------------------------------------------------------------------------------------
// Expected values: cel.expr.Value -> neutral form.
//   {t:'int'|'uint', v:bigint} {t:'double', v:number} {t:'string'|'bool', v} {t:'null'}
//   {t:'bytes', v:Uint8Array} {t:'list', v:[...]} {t:'map', v:[[k, v], ...]} {t:'type', v:name}
//   {t:'timestamp'|'duration', s:bigint, n:number}

const registry = getTestRegistry();
class Unsupported extends Error {}

function fromValue(value) {
  const k = value.kind;
  switch (k.case) {
    case 'nullValue':
      return { t: 'null' };
    case 'boolValue':
      return { t: 'bool', v: k.value };
    case 'int64Value':
      return { t: 'int', v: k.value };
    case 'uint64Value':
      return { t: 'uint', v: k.value };
    case 'doubleValue':
      return { t: 'double', v: k.value };
    case 'stringValue':
      return { t: 'string', v: k.value };
    case 'bytesValue':
      return { t: 'bytes', v: k.value };
    case 'listValue':
      return { t: 'list', v: k.value.values.map(fromValue) };
    case 'mapValue':
      return {
        t: 'map',
        v: k.value.entries.map((e) => [fromValue(e.key), fromValue(e.value)]),
      };
    case 'typeValue':
      return { t: 'type', v: k.value };
    case 'objectValue': {
      const msg = anyUnpack(k.value, registry);
      if (msg?.$typeName === 'google.protobuf.Timestamp') return { t: 'timestamp', s: msg.seconds, n: msg.nanos };
      if (msg?.$typeName === 'google.protobuf.Duration') return { t: 'duration', s: msg.seconds, n: msg.nanos };
      throw new Unsupported(`protobuf message value ${k.value.typeUrl}`);
    }
    case 'enumValue':
      throw new Unsupported('enum value');
    default:
      throw new Unsupported(`value kind ${k.case}`);
  }
}

function neutralEqual(a, b) {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case 'null':
      return true;
    case 'double':
      return a.v === b.v || (Number.isNaN(a.v) && Number.isNaN(b.v));
    case 'bytes':
      return a.v.length === b.v.length && a.v.every((x, i) => x === b.v[i]);
    case 'list':
      return a.v.length === b.v.length && a.v.every((x, i) => neutralEqual(x, b.v[i]));
    case 'map':
      return a.v.length === b.v.length && a.v.every(([ka, va]) => b.v.some(([kb, vb]) => neutralEqual(ka, kb) && neutralEqual(va, vb)));
    case 'timestamp':
    case 'duration':
      return BigInt(a.s) === BigInt(b.s) && a.n === b.n;
    default:
      return a.v === b.v;
  }
}

function show(n) {
  switch (n.t) {
    case 'null':
      return 'null';
    case 'int':
      return `${n.v}`;
    case 'uint':
      return `${n.v}u`;
    case 'double':
      return Number.isInteger(n.v) ? `${n.v}.0` : `${n.v}`;
    case 'string':
      return JSON.stringify(n.v);
    case 'bytes':
      return `b[${[...n.v].join(',')}]`;
    case 'list':
      return `[${n.v.map(show).join(', ')}]`;
    case 'map':
      return `{${n.v.map(([k, v]) => `${show(k)}: ${show(v)}`).join(', ')}}`;
    case 'type':
      return `type(${n.v})`;
    case 'timestamp':
    case 'duration':
      return `${n.t}(${n.s}s ${n.n}ns)`;
    default:
      return `${n.v}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Library adapters: expected bindings -> library input; library output -> neutral form.

function bindingsFor(test, toInput) {
  const out = {};
  for (const [name, exprValue] of Object.entries(test.bindings)) {
    if (exprValue.kind.case !== 'value') throw new Unsupported(`binding kind ${exprValue.kind.case}`);
    out[name] = toInput(exprValue.kind.value);
  }
  return out;
}

// Input conventions shared by both adapters, matching what Arbiter builds from JSON:
// string-keyed maps are plain objects, lists are arrays, ints BigInt, doubles number.
function makeToInput({ uint, map }) {
  const toInput = (value) => {
    const k = value.kind;
    switch (k.case) {
      case 'nullValue':
        return null;
      case 'boolValue':
      case 'int64Value':
      case 'doubleValue':
      case 'stringValue':
      case 'bytesValue':
        return k.value;
      case 'uint64Value':
        return uint(k.value);
      case 'listValue':
        return k.value.values.map(toInput);
      case 'mapValue': {
        const entries = k.value.entries.map((e) => [toInput(e.key), toInput(e.value)]);
        if (entries.every(([key]) => typeof key === 'string')) return Object.fromEntries(entries);
        return map(entries);
      }
      default:
        throw new Unsupported(`binding value kind ${k.case}`);
    }
  };
  return toInput;
}

function marcToNeutral(v) {
  switch (typeof v) {
    case 'bigint':
      return { t: 'int', v };
    case 'number':
      return { t: 'double', v };
    case 'string':
      return { t: 'string', v };
    case 'boolean':
      return { t: 'bool', v };
  }
  if (v === null) return { t: 'null' };
  if (v instanceof UnsignedInt) return { t: 'uint', v: v.valueOf() };
  if (v instanceof Uint8Array) return { t: 'bytes', v };
  if (Array.isArray(v)) return { t: 'list', v: v.map(marcToNeutral) };
  if (v instanceof Date) {
    const ms = BigInt(v.getTime());
    const s = ms >= 0n ? ms / 1000n : -((-ms + 999n) / 1000n);
    return { t: 'timestamp', s, n: Number(ms - s * 1000n) * 1e6 };
  }
  if (v instanceof MarcDuration) return { t: 'duration', s: v.seconds, n: v.nanos };
  if (v instanceof Map) return { t: 'map', v: [...v.entries()].map(([k, x]) => [marcToNeutral(k), marcToNeutral(x)]) };
  if (v?.constructor?.name === 'Type' && typeof v.name === 'string') return { t: 'type', v: v.name };
  if (typeof v === 'object')
    return {
      t: 'map',
      v: Object.entries(v).map(([k, x]) => [{ t: 'string', v: k }, marcToNeutral(x)]),
    };
  throw new Unsupported(`unrecognised marc output ${String(v)}`);
}

function bufToNeutral(v) {
  switch (typeof v) {
    case 'bigint':
      return { t: 'int', v };
    case 'number':
      return { t: 'double', v };
    case 'string':
      return { t: 'string', v };
    case 'boolean':
      return { t: 'bool', v };
  }
  if (v === null) return { t: 'null' };
  if (buf.isCelUint(v)) return { t: 'uint', v: v.value };
  if (v instanceof Uint8Array) return { t: 'bytes', v };
  if (buf.isCelType(v)) return { t: 'type', v: v.name };
  if (buf.isCelList(v)) return { t: 'list', v: [...v].map(bufToNeutral) };
  if (buf.isCelMap(v)) return { t: 'map', v: [...v.entries()].map(([k, x]) => [bufToNeutral(k), bufToNeutral(x)]) };
  if (isReflectMessage(v)) {
    const name = v.desc.typeName;
    if (name === 'google.protobuf.Timestamp') return { t: 'timestamp', s: v.message.seconds, n: v.message.nanos };
    if (name === 'google.protobuf.Duration') return { t: 'duration', s: v.message.seconds, n: v.message.nanos };
  }
  throw new Unsupported(`unrecognised buf output ${String(v)}`);
}

function marcAdapter(opts) {
  const env = new Environment({ unlistedVariablesAreDyn: true, ...opts });
  const toInput = makeToInput({
    uint: (v) => new UnsignedInt(v),
    map: (entries) => new Map(entries),
  });
  return {
    // Returns {value} or {error}. Parse errors and evaluation errors are both thrown.
    run(test, activation) {
      const bindings = activation ?? bindingsFor(test, toInput);
      let fn;
      try {
        fn = env.parse(test.expr);
      } catch (error) {
        return { error, phase: 'parse' };
      }
      try {
        return { value: fn(bindings) };
      } catch (error) {
        return { error, phase: 'eval' };
      }
    },
    toNeutral: marcToNeutral,
  };
}

function bufAdapter(envOptions) {
  const env = buf.celEnv(envOptions);
  const toInput = makeToInput({
    uint: (v) => buf.celUint(v),
    map: (entries) => new Map(entries),
  });
  return {
    // parse() throws on syntax errors; the planned function returns a CelError for evaluation
    // errors (and turns exceptions thrown inside it into CelErrors).
    run(test, activation) {
      const bindings = activation ?? bindingsFor(test, toInput);
      let fn;
      try {
        fn = buf.plan(env, buf.parse(test.expr));
      } catch (error) {
        return { error, phase: 'parse' };
      }
      try {
        const value = fn(bindings);
        if (buf.isCelError(value)) return { error: value, phase: 'eval' };
        return { value };
      } catch (error) {
        return { error, phase: 'eval-throw' };
      }
    },
    toNeutral: bufToNeutral,
  };
}

const LIBS = ['marc', 'marc-mix', 'buf'];
const CONFIGS = {
  core: {
    marc: marcAdapter({}),
    'marc-mix': marcAdapter({ homogeneousAggregateLiterals: false }),
    buf: bufAdapter(),
  },
  ext: {
    marc: marcAdapter({ enableOptionalTypes: true }),
    'marc-mix': marcAdapter({ enableOptionalTypes: true, homogeneousAggregateLiterals: false }),
    buf: bufAdapter({ funcs: bufStrings }),
  },
};

// ---------------------------------------------------------------------------------------------
// Per-test skip decision (test = cel.expr.conformance.test.SimpleTest).

function skipReason(test) {
  if (test.checkOnly) return 'check_only (type checker only)';
  const m = test.resultMatcher.case;
  if (m === 'typedResult') return 'typed_result (type checker)';
  if (m === 'unknown' || m === 'anyUnknowns') return 'unknown sets';
  if (test.container) return 'container (protobuf namespace)';
  if (test.disableMacros) return 'disable_macros';
  if (PROTO_RE.test(test.expr)) return 'protobuf types in expression';
  for (const decl of test.typeEnv) {
    if (decl.declKind.case !== 'ident') return 'declared function';
    const typeKind = decl.declKind.value.type?.typeKind.case;
    if (typeKind === 'messageType' || typeKind === 'wellKnown' || typeKind === 'wrapper') return 'declared protobuf-typed variable';
  }
  for (const b of Object.values(test.bindings)) {
    if (b.kind.case !== 'value') return 'non-value binding';
    const c = b.kind.value.kind.case;
    if (c === 'objectValue' || c === 'enumValue' || c === 'typeValue') return 'protobuf / type binding';
  }
  if (m === 'value') {
    try {
      fromValue(test.resultMatcher.value);
    } catch (e) {
      if (e instanceof Unsupported) return `expects ${e.message}`;
      throw e;
    }
  }
  return undefined;
}

function judge(adapter, test) {
  let r;
  try {
    r = adapter.run(test);
  } catch (e) {
    if (e instanceof Unsupported) return { status: 'skip', why: e.message };
    return { status: 'fail', why: `harness: ${e.message}` };
  }
  const m = test.resultMatcher.case;
  if (m === 'evalError' || m === 'anyEvalErrors') {
    if (r.error) return { status: 'pass' };
    let got;
    try {
      got = show(adapter.toNeutral(r.value));
    } catch {
      got = String(r.value);
    }
    return { status: 'fail', why: `expected error, got ${got}` };
  }
  const expected = m === 'value' ? fromValue(test.resultMatcher.value) : { t: 'bool', v: true };
  if (r.error) {
    const msg = String(r.error.message ?? r.error)
      .split('\n')[0]
      .slice(0, 110);
    return { status: 'fail', why: `${r.phase} error: ${msg}` };
  }
  let actual;
  try {
    actual = adapter.toNeutral(r.value);
  } catch (e) {
    return { status: 'fail', why: e.message };
  }
  if (neutralEqual(actual, expected)) return { status: 'pass' };
  return { status: 'fail', why: `expected ${show(expected)}, got ${show(actual)}` };
}

// ---------------------------------------------------------------------------------------------
// Run.

const suite = getConformanceSuite();
const rows = [];
const failures = Object.fromEntries(LIBS.map((l) => [l, []]));
const skipReasons = {};

for (const file of suite.suites) {
  const group = CORE_FILES.includes(file.name) ? 'core' : EXT_FILES.includes(file.name) ? 'ext' : null;
  const tests = file.suites.flatMap((section) => section.tests.map((t) => ({ section: section.name, test: t.original })));
  if (!group) {
    rows.push({ file: file.name, group: 'skipped', total: tests.length, skipped: tests.length });
    continue;
  }
  const row = { file: file.name, group, total: tests.length, skipped: 0 };
  for (const l of LIBS) row[l] = { pass: 0, fail: 0, skip: 0 };
  for (const { section, test } of tests) {
    const why = skipReason(test);
    if (why) {
      row.skipped++;
      skipReasons[why] = (skipReasons[why] ?? 0) + 1;
      continue;
    }
    for (const l of LIBS) {
      const res = judge(CONFIGS[group][l], test);
      row[l][res.status]++;
      if (res.status === 'fail')
        failures[l].push({
          group,
          id: `${file.name}/${section}/${test.name}`,
          expr: test.expr.replace(/\s+/g, ' '),
          why: res.why,
        });
    }
  }
  rows.push(row);
}

// ---------------------------------------------------------------------------------------------
// Arbiter-shaped cases: the activation is what the verdict gateway builds from JSON (safe
// integers as BigInt, other numbers as number, plain objects for maps). Expected results follow
// the CEL language definition for unchecked (dynamic) evaluation; 'error' means any error.

const B = (v) => ({ t: 'bool', v });
const ERR = 'error';
const ARBITER_CASES = [
  ['amount < 20', { amount: 19.5 }, B(true)],
  ['amount < 20.5', { amount: 20n }, B(true)],
  ['amount == 20.0', { amount: 20n }, B(true)],
  ['amount == 1', { amount: 1.5 }, B(false)],
  ['amount in [1, 2.5]', { amount: 1n }, B(true)],
  ['limit >= amount', { amount: 1.5, limit: 2n }, B(true)],
  ['int(amount) < 20', { amount: 19.5 }, B(true)],
  ['a + 1.5', { a: 5n }, ERR],
  ['a * b', { a: 2n ** 62n, b: 2n }, ERR],
  ['-a', { a: -(2n ** 63n) }, ERR],
  ['a / 0', { a: 1n }, ERR],
  ['x == null', { x: null }, B(true)],
  ['x == null', { x: 'a' }, B(false)],
  ['x.y == null', { x: { y: null } }, B(true)],
  ['has(x.y)', { x: { y: null } }, B(true)],
  ['has(x.y)', { x: {} }, B(false)],
  ['has({"y": null}.y)', {}, B(true)],
  ['x.y', { x: {} }, ERR],
  ['missing == 1', {}, ERR],
  ['y || true', {}, B(true)],
  ['x < 1', { x: 'a' }, ERR],
  ['x == 1', { x: 'a' }, B(false)],
  ['b && true', { b: 'yes' }, ERR],
  ['false && b', { b: 'yes' }, B(false)],
  ['true ? 1 : "a"', {}, { t: 'int', v: 1n }],
  ['"vip" in tags', { tags: ['a', 1n, null] }, B(false)],
  ['tags == ["a", 1]', { tags: ['a', 1n] }, B(true)],
  ['tags == [1.0]', { tags: [1n] }, B(true)],
  ['m == {"a": 1.0}', { m: { a: 1n } }, B(true)],
  ['m["k-1"] == true && "k-1" in m', { m: { 'k-1': true } }, B(true)],
  ['size(tags) > 0 && tags.exists(t, t.startsWith("pay"))', { tags: ['x', 'payments'] }, B(true)],
  ['items.all(i, i.price < 100)', { items: [{ price: 1n }, { price: 99.5 }] }, B(true)],
  ['items.all(i, i.price < 100)', { items: [{ price: 200n }, {}] }, B(false)],
  ['items.all(i, i.price < 100)', { items: [{ price: 1n }, {}] }, ERR],
  ['items.all(i, i.price < 100)', { items: [] }, B(true)],
  ['[].all(e, e > 0)', {}, B(true)],
  ['s.matches("^pay(ments)?[.]") && s.size() == 10', { s: 'payments.é' }, B(true)],
  ['timestamp(t) < timestamp("2030-01-01T00:00:00Z")', { t: '2025-01-01T00:00:00Z' }, B(true)],
];

const arbiterRow = Object.fromEntries(LIBS.map((l) => [l, { pass: 0, fail: 0, skip: 0 }]));
const arbiterFailures = Object.fromEntries(LIBS.map((l) => [l, []]));
for (const [expr, activation, expected] of ARBITER_CASES) {
  for (const l of LIBS) {
    const adapter = CONFIGS.core[l];
    // Bypass the conformance binding conversion: the activation is already in Arbiter's shape.
    const r = adapter.run({ expr, bindings: {} }, activation);
    let ok;
    let got;
    if (r.error) {
      ok = expected === ERR;
      got = `error (${String(r.error.message ?? r.error)
        .split('\n')[0]
        .slice(0, 70)})`;
    } else {
      const actual = adapter.toNeutral(r.value);
      ok = expected !== ERR && neutralEqual(actual, expected);
      got = show(actual);
    }
    arbiterRow[l][ok ? 'pass' : 'fail']++;
    if (!ok)
      arbiterFailures[l].push({
        expr,
        activation: JSON.stringify(activation, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
        expected: expected === ERR ? 'error' : show(expected),
        got,
      });
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

const pct = (p, n) => (n ? `${((100 * p) / n).toFixed(1)}%` : '-');
const cell = (c) => `${c.pass}/${c.pass + c.fail}${c.skip ? ` (+${c.skip}s)` : ''}`;
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

function printTable(group, title) {
  const rs = rows.filter((r) => r.group === group);
  console.log(`\n${title}`);
  console.log(`${pad('file', 14)}${lpad('tests', 6)}${lpad('skipped', 8)}` + LIBS.map((l) => lpad(`${l} pass/run`, 18)).join(''));
  const tot = { total: 0, skipped: 0 };
  for (const l of LIBS) tot[l] = { pass: 0, fail: 0, skip: 0 };
  for (const r of rs) {
    tot.total += r.total;
    tot.skipped += r.skipped;
    for (const l of LIBS) for (const k of ['pass', 'fail', 'skip']) tot[l][k] += r[l][k];
    console.log(`${pad(r.file, 14)}${lpad(r.total, 6)}${lpad(r.skipped, 8)}` + LIBS.map((l) => lpad(cell(r[l]), 18)).join(''));
  }
  console.log(`${pad('TOTAL', 14)}${lpad(tot.total, 6)}${lpad(tot.skipped, 8)}` + LIBS.map((l) => lpad(cell(tot[l]), 18)).join(''));
  console.log(`${pad('pass rate', 28)}` + LIBS.map((l) => lpad(pct(tot[l].pass, tot[l].pass + tot[l].fail), 18)).join(''));
  return tot;
}

console.log('CEL conformance (cel-spec v0.25.1 data from @bufbuild/cel-spec 0.6.1)');
console.log(
  'marc = @marcbachmann/cel-js Environment({unlistedVariablesAreDyn: true}); ' +
    'marc-mix = same + homogeneousAggregateLiterals: false; buf = @bufbuild/cel plan(celEnv(), parse())',
);
const coreTot = printTable('core', 'Core language files (counted)');
const extTot = printTable('ext', 'Extension files (informational; marc +enableOptionalTypes, buf +strings ext)');

console.log(`\nArbiter-shaped JSON cases (${ARBITER_CASES.length}, expected per CEL langdef, unchecked evaluation)`);
console.log(`${pad('', 28)}` + LIBS.map((l) => lpad(cell(arbiterRow[l]), 18)).join(''));
for (const l of LIBS)
  for (const f of arbiterFailures[l]) console.log(`  ${pad(l, 9)}${f.expr}  with ${f.activation}: expected ${f.expected}, got ${f.got}`);

console.log('\nFiles skipped entirely:');
for (const r of rows.filter((x) => x.group === 'skipped'))
  console.log(`  ${pad(r.file, 16)}${lpad(r.total, 4)} tests  ${SKIPPED_FILES[r.file] ?? 'not in scope'}`);
console.log('Tests skipped inside run files, by reason:');
for (const [why, n] of Object.entries(skipReasons).sort((a, b) => b[1] - a[1])) console.log(`  ${lpad(n, 4)}  ${why}`);

if (showFailures) {
  for (const l of LIBS) {
    console.log(`\nFailures for ${l} (${failures[l].length}):`);
    for (const f of failures[l]) console.log(`  [${f.group}] ${f.id}\n      ${f.expr.slice(0, 120)}\n      -> ${f.why}`);
  }
} else {
  console.log('\n(run with --failures to list every failing test)');
}

if (jsonOut) {
  writeFileSync(
    jsonOut,
    JSON.stringify(
      { rows, failures, skipReasons, coreTot, extTot, arbiterRow, arbiterFailures },
      (_, v) => (typeof v === 'bigint' ? `${v}` : v),
      2,
    ),
  );
  console.log(`wrote ${jsonOut}`);
}
