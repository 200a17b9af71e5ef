// A local HTTP server with the verdict contract's approval endpoints (POST/GET /<tenant>/v1/approvals[/<id>],
// POST …/decision), for SDK tests until the verdict service has them. It follows the spec's shapes
// and error codes; nothing else of the gateway.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Approval } from '../src/types';

export interface FakeApprovals {
  url: string;
  approvals: Map<string, Approval>;
  /** Requests as "METHOD path", in order. */
  requests: string[];
  /** Decides an approval as a candidate decider would. */
  decide(id: string, decision: 'approve' | 'reject', decider?: string): void;
  /** Lets a pending approval pass its expires_at (its status reads `expired` from then on). */
  expire(id: string): void;
  close(): Promise<void>;
}

export async function startFakeApprovals(opts: { tenant: string; approvalRequired?: Set<string> }): Promise<FakeApprovals> {
  const approvals = new Map<string, Approval>();
  const requests: string[] = [];
  let n = 0;
  const decide = (id: string, decision: 'approve' | 'reject', decider = 'hum-cfo') => {
    const a = approvals.get(id)!;
    Object.assign(a, {
      status: decision === 'approve' ? 'approved' : 'rejected',
      decision,
      decider,
      decider_notes: 'ok',
      decided_at: new Date().toISOString(),
    });
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers['x-api-key'] !== 'ak-test') return send(401, { code: 'missing_credentials', message: 'no key' });
      const url = new URL(req.url ?? '/', 'http://x');
      const m = /^\/([^/]+)\/v1\/approvals(?:\/([^/]+))?(\/decision)?$/.exec(url.pathname);
      if (!m) return send(404, { code: 'not_found', message: `No route for ${req.method} ${url.pathname}` });
      if (m[1] !== opts.tenant) return send(403, { code: 'cross_tenant_forbidden', message: 'another tenant' });
      const body = raw ? JSON.parse(raw) : {};
      if (req.method === 'POST' && !m[2]) {
        if (opts.approvalRequired && !opts.approvalRequired.has(body.consultation_id)) {
          return send(400, {
            code: 'consultation_not_approval_required',
            message: `consultation ${body.consultation_id} was not approval_required`,
          });
        }
        const id = `apr-${String(++n).padStart(4, '0')}`;
        const approval: Approval = {
          id,
          tenant_id: opts.tenant,
          status: 'pending',
          requester: 'agn-1',
          requester_principal: 'agn-1',
          intended_action: 'payments.transfer',
          intended_resource: 'acct:1',
          intended_parameters: {},
          intended_scope: {},
          triggers: [],
          requester_notes: body.requester_notes ?? '',
          requested_at: new Date().toISOString(),
          consultation_id: body.consultation_id,
          dominating_rule_id: null,
          candidate_deciders: ['role-cfo'],
          approvals_required: 1,
          approvals: [],
          expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          escalates_at: null,
          escalation_deciders: [],
          decider: null,
          decision: null,
          decider_notes: null,
          decided_at: null,
        };
        approvals.set(id, approval);
        return send(201, approval);
      }
      const approval = m[2] ? approvals.get(m[2]) : undefined;
      if (m[2] && !approval) return send(404, { code: 'approval_not_found', message: `approval ${m[2]} not found` });
      if (req.method === 'GET' && approval) return send(200, approval);
      if (req.method === 'GET') {
        const items = [...approvals.values()].filter((a) => !url.searchParams.get('status') || a.status === url.searchParams.get('status'));
        return send(200, { items, next_cursor: null });
      }
      if (req.method === 'POST' && m[3] && approval) {
        if (approval.status !== 'pending') return send(409, { code: 'already_decided', message: 'decided' });
        decide(approval.id, body.decision);
        return send(200, approval);
      }
      return send(404, { code: 'not_found', message: 'No route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    approvals,
    requests,
    decide,
    expire: (id) => Object.assign(approvals.get(id)!, { status: 'expired', expires_at: new Date().toISOString() }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
