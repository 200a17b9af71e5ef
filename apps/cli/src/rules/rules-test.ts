// `arbiter rules test` (docs/rules-as-code.md "The test file"): check requests with expected verdicts,
// evaluated by the rule engine itself (compilePolicy and evaluate of libs/policy, as the verdict
// gateway does) against the rules of the files the test file names, with no server.
import { bracketPath, isPlainObject as isObject, parseIsoInstant } from '@arbiter/input';
import {
  compilePolicy,
  decideWithLedger,
  engineRule,
  evaluate,
  factContradictingParameters,
  feedsMisnamedField,
  isParametersFactName,
  PolicyCompileError,
  PROTOTYPE_MEMBER,
  reservedParameterMember,
  reservedValueMember,
  WindowLedger,
  ruleVerdict,
  windowPlan,
  type CompiledPolicy,
  type EngineRule,
  type EvaluationRequest,
  type EvaluationResult,
  type Fact,
  type LimitState,
  type PriorState,
  type TenantPolicy,
  type WindowStates,
} from '@arbiter/policy';
import { parseRulesFile, RulesFileError, YamlSource, type FileRule, type RulesFile } from './rules-file';

/** One operation a case checks: a check request of the verdict contract, and who asks. */
export interface Operation {
  action: string;
  resource: string;
  scope: Record<string, string | number | boolean>;
  parameters: Record<string, unknown>;
  context: Record<string, Fact>;
  /** The calling principal (`limit.by: [principal]` keys on it). */
  principal: string;
  on_behalf_of: string | null;
}

export interface Expectation {
  verdict: string;
  rule?: string | null;
  missing?: string[];
}

/** A window's state a case states for a rule with a limit: what it held before the operation, or `unavailable`. */
export type GivenWindow = { used: number } | 'unavailable';
/** Whether a rule's earlier operation is there, or `unavailable`. */
export type GivenPrior = boolean | 'unavailable';

/** One check with its expectation; windows not stated are empty, priors not stated are not there. */
export interface TestCase extends Operation {
  kind: 'case';
  name: string;
  line: number;
  expect: Expectation;
  /** By the rule as the case names it (id, `<file>#rules[i]` or directive). */
  windows: Record<string, GivenWindow>;
  priors: Record<string, GivenPrior>;
}

/** A step of a sequence: an operation at an instant, or the report that an earlier step was not executed. */
export type SequenceStep =
  | ({ kind: 'check'; at: Date; where: string; line: number; expect: Expectation } & Operation)
  | { kind: 'give_back'; at: Date; where: string; line: number; give_back: number };

/** Operations replayed in order through one window ledger (docs/rules-as-code.md "Windows and sequences"). */
export interface SequenceTest {
  kind: 'sequence';
  name: string;
  line: number;
  steps: SequenceStep[];
}

export type TestEntry = TestCase | SequenceTest;

export interface TestSuite {
  name: string;
  /** Paths of the rules files as the test file writes them (relative to it). */
  rules: string[];
  settings: TenantPolicy;
  now: Date;
  cases: TestEntry[];
}

