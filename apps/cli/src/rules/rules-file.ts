// A rules file (docs/rules-as-code.md "The rules file"): one scope's whole rule set as YAML. Parsing
// checks the shape the registry's rule body has and then the write-time checks of libs/policy
// (ruleProblems), and reports every problem at its line; normalisation fills in the registry's
// defaults (docs/registry.md "Rules and versions") so that a file and the registry compare equal
// exactly when a PUT would change nothing.
import { isMap, isSeq, LineCounter, parseDocument, visit, Document, type Node } from 'yaml';
import { canonicalJson } from '@arbiter/canonical';
import { findMemberName, isInexactNumber, isPlainObject as isObject, PROTOTYPE_NAME } from '@arbiter/input';
import {
  ruleContent,
  ruleProblems,
  SEVERITIES,
  windowFieldProblems,
  type Condition,
  type ConditionOp,
  type LimitSpec,
  type PriorSpec,
  type Requirement,
  type RuleBodyFields,
  type Severity,
} from '@arbiter/policy';

export type RuleMode = 'enforce' | 'shadow';

/**
 * The content of a rule the registry compares and stores, every field present with its default
 * filled in (`{}` applies_to is `null`, duplicate deciders dropped, an `exists` row without value
 * has no `value` member), as `GET …/rules/{id}` answers it.
 */
export interface RuleContent {
  directive: string;
  severity: Severity;
  verdict: string | null;
  mode: RuleMode;
  priority: number | null;
  applies_to: { actions?: string[]; resources?: string[] } | null;
  condition_mode: 'all' | 'any';
  conditions: Condition[];
  requires: Requirement[];
  deciders: string[];
  /** The approval fields (docs/approvals.md "Quorum, escalation and expiry"); null / [] when not set. */
  approvals_required: number | null;
  escalate_after: number | null;
  escalation_deciders: string[];
  approval_expires_after: number | null;
  /** The fields that remember (docs/verdicts.md "Budgets, rates and sequences"); null when not set. */
  limit: LimitSpec | null;
  requires_prior: PriorSpec | null;
}

/** The fields of RuleContent, in the order a rules file writes them. */
export const CONTENT_FIELDS = [
  'directive',
  'severity',
  'verdict',
  'mode',
  'priority',
  'applies_to',
  'condition_mode',
  'conditions',
  'requires',
  'deciders',
  'approvals_required',
  'escalate_after',
  'escalation_deciders',
  'approval_expires_after',
  'limit',
  'requires_prior',
] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

/** One rule of a file: its content, the id it names (if any) and where it is. */
export interface FileRule {
  id: string | null;
  content: RuleContent;
  /** `rules[3]`, for messages. */
  where: string;
  line: number;
}

export interface RulesFile {
  name: string;
  scope: string;
  /** Informative (the scope's selector when exported); `rules test` evaluates the rules with it. */
  selector: Record<string, string | number | boolean>;
  rules: FileRule[];
}

export interface FileProblem {
  file: string;
  line: number;
  col: number;
  path: string;
  message: string;
}

/** A file that cannot be used as it stands: every problem found, each at its line. */
export class RulesFileError extends Error {
  constructor(readonly problems: FileProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'RulesFileError';
  }
}

export const formatProblem = (p: FileProblem) => `${p.file}:${p.line}:${p.col}: ${p.path ? `${p.path}: ` : ''}${p.message}`;

type Path = (string | number)[];
const pathText = (path: Path) => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

