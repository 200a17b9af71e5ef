import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver got: the raw body bytes as text, and lower-cased headers. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  /** The status the receiver answered with (0 while it has not answered yet). */
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer's status code (default 200), possibly later (a slow receiver); reassign it to change the behaviour. */
  respond: (req: Received, index: number) => number | Promise<number>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records webhook deliveries (tests only). */
export async function startReceiver(respond: Receiver['respond'] = () => 200): Promise<Receiver> {
  const state = { received: [] as Received[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // Kept raw; a test will notice.
      }
      const entry: Received = { path: req.url ?? '/', headers: req.headers, raw, body, status: 0 };
      const index = state.received.length;
      state.received.push(entry);
      const status = await receiver.respond(entry, index);
      entry.status = status;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    received: state.received,
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
