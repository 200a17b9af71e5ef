import { ArbiterError } from './errors';
import { createVerdictClient } from './verdict-client';
import { createRegistryClient } from './registry-client';
import { resilientFetch, retryAfterMs, SDK_VERSION, USER_AGENT } from './retry';
import pkg from '../package.json';

/** A fetch answering from a script (one entry per attempt; an Error is a failure to answer), recording bodies. */
function scripted(steps: Array<{ status: number; headers?: Record<string, string> } | Error>) {
  const seen: Array<{ method: string; url: string; body: string; ua: string | null }> = [];
  const fetch = async (req: Request) => {
    seen.push({ method: req.method, url: req.url, body: await req.text(), ua: req.headers.get('user-agent') });
    const step = steps[Math.min(seen.length - 1, steps.length - 1)];
    if (step instanceof Error) throw step;
    return new Response(
      JSON.stringify(
        step.status < 300
          ? { operation_status: 'complete', verdict: 'allowed' }
          : { code: step.status === 429 ? 'rate_limited' : 'registry_unavailable', message: 'not now' },
      ),
      {
        status: step.status,
        headers: { 'content-type': 'application/json', ...step.headers },
      },
    );
  };
  return { seen, fetch };
}

function pauses() {
  const slept: number[] = [];
  return { slept, sleep: async (ms: number) => void slept.push(ms), random: () => 0.5 };
}

const check = { action: 'a', resource: 'r', scope: {} };

describe('retries', () => {
  it('retries a 503 after its Retry-After, resending the same body, and answers the success', async () => {
    const s = scripted([{ status: 503, headers: { 'retry-after': '2' } }, { status: 200 }]);
    const p = pauses();
    const client = createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: s.fetch, retry: p });
    await expect(client.check(check)).resolves.toMatchObject({ verdict: 'allowed' });
    expect(p.slept).toEqual([2000]);
    expect(s.seen.map((r) => r.body)).toEqual([JSON.stringify(check), JSON.stringify(check)]);
  });

  it('backs off with full jitter on 429 without Retry-After (ceilings 250, 500, 1000 ms), then gives the last answer', async () => {
    const s = scripted([{ status: 429 }]);
    const p = pauses();
    const err = await createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: s.fetch, retry: p })
      .check(check)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(s.seen).toHaveLength(4);
    expect(p.slept).toEqual([125, 250, 500]);
  });

  it('does not wait for a Retry-After beyond maxDelayMs: the answer comes back at once', async () => {
    const s = scripted([{ status: 503, headers: { 'retry-after': '120' } }]);
    const p = pauses();
    await expect(createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: s.fetch, retry: p }).check(check)).rejects.toMatchObject(
      { status: 503 },
    );
    expect(s.seen).toHaveLength(1);
    expect(p.slept).toEqual([]);
  });

  it('never repeats other errors, nor a POST that got no answer (it may have been carried out)', async () => {
    const five = scripted([{ status: 500 }]);
    await expect(
      createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: five.fetch, retry: pauses() }).check(check),
    ).rejects.toMatchObject({ status: 500 });
    expect(five.seen).toHaveLength(1);
    const down = scripted([new TypeError('fetch failed')]);
    const err = await createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: down.fetch, retry: pauses() })
      .check(check)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArbiterError);
    expect(err).toMatchObject({ status: 0, code: 'network_error' });
    expect(down.seen).toHaveLength(1);
  });

  it('retries a GET that got no answer', async () => {
    const s = scripted([new TypeError('fetch failed'), { status: 200 }]);
    await createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: s.fetch, retry: pauses() }).getConsultation('cns-1');
    expect(s.seen.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('turns off with retry: false', async () => {
    const s = scripted([{ status: 503 }]);
    await expect(
      createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: s.fetch, retry: false }).check(check),
    ).rejects.toMatchObject({ status: 503 });
    expect(s.seen).toHaveLength(1);
  });

  it('ends an attempt that takes longer than timeoutMs as a network_error', async () => {
    const hanging = (req: Request) =>
      new Promise<Response>((_resolve, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason)));
    const err = await createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: hanging, timeoutMs: 50, retry: false })
      .check(check)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, code: 'network_error', message: expect.stringContaining('no answer within 50 ms') });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });

  it('a bare resilientFetch keeps the response of a status it does not retry', async () => {
    const s = scripted([{ status: 404 }]);
    const res = await resilientFetch(s.fetch, { retry: pauses() })(new Request('http://x/y'));
    expect(res.status).toBe(404);
  });
});

describe('User-Agent', () => {
  it('names the SDK and Node by default; the caller may replace it', async () => {
    const s = scripted([{ status: 200 }]);
    await createRegistryClient({ baseUrl: 'http://r', fetch: s.fetch }).raw.GET('/api/v1/webhooks/keys' as never);
    expect(s.seen[0].ua).toBe(USER_AGENT);
    expect(USER_AGENT).toBe(`arbiter-client/${pkg.version} node/${process.versions.node}`);
    expect(SDK_VERSION).toBe(pkg.version);
    await createVerdictClient({ baseUrl: 'http://v', tenant: 'acme', fetch: s.fetch, headers: { 'user-agent': 'payments-bot/2' } }).check(
      check,
    );
    expect(s.seen[1].ua).toBe('payments-bot/2');
  });
});