const RULE_ID = /^rul-[0-9a-f]{24}$/;
const SCOPE_ID = /^scp-[0-9a-f]{24}$/;
const VERDICT = /^[a-z][a-z0-9_]{0,63}$/;
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const DECIDER = /^(agn-[0-9a-f]{24}|hum-[0-9a-f]{24}|role-[a-z0-9][a-z0-9_.-]{0,62})$/;
const OPS: readonly ConditionOp[] = ['eq', 'neq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'exists', 'contains', 'starts_with'];
const REQUIREMENT_TYPES = ['string', 'number', 'integer', 'boolean', 'enum', 'date', 'datetime', 'object', 'array'];
const RULE_KEYS = new Set(['id', ...CONTENT_FIELDS]);
const REQUIREMENT_KEYS = new Set([
  'field',
  'reason',
  'type',
  'allowed_values',
  'min',
  'max',
  'format',
  'source_requirement',
  'acceptable_sources',
  'confidence_threshold',
]);
const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A parsed YAML document with line numbers: `problem` records a message at the node of a path (or at
 * its nearest existing parent when the path names a missing member).
 */
export class YamlSource {
  readonly problems: FileProblem[] = [];
  private readonly lines = new LineCounter();
  readonly doc: Document;

  constructor(
    readonly name: string,
    text: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.lines, uniqueKeys: true, prettyErrors: false });
    for (const e of [...this.doc.errors, ...this.doc.warnings]) {
      const pos = this.lines.linePos(e.pos[0]);
      this.problems.push({ file: name, line: pos.line, col: pos.col, path: '', message: e.message.split('\n')[0] });
    }
    if (this.ok) this.checkNumbers(text);
  }

  /**
   * A number the registry would refuse, found where it is written: `.nan` or `.inf` (no JSON number), or one a double
   * reads as another (9007199254740993, 0.10000000000000000001; docs/registry.md "Limits"). The value read from the
   * file would otherwise be compared, planned and sent already rounded, never refused.
   */
  private checkNumbers(text: string): void {
    visit(this.doc, {
      Scalar: (_key, node) => {
        if (typeof node.value !== 'number' || !node.range) return;
        const literal = text.slice(node.range[0], node.range[1]).trim();
        // YAML's decimal spellings beyond JSON's (+1, .5, 1.E3) read as JSON does once written its way; 0x1f and 0o17 are integers.
        const decimal = literal
          .replace(/^\+/, '')
          .replace(/^(-?)\./, '$10.')
          .replace(/\.(?=[eE]|$)/, '');
        const exact =
          Number.isFinite(node.value) && (JSON_NUMBER.test(decimal) ? !isInexactNumber(decimal) : Number.isSafeInteger(node.value));
        if (exact) return;
        const pos = this.lines.linePos(node.range[0]);
        this.problems.push({
          file: this.name,
          line: pos.line,
          col: pos.col,
          path: '',
          message: Number.isFinite(node.value)
            ? `the number ${literal} cannot be kept exactly (a double reads it as ${node.value}): write it as a string, or fewer digits`
            : `${literal} is not a number JSON can carry (the registry refuses NaN and infinities)`,
        });
      },
    });
  }

  get ok() {
    return this.doc.errors.length === 0;
  }

  /**
   * The document as plain data (an empty one is null). An alias bomb (aliases of aliases, growing
   * exponentially) stops at the yaml library's alias budget: it is recorded as a problem of the file
   * and the value is undefined, never a crash.
   */
  value(): unknown {
    try {
      return this.doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      if (!(err instanceof ReferenceError)) throw err;
      this.problem([], `the file uses aliases beyond reason (an alias bomb?): ${err.message}`);
      return undefined;
    }
  }

  lineOf(path: Path, atKey = false): { line: number; col: number } {
    if (atKey && path.length) {
      const parent = path.length === 1 ? this.doc.contents : this.doc.getIn(path.slice(0, -1), true);
      const pair = isMap(parent)
        ? parent.items.find((i) => (i.key as { value?: unknown } | null)?.value === path[path.length - 1])
        : undefined;
      const range = (pair?.key as Node | undefined)?.range;
      if (range) return this.lines.linePos(range[0]);
    }
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? this.doc.contents : (this.doc.getIn(path.slice(0, n), true) as Node | undefined);
      if (node && typeof node === 'object' && 'range' in node && node.range) return this.lines.linePos(node.range[0]);
    }
    return { line: 1, col: 1 };
  }

  /** Records a problem at the value of `path`, or (`atKey`: an unknown member) at its key. */
  problem(path: Path, message: string, atKey = false): void {
    this.problems.push({ file: this.name, ...this.lineOf(path, atKey), path: pathText(path), message });
  }

  /** Throws every problem recorded so far, if any, in the order of the file. */
  throwIfProblems(): void {
    if (this.problems.length) throw new RulesFileError([...this.problems].sort((a, b) => a.line - b.line || a.col - b.col));
  }
}

