// `npm start` runs the orchestrator in npm's child process. A TERM sent to npm alone (`kill <npm pid>`, a process
// manager stopping what it started) ends npm without passing the signal on, and the orchestrator, PostgreSQL, Redis
// and the services would run on, orphaned. So the orchestrator watches its parent and stops when it is gone.

/**
 * Calls `onGone` once when the process's parent changes (the parent exited and the process was adopted), checking
 * every `intervalMs`. The timer does not keep the process alive. Answers the function that stops watching.
 */
export function watchParent(onGone: () => void, opts: { intervalMs?: number; ppid?: () => number } = {}): () => void {
  const ppid = opts.ppid ?? (() => process.ppid);
  const parent = ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