export interface CaseOutcome {
  name: string;
  passed: boolean;
  /** Why it failed, one line each. */
  failures: string[];
  /** A sequence: its last step's. */
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

/** The principal of an operation that names none. */
export const TEST_PRINCIPAL = 'agn-000000000000000000000000';

const TOP_KEYS = ['rules', 'settings', 'now', 'tests'];
const OPERATION_KEYS = ['action', 'resource', 'scope', 'parameters', 'context', 'principal', 'on_behalf_of'];
const CASE_KEYS = ['name', ...OPERATION_KEYS, 'expect', 'windows', 'priors'];
const SEQUENCE_KEYS = ['name', ...OPERATION_KEYS, 'sequence'];
const STEP_KEYS = ['at', ...OPERATION_KEYS, 'expect'];
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
    const ms = parseIsoInstant(doc.now);
    if (ms !== null) now = new Date(ms);
    else src.problem(['now'], 'now is an ISO 8601 timestamp with Z or an offset: the instant the cases are evaluated at');
  }
  const cases: TestEntry[] = [];
  if (!Array.isArray(doc.tests) || doc.tests.length === 0) src.problem(['tests'], 'tests is required: a list of cases');
  else
    doc.tests.forEach((raw, i) => {
      const c = isObject(raw) && 'sequence' in raw ? parseSequence(src, i, raw) : parseCase(src, i, raw);
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

type Report = (sub: (string | number)[], m: string, atKey?: boolean) => void;

function unknownKeys(raw: Record<string, unknown>, known: readonly string[], what: string, p: Report): void {
  for (const key of Object.keys(raw)) if (!known.includes(key)) p([key], `unknown member "${key}" (${what} has ${known.join(', ')})`, true);
}

/**
 * What the gateway refuses before it evaluates anything (docs/verdicts.md "Parameters and context"): a case built so
 * is no check the gateway would answer, and passing it would vouch for a decision nobody gets. Named as a problem of
 * the file, as the gateway names it.
 */
function gatewayRefusals(raw: Record<string, unknown>, p: Report): void {
  const parameters = isObject(raw.parameters) ? raw.parameters : {};
  const dotted = reservedParameterMember(parameters);
  if (dotted !== null)
    p(
      ['parameters'],
      `${bracketPath(['parameters', ...dotted])}: the gateway refuses a member name with a dot, or named $commit or __proto__ (400 validation_failed)`,
    );
  if (!isObject(raw.context)) return;
  for (const field of Object.keys(raw.context)) {
    if (isParametersFactName(field))
      p(['context', field], 'the gateway refuses a Fact named parameters or parameters.<field> (400 invalid_context_shape)');
    if (field === PROTOTYPE_MEMBER) p(['context', field], 'the gateway refuses a Fact named __proto__ (400 invalid_context_shape)');
    const fact = raw.context[field];
    const reserved = isObject(fact) ? reservedValueMember(fact.value) : null;
    if (reserved !== null)
      p(
        ['context', field, 'value', ...reserved],
        'the gateway refuses a member named $commit or __proto__ in a Fact value (400 invalid_context_shape)',
      );
  }
  const facts = raw.context as Record<string, Fact>;
  if (Object.values(facts).every((f) => isObject(f) && 'value' in f)) {
    const field = factContradictingParameters(parameters, facts);
    if (field !== null)
      p(
        ['context', field],
        `the gateway refuses a Fact that restates parameters.${field} with another value (422 context_contradicts_parameters)`,
      );
  }
}

/**
 * The operation members of `raw` as problems and values; `base` gives what `raw` leaves out (a sequence's
 * members for its steps). Required: action and resource, from `raw` or `base`.
 */
function parseOperation(raw: Record<string, unknown>, p: Report, base: Partial<Operation> = {}): Operation {
  for (const key of ['action', 'resource'] as const)
    if (raw[key] === undefined ? base[key] === undefined : typeof raw[key] !== 'string' || raw[key] === '')
      p([key], `${key} is required: a non-empty string`);
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
  gatewayRefusals(raw, p);
  if (raw.principal !== undefined && (typeof raw.principal !== 'string' || raw.principal === ''))
    p(['principal'], "principal is the calling principal's id, a non-empty string");
  if (raw.on_behalf_of !== undefined && raw.on_behalf_of !== null && (typeof raw.on_behalf_of !== 'string' || raw.on_behalf_of === ''))
    p(['on_behalf_of'], 'on_behalf_of is a principal id, a non-empty string (or null)');
  return {
    action: (raw.action ?? base.action) as string,
    resource: (raw.resource ?? base.resource) as string,
    scope: (raw.scope ?? base.scope ?? {}) as Operation['scope'],
    parameters: (raw.parameters ?? base.parameters ?? {}) as Record<string, unknown>,
    context: (raw.context ?? base.context ?? {}) as Record<string, Fact>,
    principal: (raw.principal ?? base.principal ?? TEST_PRINCIPAL) as string,
    on_behalf_of: (raw.on_behalf_of === undefined ? (base.on_behalf_of ?? null) : raw.on_behalf_of) as string | null,
  };
}

function parseExpect(raw: unknown, p: Report): Expectation | null {
  const expect = typeof raw === 'string' ? { verdict: raw } : raw;
  if (!isObject(expect) || typeof expect.verdict !== 'string' || expect.verdict === '') {
    p(
      ['expect'],
      'expect is required: a verdict (allowed, blocked, approval_required, observe, insufficient_context, …) or {verdict, rule?, missing?}',
    );
    return null;
  }
  for (const key of Object.keys(expect))
    if (!['verdict', 'rule', 'missing'].includes(key))
      p(['expect', key], `unknown member "${key}" (expect has verdict, rule and missing)`, true);
  if ('rule' in expect && expect.rule !== null && typeof expect.rule !== 'string')
    p(['expect', 'rule'], 'rule is a rule id, a directive, or null for the tenant default');
  if ('missing' in expect && !(Array.isArray(expect.missing) && expect.missing.every((f) => typeof f === 'string')))
    p(['expect', 'missing'], 'missing is a list of field paths');
  return {
    verdict: expect.verdict,
    ...('rule' in expect ? { rule: expect.rule as string | null } : {}),
    ...('missing' in expect ? { missing: expect.missing as string[] } : {}),
  };
}

/** `windows: {<rule>: {used: n} | unavailable}` and `priors: {<rule>: true | false | unavailable}`. */
function parseStates(raw: Record<string, unknown>, p: Report): Pick<TestCase, 'windows' | 'priors'> {
  const windows: Record<string, GivenWindow> = {};
  const priors: Record<string, GivenPrior> = {};
  if (raw.windows !== undefined) {
    if (!isObject(raw.windows)) p(['windows'], 'windows is a mapping of rules (id or directive) to {used: <number>} or unavailable');
    else
      for (const [rule, v] of Object.entries(raw.windows)) {
        if (v === 'unavailable') windows[rule] = v;
        else if (isObject(v) && Object.keys(v).join() === 'used' && typeof v.used === 'number' && Number.isFinite(v.used) && v.used >= 0)
          windows[rule] = { used: v.used };
        else p(['windows', rule], 'a window is {used: <a number >= 0>}, what it held before the operation, or unavailable');
      }
  }
  if (raw.priors !== undefined) {
    if (!isObject(raw.priors)) p(['priors'], 'priors is a mapping of rules (id or directive) to true, false or unavailable');
    else
      for (const [rule, v] of Object.entries(raw.priors)) {
        if (typeof v === 'boolean' || v === 'unavailable') priors[rule] = v;
        else p(['priors', rule], 'a prior is true (the earlier operation is there), false, or unavailable');
      }
  }
  return { windows, priors };
}

function parseCase(src: YamlSource, i: number, raw: unknown): TestCase | null {
  const before = src.problems.length;
  const p: Report = (sub, m, atKey = false) => src.problem(['tests', i, ...sub], m, atKey);
  if (!isObject(raw)) {
    p([], 'a case is a mapping with name, action, resource, expect and optionally scope, parameters, context (or name and sequence)');
    return null;
  }
  unknownKeys(raw, CASE_KEYS, 'a case', p);
  if (typeof raw.name !== 'string' || raw.name === '') p(['name'], 'name is required: a non-empty string');
  const operation = parseOperation(raw, p);
  const expect = parseExpect(raw.expect, p);
  const states = parseStates(raw, p);
  if (src.problems.length > before || !expect) return null;
  return { kind: 'case', name: raw.name as string, line: src.lineOf(['tests', i]).line, ...operation, expect, ...states };
}

function parseSequence(src: YamlSource, i: number, raw: Record<string, unknown>): SequenceTest | null {
  const before = src.problems.length;
  const p: Report = (sub, m, atKey = false) => src.problem(['tests', i, ...sub], m, atKey);
  unknownKeys(raw, SEQUENCE_KEYS, 'a sequence', p);
  if (typeof raw.name !== 'string' || raw.name === '') p(['name'], 'name is required: a non-empty string');
  // The sequence's own operation members are the defaults of its steps (checked as such, none required).
  const base = parseOperation({ action: raw.action ?? 'x', resource: raw.resource ?? 'x', ...raw }, p);
  const defaults: Partial<Operation> = {
    ...base,
    action: raw.action === undefined ? undefined : base.action,
    resource: raw.resource === undefined ? undefined : base.resource,
  };
  const steps: SequenceStep[] = [];
  const list = raw.sequence;
  if (!Array.isArray(list) || list.length === 0)
    p(['sequence'], 'sequence is a list of steps: {at, expect, and the operation} or {at, give_back: <index of an earlier step>}');
  else {
    let last = -Infinity;
    list.forEach((step, j) => {
      const sp: Report = (sub, m, atKey) => p(['sequence', j, ...sub], m, atKey);
      if (!isObject(step)) return sp([], 'a step is a mapping {at, expect, …} or {at, give_back}');
      const ms = parseIsoInstant(step.at);
      const at = ms === null ? null : new Date(ms);
      if (!at) sp(['at'], 'at is required: the ISO 8601 timestamp of the step, with Z or an offset');
      else if (at.getTime() < last) sp(['at'], 'the steps are in time order: at is before the step above');
      else last = at.getTime();
      const where = `tests[${i}].sequence[${j}]`;
      const line = src.lineOf(['tests', i, 'sequence', j]).line;
      if ('give_back' in step) {
        unknownKeys(step, ['at', 'give_back'], 'a give_back step', sp);
        const target = step.give_back;
        const earlier = Number.isInteger(target) && (target as number) >= 0 && (target as number) < j ? list[target as number] : null;
        if (!isObject(earlier) || 'give_back' in earlier)
          sp(['give_back'], 'give_back is the index (from 0) of an earlier check step whose operation was not executed');
        if (at) steps.push({ kind: 'give_back', at, where, line, give_back: target as number });
        return;
      }
      unknownKeys(step, STEP_KEYS, 'a step', sp);
      const operation = parseOperation(step, sp, defaults);
      const expect = parseExpect(step.expect, sp);
      if (at && expect) steps.push({ kind: 'check', at, where, line, expect, ...operation });
    });
  }
  if (src.problems.length > before) return null;
  return { kind: 'sequence', name: raw.name as string, line: src.lineOf(['tests', i]).line, steps };
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
  let policy: CompiledPolicy;
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
  const named = ruleNames(loaded);
  const cases = suite.cases.map((c) => (c.kind === 'case' ? runCase(policy, c, suite, named, seen) : runSequence(policy, c, seen)));
  const passed = cases.filter((c) => c.passed).length;
  return {
    suite: suite.name,
    rulesFiles: files.map((f) => ({ name: f.name, scope: f.scope, rules: f.rules.length })),
    cases,
    passed,
    failed: cases.length - passed,
  };
}

/** How a case may name a rule (its id or `<file>#rules[i]`, or its directive) to its label. */
function ruleNames(loaded: readonly LoadedRule[]): Map<string, LoadedRule> {
  const names = new Map<string, LoadedRule>();
  for (const l of loaded) names.set(l.rule.content.directive, l);
  for (const l of loaded) names.set(l.label, l);
  return names;
}

const requestOf = (o: Operation): EvaluationRequest => ({
  mode: 'check',
  action: o.action,
  resource: o.resource,
  scope: o.scope,
  parameters: o.parameters,
  context: o.context,
  principal: o.principal,
  on_behalf_of: o.on_behalf_of,
});

/** A case's stated windows and priors by rule label; a name that is no rule with that field stops the run. */
function givenStates(c: TestCase, file: string, named: ReadonlyMap<string, LoadedRule>) {
  const resolve = <T>(given: Record<string, T>, field: 'limit' | 'requires_prior', member: string): Map<string, T> => {
    const out = new Map<string, T>();
    for (const [name, value] of Object.entries(given)) {
      const rule = named.get(name);
      if (!rule || !rule.rule.content[field])
        throw new RulesFileError([
          { file, line: c.line, col: 1, path: `${c.name}: ${member}`, message: `${name} is not a rule of the rules files with ${field}` },
        ]);
      out.set(rule.label, value);
    }
    return out;
  };
  return { windows: resolve(c.windows, 'limit', 'windows'), priors: resolve(c.priors, 'requires_prior', 'priors') };
}

/** One check against empty windows, but for the states the case gives. */
function runCase(
  policy: CompiledPolicy,
  c: TestCase,
  suite: TestSuite,
  named: ReadonlyMap<string, LoadedRule>,
  rules: ReadonlyMap<string, LoadedRule>,
): CaseOutcome {
  const now = suite.now;
  const given = givenStates(c, suite.name, named);
  const req = requestOf(c);
  const plan = windowPlan(policy, req, now);
  const states: WindowStates = {
    limits: new Map(plan.limits.map((n): [string, LimitState] => [n.rule_id, given.windows.get(n.rule_id) ?? { used: 0 }])),
    priors: new Map(plan.priors.map((n): [string, PriorState] => [n.rule_id, given.priors.get(n.rule_id) ?? false])),
  };
  const result = evaluate(policy, req, now, null, null, states);
  const { failures, details } = judge(c.expect, result, rules);
  if (feedsMisnamedField(policy, req.parameters ?? {}))
    failures.unshift(
      'the gateway refuses this check (400 validation_failed, parameters.parameters): a rule reads a field named parameters.<path>',
    );
  return outcomeOf(c.name, failures, details, result, rules);
}

/** Every step in order through one window ledger; each step's failures name it. */
function runSequence(policy: CompiledPolicy, seq: SequenceTest, rules: ReadonlyMap<string, LoadedRule>): CaseOutcome {
  const ledger = new WindowLedger();
  const failures: string[] = [];
  const details: string[] = [];
  let last: EvaluationResult | null = null;
  seq.steps.forEach((step, j) => {
    const at = step.at.toISOString();
    if (step.kind === 'give_back') {
      const back = ledger.giveBack(`sequence[${step.give_back}]`, step.at.getTime());
      details.push(
        `sequence[${j}] ${at}: sequence[${step.give_back}] not executed, ${back.length ? back.map((b) => `${b.amount} back to ${b.rule_id} ${b.key}`).join(', ') : 'nothing to give back'}`,
      );
      return;
    }
    const { result, limits } = decideWithLedger(policy, requestOf(step), step.at, step.at.getTime(), ledger, `sequence[${j}]`);
    last = result;
    const judged = judge(step.expect, result, rules);
    failures.push(...judged.failures.map((f) => `sequence[${j}] ${at}: ${f}`));
    details.push(`sequence[${j}] ${at}: ${judged.details[0]}`, ...judged.details.slice(1));
    for (const l of limits) details.push(`  window ${l.rule_id} ${l.key} per ${l.window}: ${l.used_before} → ${l.used_after} of ${l.max}`);
  });
  return outcomeOf(seq.name, failures, details, last, rules);
}

function outcomeOf(
  name: string,
  failures: string[],
  details: string[],
  result: EvaluationResult | null,
  rules: ReadonlyMap<string, LoadedRule>,
): CaseOutcome {
  const verdict = result === null ? '' : result.status === 'complete' ? result.verdict : 'insufficient_context';
  const dominating = result?.status === 'complete' ? result.dominating_rule_id : null;
  return {
    name,
    passed: failures.length === 0,
    failures,
    verdict,
    rule: dominating,
    directive: dominating === null ? null : (rules.get(dominating)?.rule.content.directive ?? null),
    details,
  };
}

/**
 * Why the answer offline may not be the live one, or null. Rules that tie on severity, verdict, scope match and
 * priority are ranked by which version is newer: offline, a rule later in its file; live, the rule changed last, which
 * no file records (an update moves a rule's version, an export lists rules oldest first). When the rule that would be
 * next answers otherwise, the case cannot pass offline exactly when a check would.
 */
function recencyTie(result: EvaluationResult, rules: ReadonlyMap<string, LoadedRule>): string | null {
  if (result.status !== 'complete' || result.dominating_rule_id === null) return null;
  const firing = result.precedence_trace.filter((e) => e.reason === 'fires');
  const [first, next] = firing;
  if (!next || (first.decided_by !== 'recency' && first.decided_by !== 'rule_version_id')) return null;
  const answer = (id: string) => {
    const rule = rules.get(id)?.engine;
    return rule && ruleVerdict(rule.severity, rule.verdict);
  };
  if (answer(first.rule_id) === answer(next.rule_id) || result.dominating_rule_id !== first.rule_id) return null;
  return (
    `the verdict depends on which of ${first.rule_id} and ${next.rule_id} was changed last (they tie on severity, verdict, scope ` +
    `match and priority, and answer ${answer(first.rule_id)} and ${answer(next.rule_id)}): a check may answer either; give one a priority`
  );
}

function judge(
  expect: Expectation,
  result: EvaluationResult,
  rules: ReadonlyMap<string, LoadedRule>,
): { failures: string[]; details: string[] } {
  const describe = (id: string | null) =>
    id === null ? 'none (tenant default)' : `${id} ${JSON.stringify(rules.get(id)?.rule.content.directive ?? '')}`;
  const failures: string[] = [];
  const details: string[] = [];
  const verdict = result.status === 'complete' ? result.verdict : 'insufficient_context';
  const dominating = result.status === 'complete' ? result.dominating_rule_id : null;
  const missing = result.status === 'insufficient_context' ? result.missing_fields.map((m) => m.field) : [];
  if (verdict !== expect.verdict)
    failures.push(
      `expected ${expect.verdict}, got ${verdict}${result.status === 'complete' ? ` (dominating rule: ${describe(dominating)})` : ` (missing: ${missing.join(', ')})`}`,
    );
  if (expect.rule !== undefined) {
    const want = expect.rule;
    const ok =
      want === null
        ? dominating === null
        : dominating !== null && (dominating === want || rules.get(dominating)?.rule.content.directive === want);
    if (!ok)
      failures.push(
        `expected the dominating rule ${want === null ? 'none (tenant default)' : JSON.stringify(want)}, got ${describe(dominating)}`,
      );
  }
  const tie = recencyTie(result, rules);
  if (tie) failures.push(tie);
  if (expect.missing !== undefined) {
    const want = [...expect.missing].sort();
    if (want.join('\n') !== [...missing].sort().join('\n'))
      failures.push(`expected missing fields [${want.join(', ')}], got [${[...missing].sort().join(', ')}]`);
  }
  details.push(`verdict ${verdict}, dominating rule: ${describe(dominating)}`);
  if (missing.length) details.push(`missing context: ${missing.join(', ')}`);
  for (const t of result.precedence_trace) {
    const extra = t.missing_fields?.length ? ` (missing ${t.missing_fields.join(', ')})` : '';
    const window = t.limit_state ? ` (${t.limit_state})` : '';
    details.push(`  ${t.reason.padEnd(15)} ${t.severity.padEnd(8)} ${t.scope_match.padEnd(7)} ${describe(t.rule_id)}${extra}${window}`);
  }
  if (result.status === 'complete')
    for (const s of result.shadow ?? []) details.push(`  shadow rule ${describe(s.rule_id)} would have answered ${s.would_be}`);
  return { failures, details };
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