/**
 * Parses and checks a rules file; throws RulesFileError naming every problem at its line. `opts.scope` (plan's and
 * apply's --scope) stands for a `scope:` the file leaves out, so a shared file (examples/) is applied to a scope of
 * one's own without editing it; a file that names another scope is refused, never redirected.
 */
export function parseRulesFile(name: string, text: string, opts: { scope?: string } = {}): RulesFile {
  const src = new YamlSource(name, text);
  if (!src.ok) src.throwIfProblems();
  const top = src.value();
  if (top === undefined) src.throwIfProblems();
  if (!isObject(top)) {
    src.problem([], 'a rules file is a mapping with scope, selector and rules');
    src.throwIfProblems();
  }
  const doc = top as Record<string, unknown>;
  // The services refuse such a member in any body (docs/development.md "Storable JSON"); the engine here would read it.
  const prototypeMember = findMemberName(doc, (n) => n === PROTOTYPE_NAME);
  if (prototypeMember !== null)
    src.problem(prototypeMember, 'a member may not be named __proto__: the registry refuses it in any body (400)', true);
  for (const key of Object.keys(doc))
    if (!['scope', 'selector', 'rules'].includes(key))
      src.problem([key], `unknown member "${key}" (a rules file has scope, selector and rules)`, true);
  if (doc.scope === undefined && opts.scope !== undefined) {
    if (!SCOPE_ID.test(opts.scope)) src.problem([], `--scope ${opts.scope} is not a scope id (scp-…)`);
    doc.scope = opts.scope;
  } else if (typeof doc.scope !== 'string' || !SCOPE_ID.test(doc.scope)) {
    src.problem(['scope'], 'scope is required: the id (scp-…) of the scope the file manages (or, when the file leaves it out, --scope)');
  } else if (opts.scope !== undefined && opts.scope !== doc.scope) {
    src.problem(['scope'], `the file manages scope ${doc.scope}, not ${opts.scope} (--scope stands only for a scope the file leaves out)`);
  }
  const selector: Record<string, string | number | boolean> = {};
  if (doc.selector !== undefined && doc.selector !== null) {
    if (!isObject(doc.selector)) src.problem(['selector'], 'selector is a mapping of scope fields to strings, numbers or booleans');
    else
      for (const [k, v] of Object.entries(doc.selector)) {
        if (isScalar(v)) selector[k] = v;
        else src.problem(['selector', k], 'a selector value is a string, a number or a boolean');
      }
  }
  const rules: FileRule[] = [];
  if (!Array.isArray(doc.rules))
    src.problem(['rules'], "rules is required: a list of rules (`rules: []` for none; the file is the scope's whole rule set)");
  else
    doc.rules.forEach((r, i) => {
      const rule = parseRule(src, ['rules', i], r);
      if (rule) rules.push(rule);
    });
  duplicates(src, rules, (r) => r.id, 'id');
  duplicates(src, rules, (r) => r.content.directive, 'directive');
  src.throwIfProblems();
  return { name, scope: doc.scope as string, selector, rules };
}

function duplicates(src: YamlSource, rules: FileRule[], key: (r: FileRule) => string | null, what: string): void {
  const seen = new Map<string, FileRule>();
  for (const r of rules) {
    const k = key(r);
    if (k === null) continue;
    const first = seen.get(k);
    if (first) src.problem([...pathOf(r.where), what], `the same ${what} as ${first.where} (line ${first.line}): each rule appears once`);
    else seen.set(k, r);
  }
}

const pathOf = (where: string): Path =>
  where
    .split(/[.[\]]+/)
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

