// `arbiter rules test` (docs/rules-as-code.md "The test file"): check requests with expected verdicts,
// evaluated by the rule engine itself (compilePolicy and evaluate of libs/policy, as the verdict
// gateway does) against the rules of the files the test file names, with no server.
import { isPlainObject as isObject } from '@arbiter/input';
import {
  compilePolicy,
  engineRule,
  evaluate,
  PolicyCompileError,
  type EngineRule,
  type EvaluationResult,
  type Fact,
  type TenantPolicy,
} from '@arbiter/policy';
import { parseRulesFile, RulesFileError, YamlSource, type FileRule, type RulesFile } from './rules-file';

export interface TestCase {
  name: string;
  line: number;
  action: string;
  resource: string;
  scope: Record<string, string | number | boolean>;
  parameters: Record<string, unknown>;
  context: Record<string, Fact>;
  expect: { verdict: string; rule?: string | null; missing?: string[] };
}

export interface TestSuite {
  name: string;
  /** Paths of the rules files as the test file writes them (relative to it). */
  rules: string[];
  settings: TenantPolicy;
  now: Date;
  cases: TestCase[];
}

export interface CaseOutcome {
  name: string;
  passed: boolean;
  /** Why it failed, one line each. */
  failures: string[];
  verdict: string;
  /** The dominating rule as the file names it (id, else file and position), null for the tenant default. */
  rule: string | null;
  directive: string | null;
  /** -v: the precedence trace, missing fields, shadow disagreements. */
  details: string[];
}

export interface SuiteOutcome {
  suite: string;
  rulesFiles: { name: string; scope: string; rules: number }[];
  cases: CaseOutcome[];
  passed: number;
  failed: number;
}

const TOP_KEYS = ['rules', 'settings', 'now', 'tests'];
const CASE_KEYS = ['name', 'action', 'resource', 'scope', 'parameters', 'context', 'expect'];
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Parses and checks a test file; throws RulesFileError naming every problem at its line. */
export function parseTestFile(name: string, text: string): TestSuite {
  const src = new YamlSource(name, text);
  if (!src.ok) src.throwIfProblems();
  const top = src.value();
  if (top === undefined) src.throwIfProblems();
  if (!isObject(top)) {
    src.problem([], 'a test file is a mapping with rules, tests and optionally settings and now');
    src.throwIfProblems();
  }
  const doc = top as Record<string, unknown>;
  for (const key of Object.keys(doc))
    if (!TOP_KEYS.includes(key)) src.problem([key], `unknown member "${key}" (a test file has ${TOP_KEYS.join(', ')})`, true);
  const rules = typeof doc.rules === 'string' ? [doc.rules] : doc.rules;
  if (!Array.isArray(rules) || rules.length === 0 || !rules.every((r) => typeof r === 'string' && r !== '')) {
    src.problem(['rules'], 'rules is required: the rules file, or a list of them, relative to this file');
  }
  const settings: TenantPolicy = {};
  if (doc.settings !== undefined && doc.settings !== null) {
    if (!isObject(doc.settings)) src.problem(['settings'], 'settings is a mapping (default_verdict, context_schema)');
    else
      for (const [k, v] of Object.entries(doc.settings)) {
        if (k === 'default_verdict' && typeof v === 'string' && v !== '') settings.default_verdict = v;
        else if (k === 'context_schema' && isObject(v)) settings.context_schema = v as TenantPolicy['context_schema'];
        else if (k === 'default_verdict' || k === 'context_schema') src.problem(['settings', k], `${k} has the wrong type`);
        else src.problem(['settings', k], `unknown setting "${k}" (the engine reads default_verdict and context_schema)`, true);
      }
  }
  let now = new Date();
  if (doc.now !== undefined) {
    now = new Date(typeof doc.now === 'string' ? doc.now : NaN);
    if (Number.isNaN(now.getTime())) src.problem(['now'], 'now is an ISO 8601 timestamp: the instant the cases are evaluated at');
  }
  const cases: TestCase[] = [];
  if (!Array.isArray(doc.tests) || doc.tests.length === 0) src.problem(['tests'], 'tests is required: a list of cases');
  else
    doc.tests.forEach((raw, i) => {
      const c = parseCase(src, i, raw);
      if (c) cases.push(c);
    });
  const names = new Map<string, number>();
  cases.forEach((c, i) => {
    if (names.has(c.name)) src.problem(['tests', i, 'name'], `the same name as the case at line ${names.get(c.name)}`);
    else names.set(c.name, c.line);
  });
  src.throwIfProblems();
  return { name, rules: rules as string[], settings, now, cases };
}

