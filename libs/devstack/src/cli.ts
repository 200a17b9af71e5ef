import path from 'node:path';
import { DevstackError } from './errors';
import { bootstrapConsoleLink } from './console-link';
import { watchParent } from './parent';
import { defaultApps, formatBanner, RunningStack, shownPath, startStack, writeStackFile } from './stack';

/**
 * `npm start`: the embedded default of README.md "Configuration". scripts/start.mjs bundles the apps and this file (to
 * dist/devstack/cli.js), then runs it. Everything it does lives in stack.ts, which is tested; this file only wires
 * the process: output, signals and exit codes.
 *
 * Environment: DATABASE_URL_REGISTRY/VERDICT/LEDGER and REDIS_URL switch to external servers; PGPORT fixes the
 * embedded PostgreSQL port; REGISTRY_PORT, VERDICT_PORT, LEDGER_PORT, HOST; BOOTSTRAP_ADMIN_KEY, INTERNAL_TOKEN,
 * KEY_ENCRYPTION_KEY override the generated secrets; ARBITER_DATA_DIR (default <repo>/.data); ARBITER_START_APPS
 * runs a subset; ARBITER_SERVER_LOGS=1 shows everything PostgreSQL, Redis and the apps print (otherwise: one line per
 * component when it is ready, the apps' errors, and the last lines of whatever fails); ARBITER_ROOT (default: two levels
 * above this bundle) is where dist/apps/ is found.
 */

const COLORS = [36, 35, 33, 32, 34, 31];

function makeWriter(sources: string[]): (source: string, line: string) => void {
  const width = Math.max(...sources.map((s) => s.length));
  const color = process.stdout.isTTY && !process.env.NO_COLOR;
  const codes = new Map(sources.map((s, i) => [s, COLORS[i % COLORS.length]!]));
  return (source, line) => {
    const label = source.padEnd(width);
    const prefix = color ? `\x1b[${codes.get(source) ?? 90}m${label} |\x1b[0m` : `${label} |`;
    process.stdout.write(`${prefix} ${line}\n`);
  };
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // The bundle lives in <repo>/dist/devstack/cli.js.
  const root = env.ARBITER_ROOT ?? path.resolve(__dirname, '..', '..');
  const dataDir = path.resolve(env.ARBITER_DATA_DIR ?? path.join(root, '.data'));
  const apps = defaultApps(root, env);
  const write = makeWriter(['stack', 'postgres', 'redis', ...apps.map((a) => a.name)]);
  const say = (line: string) => write('stack', line);

  const controller = new AbortController();
  let stack: RunningStack | undefined;
  let shuttingDown: Promise<number> | undefined;

  let requestShutdown: () => void = () => undefined;
  const shutdownRequested = new Promise<undefined>((resolve) => (requestShutdown = () => resolve(undefined)));
  const shutdown = (code: number): Promise<number> =>
    (shuttingDown ??= (async () => {
      requestShutdown();
      controller.abort();
      if (stack) {
        say('stopping the services, then Redis and PostgreSQL...');
        await stack.stop();
        say('stopped');
      }
      return code;
    })());

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      say(`${signal} again: killing everything now`);
      for (const child of stack?.children.values() ?? []) child.kill('SIGKILL');
      process.exit(130);
    }
    say(`${signal} received`);
    void shutdown(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A closed terminal: without a handler Node would die at once and leave the servers running.
  process.on('SIGHUP', onSignal);
  // `npm start` passes a TERM sent to npm alone on to no one: when the parent is gone, stop as on a signal (parent.ts).
  watchParent(() => {
    say('the process that started this one is gone');
    void shutdown(0);
  });

  const serverLogs = env.ARBITER_SERVER_LOGS === '1';
  try {
    stack = await startStack({
      dataDir,
      apps,
      env,
      log: write,
      serverLogs,
      signal: controller.signal,
    });
  } catch (err) {
    if (shuttingDown) return shuttingDown;
    say(`could not start: ${err instanceof DevstackError ? err.message : ((err as Error).stack ?? String(err))}`);
    return 1;
  }
  if (shuttingDown) {
    // A signal arrived while the last service was becoming ready.
    return shutdown(0);
  }

  let stackFile: string | undefined;
  try {
    stackFile = shownPath(writeStackFile(dataDir, stack.urls));
  } catch (err) {
    say(`could not write the stack file for the CLI (${(err as Error).message}); arbiter then needs ARBITER_<SERVICE>_URL`);
  }
  // The console's embedded default needs no identity provider: a one-time link for the bootstrap admin.
  const consoleLink = stack.urls.registry
    ? await bootstrapConsoleLink(stack.urls.registry, stack.secrets.secrets.BOOTSTRAP_ADMIN_KEY)
    : undefined;
  process.stdout.write(formatBanner(stack, shownPath(path.join(dataDir, 'secrets.json')), stackFile, consoleLink));
  // Either a child dies on its own, or a signal starts the shutdown (then its exit is not reported as a crash).
  const exit = await Promise.race([stack.unexpectedExit, shutdownRequested]);
  if (exit && !shuttingDown) {
    if (!serverLogs) for (const line of stack.lastOutput(exit.name).split('\n')) if (line) write(exit.name, line);
    say(`${exit.name} exited unexpectedly (${describeExit(exit.code, exit.signal)}); stopping everything`);
    return shutdown(1);
  }
  return shuttingDown ?? shutdown(0);
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
