import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A copy of a migrations folder without the migrations `leaveOut` names: the schema of an earlier release, to
 * populate before the migrations under test run. Removed by the caller (or with the temporary folder).
 */
export async function migrationsWithout(dir: string, leaveOut: RegExp): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'arbiter-migrations-'));
  await cp(dir, copy, { recursive: true, filter: (src) => !leaveOut.test(path.basename(src)) });
  return copy;
}

/**
 * Runs `work` while `round(0)`, `round(1)`, ... run one after another until it is done: what the previous release
 * does meanwhile. A failed round fails the whole (after `work` finished). Answers `work`'s result, the rounds run,
 * and how many of them completed while `work` was still running.
 */
export async function whileRunning<T>(
  work: () => Promise<T>,
  round: (i: number) => Promise<void>,
): Promise<{ result: T; rounds: number; roundsDuring: number }> {
  let done = false;
  let rounds = 0;
  let roundsDuring = 0;
  let failure: { err: unknown } | undefined;
  const load = (async () => {
    while (!done) {
      await round(rounds++);
      if (!done) roundsDuring++;
    }
  })().catch((err: unknown) => void (failure = { err }));
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await load;
  }
  if (failure) throw failure.err;
  return { result, rounds, roundsDuring };
}
