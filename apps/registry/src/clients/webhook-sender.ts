import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SignedRequest } from '../domain/webhook-signature';
import { resolveWebhookTarget, type ResolvedAddress, type TargetOptions } from './webhook-target';

export interface SendResult {
  /** A 2xx answer. */
  ok: boolean;
  /**
   * False when trying again cannot help: the destination is refused (an address webhooks may not
   * reach). Nothing was sent then. True for every other failure (a status, a timeout, DNS).
   */
  retryable: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** Receivers' answers are read (so the connection ends cleanly) but not kept beyond this. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_ERROR_LENGTH = 500;

/**
 * Sends one webhook attempt: resolves and checks the target again (DNS may have changed since the
 * subscription was saved), then connects to exactly the address it checked, so a second DNS
 * answer cannot point the request elsewhere (rebinding). No redirects are followed: a 3xx is a
 * failed attempt. Never throws: every outcome is a SendResult.
 */
export class WebhookSender {
  constructor(private readonly opts: TargetOptions & { timeoutMs: number }) {}

  async send(url: string, request: SignedRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = await resolveWebhookTarget(url, this.opts);
    if (!target.ok) {
      const error = target.refused ? `destination refused: ${target.problem}` : target.problem;
      return { ok: false, retryable: !target.refused, status_code: null, error: error.slice(0, MAX_ERROR_LENGTH), duration_ms: elapsed() };
    }
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const done = (status: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const ok = status !== null && status >= 200 && status < 300;
        resolve({
          ok,
          retryable: true,
          status_code: status,
          error: ok ? null : (error ?? `receiver answered ${status}`).slice(0, MAX_ERROR_LENGTH),
          duration_ms: elapsed(),
        });
      };
      const client = target.url.protocol === 'https:' ? https : http;
      const req = client.request(target.url, {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
        lookup: pinnedLookup(target.addresses),
        // A fresh connection per attempt: a pooled socket could outlive the address check.
        agent: false,
      });
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      req.on('response', (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => done(res.statusCode ?? null, null));
        res.on('close', () => done(res.statusCode ?? null, null));
        res.on('error', () => done(res.statusCode ?? null, null));
      });
      req.on('error', (err) => done(null, err.message || String(err)));
      req.end(request.body);
    });
  }
}

/**
 * A lookup that answers with the addresses already checked, in either callback form Node uses: the
 * socket connects to one of them and to nothing else. (An IP literal host skips lookup: it was the
 * address checked.)
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, addresses[0].address, addresses[0].family);
  }) as unknown as LookupFunction;
}
