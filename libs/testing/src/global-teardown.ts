import { stopTestServers } from './global-setup';

/** Stops the servers of global-setup.ts and deletes their folder (globalThis is shared between the two hooks). */
export default async function globalTeardown(): Promise<void> {
  const servers = globalThis.__ARBITER_TEST_SERVERS__;
  if (!servers) return;
  globalThis.__ARBITER_TEST_SERVERS__ = undefined;
  await stopTestServers(servers);
}
