// `arbiter rules export | plan | apply | test` (docs/rules-as-code.md): a scope's rules as a YAML file
// kept in a repository. plan and apply read the scope's active rules from the registry and match them
// with the file (rules/plan.ts); plan asks the verdict gateway to simulate the changes; test
// evaluates cases with the rule engine itself and no server (rules/rules-test.ts).
import { parseIsoDateOrTime } from '@arbiter/input';
import path from 'node:path';
import { ArbiterError, type Rule, type RuleBody, type SimulationRequest, type SimulationResult } from '@arbiter/client';
import { type CommandContext, type ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';
import { countOf, planChanges, planJson, PlanError, renderPlan, simulationChanges, type Plan } from '../rules/plan';
import { normaliseContent, parseRulesFile, ruleBody, RulesFileError, writeRulesFile, type RulesFile } from '../rules/rules-file';
import { parseTestFile, renderSuite, runSuite } from '../rules/rules-test';

export interface ExportOptions extends ServiceFlags {
  scope: string;
  out?: string;
}

export interface PlanOptions extends ServiceFlags {
  file: string;
  last: string;
  since?: string;
  samples?: string;
  simulate: boolean;
  verdictUrl?: string;
  verdictApiKey?: string;
  /** The scope of a file that leaves `scope:` out. */
  scope?: string;
}

export type ApplyOptions = ServiceFlags & { file: string; scope?: string };

/** The last N consultations of all history, not only of the simulation's default 7 days. */
const ALL_HISTORY = '1970-01-01T00:00:00.000Z';

export async function exportRules(ctx: CommandContext, opts: ExportOptions): Promise<number> {
  const registry = ctx.registry(opts, true, 'rules');
  const scope = await registry.getScope(opts.scope);
  const rules = await registry.listRules(opts.scope);
  const yaml = writeRulesFile({
    scope: scope.id,
    scopeName: scope.name,
    selector: scope.selector,
    rules: rules.map((r) => ({ id: r.id, content: normaliseContent(r) })),
  });
  if (opts.out) {
    await ctx.io.writeFile(opts.out, yaml).catch((err: Error) => {
      throw new CliError(`cannot write ${opts.out}: ${err.message}`);
    });
    ctx.print(
      { scope: scope.id, rules: rules.length, file: opts.out },
      `exported ${rules.length} rules of scope ${scope.id} (${scope.name}) to ${opts.out}`,
    );
  } else if (ctx.global.json) {
    ctx.print({ scope: scope.id, selector: scope.selector, rules: rules.map((r) => ({ id: r.id, ...ruleBody(normaliseContent(r)) })) }, '');
  } else {
    ctx.io.stdout(yaml);
  }
  return EXIT.ok;
}

async function readRulesFile(ctx: CommandContext, file: string, scope?: string): Promise<RulesFile> {
  const text = await ctx.readText(file, 'rules file');
  try {
    return parseRulesFile(file, text, { scope });
  } catch (err) {
    if (err instanceof RulesFileError)
      throw new CliError(
        `the rules file is not valid (${err.problems.length} ${err.problems.length === 1 ? 'problem' : 'problems'}):\n${err.message}`,
        EXIT.usage,
      );
    throw err;
  }
}

/** The file against the scope's active rules; notes when the file's selector is not the scope's. */
async function currentPlan(ctx: CommandContext, file: RulesFile, flags: ServiceFlags): Promise<{ plan: Plan; notes: string[] }> {
  const registry = ctx.registry(flags, true, 'rules');
  ctx.progress(`reading scope ${file.scope} and its active rules from the registry`);
  const scope = await registry.getScope(file.scope);
  const current: Rule[] = await registry.listRules(file.scope);
  const notes: string[] = [];
  if (JSON.stringify(sorted(scope.selector)) !== JSON.stringify(sorted(file.selector))) {
    notes.push(
      `note: the file's selector ${JSON.stringify(file.selector)} is not the scope's ${JSON.stringify(scope.selector)}; selectors are never applied (PATCH /scopes/${file.scope} to change it)`,
    );
  }
  try {
    return { plan: planChanges(file, current), notes };
  } catch (err) {
    if (err instanceof PlanError)
      throw new CliError(`the rules file cannot be matched with scope ${file.scope}:\n${err.message}`, EXIT.usage);
    throw err;
  }
}

const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

function positiveInt(value: string | undefined, option: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new CliError(`${option} takes an integer from ${min} to ${max}, not ${value}`);
  return n;
}

type Simulation = { status: 'done'; result: SimulationResult } | { status: 'skipped' | 'unavailable' | 'refused'; reason: string };

export async function planRules(ctx: CommandContext, opts: PlanOptions): Promise<number> {
  const last = positiveInt(opts.last, '--last', 1, 1_000_000)!;
  const samples = positiveInt(opts.samples, '--samples', 0, 100);
  if (opts.since !== undefined && parseIsoDateOrTime(opts.since) === null)
    throw new CliError(`--since takes an ISO 8601 date or timestamp, not ${opts.since}`);
  const file = await readRulesFile(ctx, opts.file, opts.scope);
  const { plan, notes } = await currentPlan(ctx, file, opts);
  let simulation: Simulation;
  if (!opts.simulate) simulation = { status: 'skipped', reason: '--no-simulate' };
  else if (plan.steps.length === 0) simulation = { status: 'skipped', reason: 'no changes' };
  else simulation = await simulate(ctx, plan, opts, { last, since: opts.since ?? ALL_HISTORY, samples });
  const human = [...renderPlan(plan), ...notes, ...renderSimulation(simulation, last)].join('\n');
  ctx.print({ ...planJson(plan), simulation: simulation.status === 'done' ? { status: 'done', ...simulation.result } : simulation }, human);
  return simulation.status === 'refused' ? EXIT.failed : EXIT.ok;
}

async function simulate(
  ctx: CommandContext,
  plan: Plan,
  opts: PlanOptions,
  w: { last: number; since: string; samples?: number },
): Promise<Simulation> {
  const verdict = ctx.verdict(
    { ...ctx.otherService('verdict', opts.verdictUrl, opts.verdictApiKey, opts.apiKey), tenant: opts.tenant },
    true,
    'rules',
  );
  const body = {
    changes: simulationChanges(plan),
    window: { since: w.since, last: w.last },
    ...(w.samples === undefined ? {} : { sample_limit: w.samples }),
  } as SimulationRequest;
  ctx.progress(`simulating ${plan.steps.length} changes over the last ${w.last} consultations`);
  try {
    return { status: 'done', result: await verdict.simulate(body) };
  } catch (err) {
    if (!(err instanceof ArbiterError)) throw err;
    // A gateway without the route (404) or out of reach: the diff still stands on its own.
    if (err.status === 0) return { status: 'unavailable', reason: `cannot reach the verdict service: ${err.message}` };
    if (err.status === 404) return { status: 'unavailable', reason: 'the verdict service has no simulation route (404)' };
    return {
      status: 'refused',
      reason: `the verdict service refused the simulation: ${err.status} ${err.code}: ${err.message.replace(/^\S+ \d+ \S+: /, '')}${err.details === undefined ? '' : ` ${JSON.stringify(err.details)}`}`,
    };
  }
}

function renderSimulation(s: Simulation, last: number): string[] {
  if (s.status === 'skipped') return s.reason === 'no changes' ? [] : [`simulation: skipped (${s.reason})`];
  if (s.status !== 'done') return [`simulation: ${s.status}: ${s.reason}`];
  const r = s.result;
  const lines = [
    `simulation over the last ${last} consultations (${r.window.since} to ${r.window.until}): ${r.evaluated} replayed, ${r.changed} would change`,
  ];
  for (const [transition, n] of Object.entries(r.transitions)) lines.push(`  ${transition.padEnd(36)} ${n}`);
  for (const x of r.samples)
    lines.push(
      `  e.g. ${x.consultation_id} ${x.requested_at} ${x.action} ${x.resource}: ${x.before} → ${x.after} (${x.dominating_rule_before ?? 'default'} → ${x.dominating_rule_after ?? 'default'})`,
    );
  return lines;
}

export async function applyRules(ctx: CommandContext, opts: ApplyOptions): Promise<number> {
  const file = await readRulesFile(ctx, opts.file, opts.scope);
  const { plan, notes } = await currentPlan(ctx, file, opts);
  const registry = ctx.registry(opts, true, 'rules');
  const done: { op: string; rule_id: string; directive: string }[] = [];
  // Creates and updates first, archives last: a rule being replaced stays in force until its successor is.
  const order = { create: 0, update: 1, archive: 2 } as const;
  for (const step of [...plan.steps].sort((a, b) => order[a.op] - order[b.op])) {
    if (step.op === 'create') {
      const rule = await registry.createRule(plan.scope, ruleBody(step.rule.content) as RuleBody);
      done.push({ op: 'created', rule_id: rule.id, directive: rule.directive });
    } else if (step.op === 'update') {
      const rule = await registry.updateRule(plan.scope, step.id, ruleBody(step.rule.content) as RuleBody);
      done.push({ op: 'updated', rule_id: rule.id, directive: rule.directive });
    } else {
      await registry.archiveRule(plan.scope, step.id);
      done.push({ op: 'archived', rule_id: step.id, directive: step.before.directive });
    }
  }
  const summary = done.length
    ? `scope ${plan.scope}: ${countOf(plan, 'create')} created, ${countOf(plan, 'update')} updated, ${countOf(plan, 'archive')} archived, ${plan.unchanged.length} unchanged`
    : `scope ${plan.scope}: no changes (${plan.unchanged.length} rules unchanged)`;
  const human = [summary, ...done.map((d) => `  ${d.op.padEnd(9)} ${d.rule_id} ${JSON.stringify(d.directive)}`), ...notes].join('\n');
  ctx.print({ scope: plan.scope, changes: done, unchanged: plan.unchanged.map((u) => u.id) }, human);
  return EXIT.ok;
}

/** Exit 0 when every case passes, 1 on any failure or an unusable file (like `opa test`). */
export async function testRules(ctx: CommandContext, opts: { file: string; verbose?: boolean }): Promise<number> {
  try {
    const text = await ctx.readText(opts.file, 'test file').catch((err: CliError) => {
      throw new CliError(err.message, EXIT.failed);
    });
    const suite = parseTestFile(opts.file, text);
    const dir = path.dirname(opts.file);
    const outcome = await runSuite(suite, (p) => ctx.io.readFile(path.resolve(dir, p)).then((t) => t));
    ctx.print(outcome, renderSuite(outcome, Boolean(opts.verbose)));
    return outcome.failed ? EXIT.failed : EXIT.ok;
  } catch (err) {
    if (err instanceof RulesFileError)
      throw new CliError(
        `the tests cannot run (${err.problems.length} ${err.problems.length === 1 ? 'problem' : 'problems'}):\n${err.message}`,
        EXIT.failed,
      );
    throw err;
  }
}
