import { spawn, type ChildProcess } from 'node:child_process';

/** A deployable started from its bundle folder the way the image starts it: `node main.js` in WORKDIR. */
export interface AppProcess {
  /** The URL from the "listening" log line (services), undefined for the worker. */
  url?: string;
  child: ChildProcess;
  /** Everything written so far to stdout and stderr. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Starts `node main.js` in `dir` with exactly `env` (plus PATH): nothing leaks from the test process, so a variable
 * the app needs but the manifests forgot makes it fail here too. Resolves once it logs `readyMessage`.
 */
export function startApp(dir: string, env: Record<string, string>, readyMessage: string, timeoutMs = 45_000): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--enable-source-maps', 'main.js'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => void (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => void (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const proc: AppProcess = {
    child,
    output: () => output,
    exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${dir}: no "${readyMessage}" within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = () => {
      const line = output.split('\n').find((l) => l.includes(`"msg":"${readyMessage}"`));
      if (!line) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      proc.url = (JSON.parse(line) as { url?: string }).url;
      resolve(proc);
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${dir}: exited with ${code} before "${readyMessage}":\n${output}`));
    });
  });
}
