/** What an operator CLI (apps/<service>/src/cli.ts) reads and writes: tests pass their own. */
export interface CliIo {
  /** The environment its configuration is loaded from. */
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
}

/** The process's own environment and stdout. */
export const processIo: CliIo = { env: process.env, out: (text) => void process.stdout.write(text) };

/**
 * Runs an operator CLI as the process's entry point: a failure prints `<name>: <message>` on stderr and sets exit
 * status 1; commander's help and version (thrown under exitOverride) are no failure.
 */
export function runCli(program: { parseAsync(argv: string[]): Promise<unknown> }, name: string): void {
  program.parseAsync(process.argv).catch((err: unknown) => {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
    process.stderr.write(`${name}: ${(err as Error).message}\n`);
    process.exitCode = 1;
  });
}