function parseRule(src: YamlSource, at: Path, raw: unknown): FileRule | null {
  const before = src.problems.length;
  const p = (sub: Path, message: string, atKey = false) => src.problem([...at, ...sub], message, atKey);
  if (!isObject(raw)) {
    p([], 'a rule is a mapping with at least directive and severity');
    return null;
  }
  for (const key of Object.keys(raw))
    if (!RULE_KEYS.has(key)) p([key], `unknown member "${key}" (a rule has ${[...RULE_KEYS].join(', ')})`, true);
  const id = raw.id ?? null;
  if (id !== null && (typeof id !== 'string' || !RULE_ID.test(id)))
    p(['id'], 'id is a rule id rul- followed by 24 hex digits (or absent: the rule is matched by its directive)');
  if (typeof raw.directive !== 'string' || raw.directive.trim() === '' || raw.directive.length > 20000)
    p(['directive'], 'directive is required: a non-empty text of at most 20,000 characters');
  if (typeof raw.severity !== 'string' || !(raw.severity in SEVERITIES))
    p(['severity'], `severity is required: one of ${Object.keys(SEVERITIES).join(', ')}`);
  if (raw.verdict !== undefined && raw.verdict !== null && (typeof raw.verdict !== 'string' || !VERDICT.test(raw.verdict)))
    p(['verdict'], 'verdict is a lowercase word (^[a-z][a-z0-9_]{0,63}$)');
  if (raw.mode !== undefined && raw.mode !== 'enforce' && raw.mode !== 'shadow') p(['mode'], 'mode is enforce or shadow');
  if (
    raw.priority !== undefined &&
    raw.priority !== null &&
    !(Number.isInteger(raw.priority) && Math.abs(raw.priority as number) <= 1_000_000)
  )
    p(['priority'], 'priority is an integer from -1,000,000 to 1,000,000');
  if (raw.condition_mode !== undefined && raw.condition_mode !== 'all' && raw.condition_mode !== 'any')
    p(['condition_mode'], 'condition_mode is all or any');
  checkAppliesTo(raw.applies_to, (sub, m, k) => p(['applies_to', ...sub], m, k));
  listOf(
    raw.conditions,
    'conditions',
    (sub, m, k) => p(['conditions', ...sub], m, k),
    (row, rp) => {
      for (const key of Object.keys(row))
        if (!['field', 'op', 'value'].includes(key)) rp([key], `unknown member "${key}" (a condition has field, op and value)`, true);
      if (typeof row.field !== 'string' || !FIELD_PATH.test(row.field)) rp(['field'], 'field is a dot path such as transfer.amount');
      if (!OPS.includes(row.op as ConditionOp)) rp(['op'], `op is one of ${OPS.join(', ')}`);
    },
  );
  listOf(
    raw.requires,
    'requires',
    (sub, m, k) => p(['requires', ...sub], m, k),
    (req, rp) => {
      for (const key of Object.keys(req))
        if (!REQUIREMENT_KEYS.has(key)) rp([key], `unknown member "${key}" (a requirement has ${[...REQUIREMENT_KEYS].join(', ')})`, true);
      if (typeof req.field !== 'string' || !FIELD_PATH.test(req.field)) rp(['field'], 'field is a dot path such as beneficiary.country');
      if (!REQUIREMENT_TYPES.includes(req.type as string)) rp(['type'], `type is one of ${REQUIREMENT_TYPES.join(', ')}`);
      // The member types the registry's Requirement holds (a member present is never null).
      if ('reason' in req && !(typeof req.reason === 'string' && req.reason.length <= 1000))
        rp(['reason'], 'reason is a text of at most 1,000 characters');
      if ('format' in req && !(typeof req.format === 'string' && req.format.length <= 100))
        rp(['format'], 'format is a text of at most 100 characters');
      for (const bound of ['min', 'max'] as const)
        if (bound in req && !(typeof req[bound] === 'number' && Number.isFinite(req[bound]))) rp([bound], `${bound} is a number`);
      if ('allowed_values' in req) {
        const values = req.allowed_values;
        if (!Array.isArray(values) || values.length === 0 || values.length > 1000)
          rp(['allowed_values'], 'allowed_values is a list of 1 to 1,000 strings, numbers or booleans');
        else
          values.forEach((v, i) =>
            isScalar(v) ? undefined : rp(['allowed_values', i], 'an allowed value is a string, a number or a boolean'),
          );
      }
    },
  );
  if (raw.deciders !== undefined && raw.deciders !== null) {
    if (!Array.isArray(raw.deciders)) p(['deciders'], 'deciders is a list of principal ids (agn-…, hum-…) and role ids (role-…)');
    else
      raw.deciders.forEach((d, i) =>
        typeof d === 'string' && DECIDER.test(d)
          ? undefined
          : p(['deciders', i], 'a decider is a principal id (agn-…, hum-…) or a role id (role-<name>)'),
      );
  }
  if (raw.escalation_deciders !== undefined && raw.escalation_deciders !== null && !Array.isArray(raw.escalation_deciders))
    p(['escalation_deciders'], 'escalation_deciders is a list of principal ids (agn-…, hum-…) and role ids (role-…)');
  // The fields that remember are checked as written (their normal form drops what it does not know).
  const windowProblems = windowFieldProblems({
    severity: typeof raw.severity === 'string' && raw.severity in SEVERITIES ? raw.severity : undefined,
    limit: raw.limit,
    requires_prior: raw.requires_prior,
  });
  for (const problem of windowProblems) {
    const m = /^((?:limit|requires_prior)(?:\.[a-z_]+)?(?:\[\d+\])?): (.*)$/.exec(problem);
    if (m) p(pathOf(m[1]), m[2]);
    else p([], problem);
  }
  if (src.problems.length > before) return null;
  const content = normaliseContent(raw);
  // The write-time checks the registry makes (libs/policy), at the line of the row they name.
  for (const problem of ruleProblems(content)) {
    if (windowProblems.includes(problem)) continue;
    const m = /^([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+)?): (.*)$/.exec(problem);
    if (m) p(pathOf(m[1]), m[2]);
    else p([], problem);
  }
  if (src.problems.length > before) return null;
  return { id: id as string | null, content, where: pathText(at), line: src.lineOf(at).line };
}