function parseCase(src: YamlSource, i: number, raw: unknown): TestCase | null {
  const before = src.problems.length;
  const p = (sub: (string | number)[], m: string, atKey = false) => src.problem(['tests', i, ...sub], m, atKey);
  if (!isObject(raw)) {
    p([], 'a case is a mapping with name, action, resource, expect and optionally scope, parameters, context');
    return null;
  }
  for (const key of Object.keys(raw))
    if (!CASE_KEYS.includes(key)) p([key], `unknown member "${key}" (a case has ${CASE_KEYS.join(', ')})`, true);
  for (const key of ['name', 'action', 'resource'])
    if (typeof raw[key] !== 'string' || raw[key] === '') p([key], `${key} is required: a non-empty string`);
  if (raw.scope !== undefined && !(isObject(raw.scope) && Object.values(raw.scope).every(isScalar)))
    p(['scope'], 'scope is a mapping of scope fields to strings, numbers or booleans');
  if (raw.parameters !== undefined && !isObject(raw.parameters)) p(['parameters'], 'parameters is a mapping');
  if (raw.context !== undefined) {
    if (!isObject(raw.context))
      p(['context'], 'context is a mapping of field paths to Facts {value, source, verification_status?, confidence?, as_of?}');
    else
      for (const [field, fact] of Object.entries(raw.context)) {
        if (!isObject(fact) || !('value' in fact) || typeof fact.source !== 'string')
          p(['context', field], 'a Fact has at least value and source');
      }
  }
  const expect = typeof raw.expect === 'string' ? { verdict: raw.expect } : raw.expect;
  if (!isObject(expect) || typeof expect.verdict !== 'string' || expect.verdict === '') {
    p(
      ['expect'],
      'expect is required: a verdict (allowed, blocked, approval_required, observe, insufficient_context, …) or {verdict, rule?, missing?}',
    );
  } else {
    for (const key of Object.keys(expect))
      if (!['verdict', 'rule', 'missing'].includes(key))
        p(['expect', key], `unknown member "${key}" (expect has verdict, rule and missing)`, true);
    if ('rule' in expect && expect.rule !== null && typeof expect.rule !== 'string')
      p(['expect', 'rule'], 'rule is a rule id, a directive, or null for the tenant default');
    if ('missing' in expect && !(Array.isArray(expect.missing) && expect.missing.every((f) => typeof f === 'string')))
      p(['expect', 'missing'], 'missing is a list of field paths');
  }
  if (src.problems.length > before) return null;
  const e = expect as Record<string, unknown>;
  return {
    name: raw.name as string,
    line: src.lineOf(['tests', i]).line,
    action: raw.action as string,
    resource: raw.resource as string,
    scope: (raw.scope ?? {}) as TestCase['scope'],
    parameters: (raw.parameters ?? {}) as Record<string, unknown>,
    context: (raw.context ?? {}) as Record<string, Fact>,
    expect: {
      verdict: e.verdict as string,
      ...('rule' in e ? { rule: e.rule as string | null } : {}),
      ...('missing' in e ? { missing: e.missing as string[] } : {}),
    },
  };
}

interface LoadedRule {
  engine: EngineRule;
  file: RulesFile;
  rule: FileRule;
  /** How outputs name it: its id, else `<file>#rules[i]`. */
  label: string;
}

/** The engine's rules from the rules files, in file order (later rules count as created later: the recency tie-break). */
export function engineRulesOf(files: readonly RulesFile[]): LoadedRule[] {
  const out: LoadedRule[] = [];
  const base = Date.parse('2000-01-01T00:00:00.000Z');
  for (const file of files) {
    for (const rule of file.rules) {
      const label = rule.id ?? `${file.name}#${rule.where}`;
      const c = rule.content;
      const n = out.length;
      out.push({
        file,
        rule,
        label,
        engine: engineRule(c, {
          rule_id: label,
          rule_version_id: `rv-test-${String(n).padStart(6, '0')}`,
          selector: file.selector,
          version_created_at: new Date(base + n * 1000).toISOString(),
        }),
      });
    }
  }
  return out;
}

/**
 * Runs every case of a suite. `read` reads a rules file by the path the test file gives (the caller
 * resolves it against the test file's folder). Throws RulesFileError when a rules file is unusable.
 */
