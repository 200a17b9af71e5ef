import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, describeAddressClass, parseWebhookUrl } from '../domain/webhook-url';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to every address it has. The registry uses the system resolver; tests pass
 * their own (startRegistry's `deps.resolveHost`) to play a DNS answer that changes between the
 * subscription and the delivery.
 */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));

/**
 * `refused`: the URL or one of its addresses is not allowed — a permanent answer, so a delivery
 * stops there. Otherwise (the name did not resolve) it may resolve later: a delivery retries.
 */
export type WebhookTarget = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; problem: string; refused: boolean };

export interface TargetOptions {
  /** WEBHOOK_ALLOW_PRIVATE: skip the address classes (tests, the embedded default). */
  allowPrivate: boolean;
  resolve: HostResolver;
}

/**
 * Parses a webhook URL and resolves its host: every address must be allowed (a host with one
 * private address among public ones is refused too), unless private targets are allowed by config
 * (WEBHOOK_ALLOW_PRIVATE). Used when a subscription is saved and again before every attempt, whose
 * connection then goes to exactly these addresses. For a host name, the problem names the refused
 * range but not the address, so the answer is no oracle of the deployment's internal DNS.
 */
export async function resolveWebhookTarget(raw: string, opts: TargetOptions): Promise<WebhookTarget> {
  const parsed = parseWebhookUrl(raw);
  if (!parsed.ok) return { ...parsed, refused: true };
  const literal = isIP(parsed.host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: parsed.host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = await opts.resolve(parsed.host);
    } catch (err) {
      return {
        ok: false,
        problem: `url host ${parsed.host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        refused: false,
      };
    }
    if (!addresses.length) return { ok: false, problem: `url host ${parsed.host} does not resolve`, refused: false };
  }
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const c = classifyAddress(a.address);
      if (c.allowed) continue;
      const what = literal ? `url host ${parsed.host} is` : `url host ${parsed.host} resolves to an address that is`;
      return {
        ok: false,
        problem: `${what} not a public unicast address (${describeAddressClass(c)}): webhooks may not reach it`,
        refused: true,
      };
    }
  }
  return { ok: true, url: parsed.url, addresses };
}
