import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress, parseWebhookUrl } from '../domain/webhook-url';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type WebhookTarget = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; problem: string };

/**
 * Parses a webhook URL and resolves its host: every address must be allowed (a host with one
 * private address among public ones is refused too), unless private targets are allowed by config
 * (WEBHOOK_ALLOW_PRIVATE). Used when a subscription is saved and again before every attempt.
 */
export async function resolveWebhookTarget(raw: string, allowPrivate: boolean): Promise<WebhookTarget> {
  const parsed = parseWebhookUrl(raw);
  if (!parsed.ok) return parsed;
  let addresses: ResolvedAddress[];
  const literal = isIP(parsed.host);
  if (literal) {
    addresses = [{ address: parsed.host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = (await lookup(parsed.host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch (err) {
      return { ok: false, problem: `url host ${parsed.host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
  if (!addresses.length) return { ok: false, problem: `url host ${parsed.host} does not resolve` };
  if (!allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) return { ok: false, problem: `url host ${parsed.host} resolves to ${bad.address}, a private, loopback, link-local or reserved address` };
  }
  return { ok: true, url: parsed.url, addresses };
}
