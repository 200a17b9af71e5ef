// The caller's loop of resolve (docs/verdicts.md "The resolve loop"): call resolve; if incomplete, obtain each required field and
// add it to the context as a Fact; repeat until complete or until the round cap is hit." The session
// (resolve_session_id, docs/verdicts.md) is sent back so that only the new facts travel each round.
import { canonicalJson } from '@arbiter/canonical';
import { ResolveLoopError } from './errors';
import { checkFact, type FactProblem } from './requirements';
import type {
  CompleteResolveResponse,
  Context,
  Fact,
  OverviewCompleteResponse,
  OverviewResolveRequest,
  Requirement,
  ResolveRequest,
  ResolveResponse,
} from './types';
import type { EvaluateOptions, VerdictClient } from './verdict-client';

export interface RoundInfo {
  /** 1 for the facts asked after the first call. */
  round: number;
  /** Every fact sent so far (accumulated across rounds). */
  context: Context;
  /** The gateway's echo of the accepted field values (shows a misspelt field name). */
  provisionalContext: Record<string, unknown>;
}

/**
 * Obtains facts for the required fields. It receives Requirements (docs/verdicts.md "Requirement": field, reason, type and,
 * when they apply, allowed_values, min/max, format, source_requirement, acceptable_sources,
 * confidence_threshold) and returns Facts keyed by field; a field it cannot supply is simply left out.
 */
export type FactProvider = (
  requirements: Requirement[],
  info: RoundInfo,
) => Promise<Context | undefined | void> | Context | undefined | void;

export interface ResolveLoopOptions extends EvaluateOptions {
  /** Calls of resolve at most (the gateway has its own cap, default 12: 429 too_many_rounds). Default 12. */
  maxRounds?: number;
  /**
   * What to do with a provided fact that falls short of its Requirement: `drop` it (default: the
   * gateway would refuse it and ask again), `send` it anyway, or `throw` ResolveLoopError fact_rejected.
   */
  invalidFacts?: 'drop' | 'send' | 'throw';
  /** Called after each incomplete round, e.g. for logs. */
  onRound?: (event: { round: number; requirements: Requirement[]; sent: string[]; dropped: DroppedFact[] }) => void;
}

export interface DroppedFact {
  field: string;
  fact: Fact;
  problems: FactProblem[];
}

export interface ResolveLoopResult<R> {
  /** The complete answer: the verdict, consultation_id and signed_verdict (detailed form). */
  response: R;
  /** Calls of resolve made. */
  rounds: number;
  /** The context as accumulated and sent. */
  context: Context;
  /** Facts the provider gave that were not sent because they fall short of their Requirement. */
  dropped: DroppedFact[];
}

type Complete<Q> = Q extends OverviewResolveRequest ? OverviewCompleteResponse : CompleteResolveResponse;

const isComplete = (r: ResolveResponse): r is CompleteResolveResponse | OverviewCompleteResponse => r.operation_status === 'complete';

/**
 * Runs resolve until the gateway answers complete. Throws ResolveLoopError (`round_cap_reached`,
 * `no_progress`, `fact_rejected`) when the loop cannot finish, and VerdictError for the gateway's
 * refusals (e.g. `too_many_rounds`, `invalid_context_shape`).
 */
export async function resolveUntilComplete<Q extends ResolveRequest | OverviewResolveRequest>(
  client: Pick<VerdictClient, 'resolve'>,
  request: Q,
  provideFacts: FactProvider,
  options: ResolveLoopOptions = {},
): Promise<ResolveLoopResult<Complete<Q>>> {
  const maxRounds = options.maxRounds ?? 12;
  const invalidFacts = options.invalidFacts ?? 'drop';
  const context: Context = { ...(request.context ?? {}) };
  let pending: Context = { ...context };
  let sessionId = request.resolve_session_id;
  const dropped: DroppedFact[] = [];
  let requirements: Requirement[] = [];

  for (let round = 1; ; round++) {
    if (round > maxRounds) {
      throw new ResolveLoopError(
        'round_cap_reached',
        `resolve still incomplete after ${maxRounds} rounds; outstanding: ${fieldList(requirements)}`,
        {
          rounds: maxRounds,
          requirements,
        },
      );
    }
    // With a session the gateway keeps earlier facts, so only new ones are sent; without, everything.
    const body = { ...request, context: sessionId ? pending : context, ...(sessionId ? { resolve_session_id: sessionId } : {}) } as Q;
    const response = await client.resolve(body, options);
    if (isComplete(response)) return { response: response as Complete<Q>, rounds: round, context, dropped };

    sessionId = response.resolve_session_id ?? undefined;
    requirements = response.required_context;
    const provisionalContext = 'provisional_context' in response ? response.provisional_context : {};
    const provided = (await provideFacts(requirements, { round, context: { ...context }, provisionalContext })) ?? {};

    pending = {};
    const droppedNow: DroppedFact[] = [];
    for (const [field, fact] of Object.entries(provided)) {
      if (fact === undefined) continue;
      const requirement = requirements.find((r) => r.field === field);
      const problems = requirement ? checkFact(fact, requirement) : checkFact(fact, { field, reason: '', type: 'any' });
      if (problems.length && invalidFacts !== 'send') {
        if (invalidFacts === 'throw') {
          throw new ResolveLoopError('fact_rejected', problems.map((p) => p.message).join('; '), {
            rounds: round,
            requirements,
            details: { field, problems },
          });
        }
        droppedNow.push({ field, fact, problems });
        continue;
      }
      // A fact identical to one already sent changes nothing: it does not count as progress.
      if (field in context && canonicalJson(context[field]) === canonicalJson(fact)) continue;
      pending[field] = fact;
      context[field] = fact;
    }
    dropped.push(...droppedNow);
    options.onRound?.({ round, requirements, sent: Object.keys(pending), dropped: droppedNow });
    if (Object.keys(pending).length === 0) {
      const why = droppedNow.length ? `; refused: ${droppedNow.flatMap((d) => d.problems.map((p) => p.message)).join('; ')}` : '';
      throw new ResolveLoopError('no_progress', `the fact provider supplied no new usable fact for ${fieldList(requirements)}${why}`, {
        rounds: round,
        requirements,
        details: { dropped: droppedNow },
      });
    }
  }
}

/** The outstanding fields with the gateway's reasons (which say why a fact sent before was not enough). */
const fieldList = (requirements: Requirement[]) =>
  requirements.length ? requirements.map((r) => `${r.field} (${r.reason})`).join('; ') : '(none)';
