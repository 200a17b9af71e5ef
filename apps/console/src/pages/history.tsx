// The history (docs/console.md "History"): decided approvals of both flows, newest decision first, with who decided
// and their notes (and, for a quorum, every approval given).
import { useEffect, useState } from 'preact/hooks';
import type { PageProps } from '../app';
import { approvalPath, newestFirst, type ApprovalView } from '../approvals';
import { listScopes, loadApprovals, type Loaded } from '../approvals-api';
import { When } from '../components/approval-facts';
import { ErrorNotice, Loading, PageHeading } from '../components/page';

/** Decided statuses the history reads; `expired` is asked for too (a server without it refuses, which is ignored). */
const DECIDED = ['approved', 'rejected', 'expired'];

/** When an approval was settled: its decision, else (expired) its expiry. Pure. */
export function settledAt(view: ApprovalView): string | null {
  return view.decidedAt ?? view.expiresAt;
}

export function HistoryPage({ session }: PageProps) {
  const [data, setData] = useState<Loaded<ApprovalView> | null>(null);
  const [now] = useState(() => new Date());

  useEffect(() => {
    let live = true;
    void (async () => {
      const scopes = await listScopes();
      const scopeList = scopes.ok ? scopes.data : [];
      const answers = await Promise.all(DECIDED.map((status) => loadApprovals(session, status, scopeList)));
      const errors = answers.flatMap((a) => a.errors).filter((e) => !(e.what.includes('(expired)') && e.error.status === 400));
      if (!scopes.ok) errors.unshift({ what: 'Registry scopes', error: scopes.error });
      const items = newestFirst(
        answers.flatMap((a) => a.items),
        settledAt,
      );
      if (live) setData({ items, errors });
    })();
    return () => {
      live = false;
    };
  }, [session]);

  return (
    <section>
      <PageHeading>History</PageHeading>
      <p class="muted">Decided approvals, newest first.</p>
      {!data ? (
        <Loading what="the decided approvals" />
      ) : (
        <>
          {data.errors.map((e) => (
            <ErrorNotice key={e.what} error={e.error} context={`${e.what} could not be read`} />
          ))}
          {data.items.length === 0 ? (
            <p role="status">No decided approvals yet.</p>
          ) : (
            <table class="list">
              <caption class="visually-hidden">Decided approvals</caption>
              <thead>
                <tr>
                  <th scope="col">Decided</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Action</th>
                  <th scope="col">Decided by</th>
                  <th scope="col">Notes</th>
                  <th scope="col">Approval</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((view) => (
                  <tr key={`${view.flow}:${view.id}`}>
                    <td>{settledAt(view) ? <When at={settledAt(view) as string} now={now} /> : null}</td>
                    <td>
                      <span class={`badge ${view.status}`}>{view.status}</span>
                    </td>
                    <td>
                      <code>{view.action}</code>
                      {view.resource !== null ? (
                        <>
                          {' on '}
                          <code>{view.resource}</code>
                        </>
                      ) : null}
                    </td>
                    <td>
                      {view.decider ? <code>{view.decider}</code> : <span class="muted">nobody</span>}
                      {view.approvals
                        .filter((a) => a.decider !== view.decider)
                        .map((a) => (
                          <span key={a.decider}>
                            , <code>{a.decider}</code>
                          </span>
                        ))}
                    </td>
                    <td>
                      {view.deciderNotes ? <span class="notes">{view.deciderNotes}</span> : null}
                      {view.approvals
                        .filter((a) => a.notes && a.notes !== view.deciderNotes)
                        .map((a) => (
                          <p key={a.decider} class="notes">
                            <code>{a.decider}</code>: {a.notes}
                          </p>
                        ))}
                    </td>
                    <td>
                      <a href={approvalPath(view)}>
                        <code>{view.id}</code>
                        <span class="visually-hidden"> ({view.flow} approval)</span>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