function checkAppliesTo(v: unknown, p: (sub: Path, m: string, atKey?: boolean) => void): void {
  if (v === undefined || v === null) return;
  if (!isObject(v)) return p([], 'applies_to is a mapping with actions and/or resources (lists of globs)');
  for (const key of Object.keys(v)) {
    if (key !== 'actions' && key !== 'resources') p([key], `unknown member "${key}" (applies_to has actions and resources)`, true);
    else if (
      !Array.isArray(v[key]) ||
      (v[key] as unknown[]).length === 0 ||
      !(v[key] as unknown[]).every((g) => typeof g === 'string' && g.length > 0 && g.length <= 500)
    ) {
      p([key], `${key} is a non-empty list of globs (omit it to match every ${key === 'actions' ? 'action' : 'resource'})`);
    }
  }
}

type Report = (sub: Path, m: string, atKey?: boolean) => void;

function listOf(v: unknown, what: string, p: Report, each: (item: Record<string, unknown>, p: Report) => void): void {
  if (v === undefined || v === null) return;
  if (!Array.isArray(v)) return p([], `${what} is a list`);
  if (v.length > 100) p([], `at most 100 ${what}`);
  v.forEach((item, i) => (isObject(item) ? each(item, (sub, m, k) => p([i, ...sub], m, k)) : p([i], `each of ${what} is a mapping`)));
}

/**
 * The registry's defaults applied to a rule's fields (a file rule, or a rule the registry answered):
 * the content a PUT of these fields stores.
 */
