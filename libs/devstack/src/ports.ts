import net from 'node:net';

/**
 * Asks the kernel for a free TCP port on the loopback interface. The port is released before returning, so another
 * process could take it in between; the servers started here bind it within milliseconds, which is good enough for a
 * development stack and a test run.
 *
 * `avoid` names ports chosen already but not bound yet (an app's port, picked before PostgreSQL and Redis start): the
 * kernel may hand a released port out again, so such a port is asked for again rather than given to a second server.
 */
export async function findFreePort(host = '127.0.0.1', avoid: Iterable<number> = []): Promise<number> {
  const taken = new Set(avoid);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = await askKernelForPort(host);
    if (!taken.has(port)) return port;
  }
  throw new Error(`the kernel kept returning ports already chosen (${[...taken].join(', ')})`);
}

function askKernelForPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('the kernel returned no port'))));
    });
  });
}

/** True when nothing listens on `host:port` yet (a bind attempt succeeds). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