export async function runSuite(suite: TestSuite, read: (path: string) => Promise<string>): Promise<SuiteOutcome> {
  const files: RulesFile[] = [];
  for (const path of suite.rules) {
    let text: string;
    try {
      text = await read(path);
    } catch (err) {
      throw new RulesFileError([
        { file: suite.name, line: 1, col: 1, path: 'rules', message: `cannot read the rules file ${path}: ${(err as Error).message}` },
      ]);
    }
    files.push(parseRulesFile(path, text));
  }
  const loaded = engineRulesOf(files);
  const seen = new Map<string, LoadedRule>();
  for (const l of loaded) {
    const twice = seen.get(l.label);
    if (twice)
      throw new RulesFileError([
        {
          file: l.file.name,
          line: l.rule.line,
          col: 1,
          path: l.rule.where,
          message: `rule ${l.label} is also in ${twice.file.name} (${twice.rule.where})`,
        },
      ]);
    seen.set(l.label, l);
  }
  let policy;
  try {
    policy = compilePolicy(
      loaded.map((l) => l.engine),
      [],
      suite.settings,
    );
  } catch (err) {
    if (err instanceof PolicyCompileError)
      throw new RulesFileError([{ file: suite.name, line: 1, col: 1, path: '', message: `the rules cannot be compiled: ${err.message}` }]);
    throw err;
  }
  const cases = suite.cases.map((c) => {
    const result = evaluate(
      policy,
      { mode: 'check', action: c.action, resource: c.resource, scope: c.scope, parameters: c.parameters, context: c.context },
      suite.now,
    );
    return judge(c, result, seen);
  });
  const passed = cases.filter((c) => c.passed).length;
  return {
    suite: suite.name,
    rulesFiles: files.map((f) => ({ name: f.name, scope: f.scope, rules: f.rules.length })),
    cases,
    passed,
    failed: cases.length - passed,
  };
}

function judge(c: TestCase, result: EvaluationResult, rules: ReadonlyMap<string, LoadedRule>): CaseOutcome {
  const describe = (id: string | null) =>
    id === null ? 'none (tenant default)' : `${id} ${JSON.stringify(rules.get(id)?.rule.content.directive ?? '')}`;
  const failures: string[] = [];
  const details: string[] = [];
  const verdict = result.status === 'complete' ? result.verdict : 'insufficient_context';
  const dominating = result.status === 'complete' ? result.dominating_rule_id : null;
  const missing = result.status === 'insufficient_context' ? result.missing_fields.map((m) => m.field) : [];
  if (verdict !== c.expect.verdict)
    failures.push(
      `expected ${c.expect.verdict}, got ${verdict}${result.status === 'complete' ? ` (dominating rule: ${describe(dominating)})` : ` (missing: ${missing.join(', ')})`}`,
    );
  if (c.expect.rule !== undefined) {
    const want = c.expect.rule;
    const ok =
      want === null
        ? dominating === null
        : dominating !== null && (dominating === want || rules.get(dominating)?.rule.content.directive === want);
    if (!ok)
      failures.push(
        `expected the dominating rule ${want === null ? 'none (tenant default)' : JSON.stringify(want)}, got ${describe(dominating)}`,
      );
  }
  if (c.expect.missing !== undefined) {
    const want = [...c.expect.missing].sort();
    if (want.join('\n') !== [...missing].sort().join('\n'))
      failures.push(`expected missing fields [${want.join(', ')}], got [${[...missing].sort().join(', ')}]`);
  }
  details.push(`verdict ${verdict}, dominating rule: ${describe(dominating)}`);
  if (missing.length) details.push(`missing context: ${missing.join(', ')}`);
  for (const t of result.precedence_trace) {
    const extra = t.missing_fields?.length ? ` (missing ${t.missing_fields.join(', ')})` : '';
    details.push(`  ${t.reason.padEnd(15)} ${t.severity.padEnd(8)} ${t.scope_match.padEnd(7)} ${describe(t.rule_id)}${extra}`);
  }
  if (result.status === 'complete')
    for (const s of result.shadow ?? []) details.push(`  shadow rule ${describe(s.rule_id)} would have answered ${s.would_be}`);
  return {
    name: c.name,
    passed: failures.length === 0,
    failures,
    verdict,
    rule: dominating,
    directive: dominating === null ? null : (rules.get(dominating)?.rule.content.directive ?? null),
    details,
  };
}

/** The report in the manner of `opa test`: a line per case, the reasons of failures, -v the details, then the counts. */
export function renderSuite(outcome: SuiteOutcome, verbose: boolean): string {
  const n = outcome.cases.length;
  const lines = [
    `${outcome.suite}: ${n} ${n === 1 ? 'case' : 'cases'} against ${outcome.rulesFiles.map((f) => `${f.name} (${f.rules} rules)`).join(', ')}`,
  ];
  for (const c of outcome.cases) {
    lines.push(`${c.passed ? 'PASS' : 'FAIL'}  ${c.name}`);
    for (const f of c.failures) lines.push(`        ${f}`);
    if (verbose) for (const d of c.details) lines.push(`        ${d}`);
  }
  lines.push('-'.repeat(80));
  lines.push(`PASS: ${outcome.passed}/${outcome.cases.length}`);
  if (outcome.failed) lines.push(`FAIL: ${outcome.failed}/${outcome.cases.length}`);
  return lines.join('\n');
}
