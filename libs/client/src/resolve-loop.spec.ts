import { ResolveLoopError, VerdictError } from './errors';
import { resolveUntilComplete, type FactProvider } from './resolve-loop';
import type { Context, Requirement, ResolveResponse } from './types';

const complete: ResolveResponse = {
  operation_status: 'complete',
  verdict: 'allowed',
  cited_rule_ids: [],
  consultation_id: 'cns-1',
  signed_verdict: 'h.p.s',
  required_context_history: [],
};
const incomplete = (required_context: Requirement[], session = 'rs-1'): ResolveResponse => ({
  operation_status: 'incomplete',
  resolve_session_id: session,
  round: 1,
  required_context,
  provisional_context: {},
});
const amount: Requirement = { field: 'transfer.amount', reason: 'needed by rul-large', type: 'number', min: 0 };
const country: Requirement = { field: 'beneficiary.country', reason: 'sanctions', type: 'string', source_requirement: 'verified' };

/** A gateway that answers scripted responses and records every request body. */
function gateway(answers: ResolveResponse[]) {
  const bodies: Record<string, unknown>[] = [];
  return {
    bodies,
    async resolve(body: object) {
      bodies.push(JSON.parse(JSON.stringify(body)));
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  };
}

const request = { action: 'payments.transfer', resource: 'acct:1', scope: { region: 'eu' }, context: {} as Context };

describe(resolveUntilComplete.name, () => {
  const sut = resolveUntilComplete;

  it('sends the session id back with only the new facts until complete', async () => {
    const gw = gateway([incomplete([amount]), incomplete([country]), complete]);
    const provider: FactProvider = (reqs): Context =>
      reqs[0].field === 'transfer.amount'
        ? { 'transfer.amount': { value: 25000, source: 'agent' } }
        : { 'beneficiary.country': { value: 'DE', source: 'kyc', verification_status: 'verified' } };
    const result = await sut(gw, request, provider);
    expect(result.rounds).toBe(3);
    expect(result.response.consultation_id).toBe('cns-1');
    expect(gw.bodies[0]).toEqual({ ...request, context: {} });
    expect(gw.bodies[1]).toEqual({
      ...request,
      resolve_session_id: 'rs-1',
      context: { 'transfer.amount': { value: 25000, source: 'agent' } },
    });
    expect(gw.bodies[2].context).toEqual({ 'beneficiary.country': { value: 'DE', source: 'kyc', verification_status: 'verified' } });
    expect(Object.keys(result.context)).toEqual(['transfer.amount', 'beneficiary.country']);
  });

  it('gives the provider the Requirement objects and the round', async () => {
    const gw = gateway([incomplete([amount, country]), complete]);
    const seen: unknown[] = [];
    await sut(gw, request, (reqs, info) => {
      seen.push(reqs, info.round);
      return { 'transfer.amount': { value: 1, source: 'agent' } };
    });
    expect(seen).toEqual([[amount, country], 1]);
  });

  it('drops a fact that falls short of its Requirement, and stops with no_progress when nothing usable is left', async () => {
    const gw = gateway([incomplete([country])]);
    const err = await sut(gw, request, () => ({ 'beneficiary.country': { value: 'DE', source: 'agent' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResolveLoopError);
    expect(err).toMatchObject({ code: 'no_progress', rounds: 1, requirements: [country] });
    expect((err as Error).message).toContain('verification_status verified');
    expect(gw.bodies).toHaveLength(1);
  });

  it('sends a short fact anyway with invalidFacts send, and refuses it with invalidFacts throw', async () => {
    const fact = { 'transfer.amount': { value: -5, source: 'agent' } };
    const gw = gateway([incomplete([amount]), complete]);
    await expect(sut(gw, request, () => fact, { invalidFacts: 'send' })).resolves.toMatchObject({ rounds: 2 });
    expect(gw.bodies[1].context).toEqual(fact);
    const err = await sut(gateway([incomplete([amount])]), request, () => fact, { invalidFacts: 'throw' }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'fact_rejected',
      details: { field: 'transfer.amount', problems: [expect.objectContaining({ code: 'below_min' })] },
    });
  });

  it('stops with no_progress when the provider repeats a fact already sent', async () => {
    const gw = gateway([incomplete([amount]), incomplete([amount])]);
    const err = await sut(gw, request, () => ({ 'transfer.amount': { value: 5, source: 'agent' } })).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'no_progress', rounds: 2 });
  });

  it('stops with round_cap_reached after maxRounds calls', async () => {
    const gw = gateway([incomplete([amount]), incomplete([amount]), incomplete([amount])]);
    let n = 0;
    const err = await sut(gw, request, () => ({ 'transfer.amount': { value: ++n, source: 'agent' } }), { maxRounds: 2 }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'round_cap_reached', rounds: 2 });
    expect(gw.bodies).toHaveLength(2);
  });

  it('sends the whole context again when the gateway keeps no session', async () => {
    const gw = gateway([{ operation_status: 'incomplete', required_context: [amount] } as unknown as ResolveResponse, complete]);
    await sut(gw, { ...request, context: { a: { value: 1, source: 's' } } }, () => ({ 'transfer.amount': { value: 2, source: 'agent' } }));
    expect(gw.bodies[1]).not.toHaveProperty('resolve_session_id');
    expect(Object.keys(gw.bodies[1].context as object)).toEqual(['a', 'transfer.amount']);
  });

  it("lets the gateway's errors through as VerdictError", async () => {
    const tooMany = new VerdictError({ service: 'verdict', status: 429, code: 'too_many_rounds', message: 'cap' });
    const gw = { resolve: async () => Promise.reject(tooMany) };
    await expect(sut(gw, request, () => ({}))).rejects.toBe(tooMany);
  });
});
