// Agents retry. Without memory, every retry of a call awaiting an approval would file one more
// approval for the same operation and flood the deciders. The guard remembers, per verdict client,
// the pending approval of each operation it filed, and answers a retry with that same approval while
// it is pending (docs/agents.md).
import { canonicalJson } from '@arbiter/canonical';
import type { GuardedCall } from './outcome';

/** Operations remembered per client at most; the oldest is forgotten first. */
const MAX_ENTRIES = 1000;

export class PendingApprovals {
  private readonly byOperation = new Map<string, string>();
  /** The filing under way for an operation: calls of it made meanwhile (a batch, parallel retries) share it. */
  private readonly filing = new Map<string, Promise<unknown>>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  static keyOf(call: GuardedCall): string {
    return canonicalJson({
      action: call.action,
      resource: call.resource,
      scope: call.scope,
      parameters: call.parameters,
      on_behalf_of: call.onBehalfOf ?? null,
    });
  }

  get(call: GuardedCall): string | undefined {
    return this.byOperation.get(PendingApprovals.keyOf(call));
  }

  remember(call: GuardedCall, approvalId: string): void {
    const key = PendingApprovals.keyOf(call);
    this.byOperation.delete(key);
    this.byOperation.set(key, approvalId);
    if (this.byOperation.size > this.maxEntries) this.byOperation.delete(this.byOperation.keys().next().value!);
  }

  forget(call: GuardedCall): void {
    this.byOperation.delete(PendingApprovals.keyOf(call));
  }

  /**
   * Runs `file` for the call unless a filing of the same operation is under way, whose result is then answered:
   * identical calls made at the same time get one approval, as retries made one after another do.
   */
  once<T>(call: GuardedCall, file: () => Promise<T>): Promise<T> {
    const key = PendingApprovals.keyOf(call);
    const running = this.filing.get(key);
    if (running) return running as Promise<T>;
    const started = file().finally(() => this.filing.delete(key));
    this.filing.set(key, started);
    return started;
  }
}

const perClient = new WeakMap<object, PendingApprovals>();

/** The memory shared by every guarded call made through one client object. */
export function pendingApprovalsOf(client: object): PendingApprovals {
  let memory = perClient.get(client);
  if (!memory) perClient.set(client, (memory = new PendingApprovals()));
  return memory;
}
