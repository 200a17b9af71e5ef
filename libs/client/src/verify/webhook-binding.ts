// What a webhook delivery was made for (docs/webhooks.md "A delivery"): the body names the tenant and
// the subscription, inside what both signatures cover. The ECDSA key is one for the whole service,
// so a signature alone proves the registry sent the body — not that it was sent to you: a receiver
// compares these two fields with its own subscription, or a delivery captured by one subscriber
// could be replayed to another.
import type { ReportBuilder } from './report';

export interface WebhookBinding {
  /** The tenant your subscription belongs to (`tnt-…`): a delivery naming another tenant is refused. */
  tenantId?: string;
  /** Your subscription's id (`whk-…`): a delivery made for another subscription is refused. */
  subscriptionId?: string;
}

/**
 * Adds the `tenant_id` and `subscription_id` checks for the ids given; with neither, an `info`
 * line says the delivery was not checked against a subscription. Call it once the signature holds.
 */
export function expectBound(report: ReportBuilder, body: Buffer | string, binding: WebhookBinding): void {
  const wanted = (
    [
      ['tenant_id', binding.tenantId],
      ['subscription_id', binding.subscriptionId],
    ] as const
  ).filter(([, v]) => v !== undefined);
  if (!wanted.length) {
    report.info(
      'binding',
      'tenant_id and subscription_id not checked: pass tenantId and subscriptionId to refuse a delivery made for another subscription',
    );
    return;
  }
  let event: unknown;
  try {
    event = JSON.parse(Buffer.isBuffer(body) ? body.toString('utf8') : body);
  } catch {
    // Falls through to the check below, which fails.
  }
  const fields = event !== null && typeof event === 'object' && !Array.isArray(event) ? (event as Record<string, unknown>) : undefined;
  for (const [field, expected] of wanted) {
    const got = fields?.[field];
    report.expect(
      field,
      got === expected,
      `${field} is ${expected}`,
      fields
        ? `${field} is ${got === undefined ? 'absent' : JSON.stringify(got)}, not ${expected}: this delivery was made for another ${field === 'tenant_id' ? 'tenant' : 'subscription'}`
        : `the body is not a JSON object, so ${field} cannot be checked`,
    );
  }
}
