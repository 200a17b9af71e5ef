import { Body, Controller, Example, Middlewares, Path, Post, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { ownBody } from '@arbiter/http';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { SimulationRequest, SimulationResult } from '../models/simulations';

const RESULT_EXAMPLE: SimulationResult = {
  evaluated: 1234,
  changed: 17,
  transitions: { 'allowed->blocked': 12, 'approval_required->allowed': 5 },
  samples: [
    {
      consultation_id: 'cns-0b8e4f1a2c6d9e3f7a5b1c08',
      requested_at: '2026-11-22T17:04:11.532Z',
      action: 'payments.transfer',
      resource: 'acct:eu/4471',
      before: 'allowed',
      after: 'blocked',
      dominating_rule_before: 'rul-8d1e6b2f90a4c7e35b12d0f4',
      dominating_rule_after: 'changes[0]',
    },
  ],
  window: { since: '2026-11-16T00:00:00.000Z', until: '2026-11-23T00:00:00.000Z', last: 10000 },
  evaluated_at: '2026-11-23T09:30:00.000Z',
};

/**
 * POST /<tenant_id>/v1/simulations. `simulate` is the route's handler; it runs through `ownBody`: tsoa
 * has checked the credentials and the `manage_rules` permission, and the body arrives as sent, checked
 * once by SimulationService (domain/simulation-request.ts, errors naming `changes[i]`) rather than by
 * tsoa's generic validation.
 */
@Route('{tenant_id}/v1/simulations')
@Tags('Simulations')
export class SimulationsController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * Replays the window's stored consultations against the tenant's current rules ("before") and
   * against them plus the proposed changes ("after"), at one instant, and counts what changed: create,
   * update and archive of rules, create and archive of overrides. Writes nothing. A rule the
   * simulation creates is named `changes[<i>]`. Needs `manage_rules`, with a key valid for every scope (a
   * simulation replays every scope's consultations; docs/verdicts.md "Simulation").
   * @param tenant_id The tenant id (or slug); it must be the API key's own tenant.
   * @example body.block_large_transfers {"changes": [{"op": "create", "rule": {"scope_id": "scp-5f0c2a9e41b7d3c8a6e1f203", "directive": "Transfers above 10,000 EUR are blocked", "severity": "MANDATORY", "applies_to": {"actions": ["payments.transfer"]}, "conditions": [{"field": "transfer.amount", "op": "gt", "value": 10000}]}}, {"op": "archive", "rule_id": "rul-8d1e6b2f90a4c7e35b12d0f4"}, {"op": "create", "override": {"target_ids": ["rul-2c7a9e0b5d13f48e6a91c2d7"], "type": "permanent", "applies_to_scope": {"region": "eu"}}}], "window": {"since": "2026-11-16T00:00:00Z", "until": "2026-11-23T00:00:00Z", "last": 10000}, "sample_limit": 1}
   * @summary Replay stored consultations against changed rules
   */
  @Post()
  @Security('apiKey', ['manage_rules'])
  @Example<SimulationResult>(RESULT_EXAMPLE)
  @Response<ErrorBody>(400, 'validation_failed: details.field names the change or field (changes[2].rule_id, window.since, ...)')
  @Response<ErrorBody>(401, 'missing_credentials, invalid_credentials')
  @Response<ErrorBody>(
    403,
    'insufficient_permission (manage_rules, or a key restricted to some scopes), cross_tenant_forbidden, principal_deactivated',
  )
  @Response<ErrorBody>(404, 'tenant_not_found')
  @Response<ErrorBody>(
    503,
    'registry_unavailable, policy_unavailable, auth_unavailable; evaluation_budget_exceeded: the replays needed more engine time than SIMULATION_BUDGET_MS (the message names the budget)',
  )
  @Middlewares(ownBody(SimulationsController, (c, req) => c.simulate(String(req.params.tenant_id), req as never, req.body)))
  async simulate(
    @Path() tenant_id: string,
    @Request() req: { user: AuthenticatedIdentity },
    @Body() body: SimulationRequest,
  ): Promise<SimulationResult> {
    return this.ctx.simulations.simulate(req.user, tenant_id, body);
  }
}
