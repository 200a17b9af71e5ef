// Entry of the `arbiter` bin (apps/cli/dist/arbiter.js after `npm run build -w @arbiter/cli`).
import { processIo } from './io';
import { runCli } from './program';

runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