export function normaliseContent(r: Record<string, unknown>): RuleContent {
  const c = ruleContent(r as unknown as RuleBodyFields<Severity, Condition, Requirement>);
  // The file's key order (the export writer follows it).
  return {
    directive: c.directive,
    severity: c.severity,
    verdict: c.verdict,
    mode: c.mode,
    priority: c.priority,
    applies_to: c.applies_to,
    condition_mode: c.condition_mode,
    conditions: c.conditions,
    requires: c.requires.map((q) => ({ ...q })),
    deciders: c.deciders,
    approvals_required: c.approvals_required,
    escalate_after: c.escalate_after,
    escalation_deciders: c.escalation_deciders,
    approval_expires_after: c.approval_expires_after,
    limit: c.limit,
    requires_prior: c.requires_prior,
  };
}

const DEFAULTS: Partial<Record<ContentField, string>> = {
  verdict: canonicalJson(null),
  mode: canonicalJson('enforce'),
  priority: canonicalJson(null),
  applies_to: canonicalJson(null),
  condition_mode: canonicalJson('all'),
  conditions: canonicalJson([]),
  requires: canonicalJson([]),
  deciders: canonicalJson([]),
  approvals_required: canonicalJson(null),
  escalate_after: canonicalJson(null),
  escalation_deciders: canonicalJson([]),
  approval_expires_after: canonicalJson(null),
  limit: canonicalJson(null),
  requires_prior: canonicalJson(null),
};

/** Whether a field holds the registry's default (then a file and a body leave it out). */
export const isDefault = (c: RuleContent, f: ContentField) => DEFAULTS[f] !== undefined && canonicalJson(c[f]) === DEFAULTS[f];

/** The fields whose values differ (member order inside a value does not count; list order does). */
export function changedFields(a: RuleContent, b: RuleContent): ContentField[] {
  return CONTENT_FIELDS.filter((f) => canonicalJson(a[f]) !== canonicalJson(b[f]));
}

/** The registry's rule body for this content: non-default fields only (PUT gives the others their defaults). */
export function ruleBody(c: RuleContent): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of CONTENT_FIELDS) if (!isDefault(c, f)) body[f] = c[f];
  return body;
}

/** The rule as a file writes it: id first, then the non-default fields in CONTENT_FIELDS order. */
export function fileRule(id: string | null, c: RuleContent): Record<string, unknown> {
  return { ...(id ? { id } : {}), ...ruleBody(c) };
}

/**
 * Writes a rules file: stable member order, no server-only fields, defaults left out. Short
 * structures (applies_to, each condition row, deciders, the selector) are written in flow style.
 */
export function writeRulesFile(file: {
  scope: string;
  scopeName?: string;
  selector: Record<string, unknown>;
  rules: { id: string | null; content: RuleContent }[];
}): string {
  const doc = new Document({ scope: file.scope, selector: file.selector, rules: file.rules.map((r) => fileRule(r.id, r.content)) });
  const flow = (node: unknown) => {
    if (isMap(node) || isSeq(node)) node.flow = true;
  };
  flow(doc.get('selector', true));
  const rules = doc.get('rules', true);
  if (isSeq(rules)) {
    if (rules.items.length === 0) rules.flow = true;
    for (const rule of rules.items) {
      if (!isMap(rule)) continue;
      flow(rule.get('applies_to', true));
      flow(rule.get('deciders', true));
      flow(rule.get('escalation_deciders', true));
      for (const [field, list] of [
        ['limit', 'by'],
        ['requires_prior', 'same'],
      ]) {
        const spec = rule.get(field, true);
        if (isMap(spec)) flow(spec.get(list, true));
      }
      for (const key of ['conditions', 'requires']) {
        const list = rule.get(key, true);
        if (isSeq(list)) list.items.forEach(flow);
      }
    }
  }
  const name = file.scopeName ? ` (${file.scopeName})` : '';
  doc.commentBefore = ` The whole rule set of scope ${file.scope}${name}: \`arbiter rules plan -f\` / \`apply -f\` this file.\n Rules are matched by id, else by directive; rules of the scope missing here are archived (docs/rules-as-code.md).`;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}
