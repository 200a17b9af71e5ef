// The inbox (docs/console.md "The inbox"): the pending approvals of both flows that the signed-in person may decide,
// newest first, each with what is needed to decide it and a link to its page.
import { useEffect, useState } from 'preact/hooks';
import type { PageProps } from '../app';
import { approvalPath, holdsApprove, mayDecide, newestFirst, type ApprovalView } from '../approvals';
import { listScopes, loadApprovals, loadRuleIndex, type Loaded } from '../approvals-api';
import { ApprovalFacts } from '../components/approval-facts';
import { ErrorNotice, Loading, PageHeading } from '../components/page';

interface InboxData {
  items: ApprovalView[];
  /** Pending approvals the person may not decide (shown as a count, not listed). */
  hidden: number;
  errors: Loaded<unknown>['errors'];
  scopeNames: Map<string, string>;
  statements: Map<string, string>;
}

export function InboxPage({ session }: PageProps) {
  const [data, setData] = useState<InboxData | null>(null);
  const [now] = useState(() => new Date());

  useEffect(() => {
    let live = true;
    void (async () => {
      const errors: InboxData['errors'] = [];
      const scopes = await listScopes();
      if (!scopes.ok) errors.push({ what: 'Registry scopes', error: scopes.error });
      const scopeList = scopes.ok ? scopes.data : [];
      const [pending, rules] = await Promise.all([loadApprovals(session, 'pending', scopeList), loadRuleIndex(scopeList)]);
      errors.push(...pending.errors, ...rules.errors);
      const statements = new Map<string, string>();
      for (const rule of rules.items) statements.set(rule.id, rule.statement);
      const decidable = pending.items.filter((v) => mayDecide(v, session, now).may);
      if (live)
        setData({
          items: newestFirst(decidable, (v) => v.requestedAt),
          hidden: pending.items.length - decidable.length,
          errors,
          scopeNames: new Map(scopeList.map((s) => [s.id, s.name])),
          statements,
        });
    })();
    return () => {
      live = false;
    };
  }, [session, now]);

  return (
    <section>
      <PageHeading>Inbox</PageHeading>
      <p class="muted">Pending approvals you may decide, newest first.</p>
      {!holdsApprove(session) ? (
        <p class="notice">
          Your console permissions do not include approve: you can read approvals but not decide them. Ask an administrator.
        </p>
      ) : null}
      {!data ? (
        <Loading what="the pending approvals" />
      ) : (
        <>
          {data.errors.map((e) => (
            <ErrorNotice key={e.what} error={e.error} context={`${e.what} could not be read`} />
          ))}
          <p role="status">
            {data.items.length === 0
              ? 'Nothing waits for your decision.'
              : `${data.items.length} approval${data.items.length === 1 ? ' waits' : 's wait'} for your decision.`}
            {data.hidden
              ? ` ${data.hidden} other pending approval${data.hidden === 1 ? '' : 's'} you may not decide ${data.hidden === 1 ? 'is' : 'are'} not listed.`
              : ''}
          </p>
          <ul class="cards" aria-label="Pending approvals">
            {data.items.map((view) => (
              <li key={`${view.flow}:${view.id}`} class="card">
                <h2>
                  <a href={approvalPath(view)}>
                    <span class="visually-hidden">Approval </span>
                    <code>{view.action}</code>
                  </a>{' '}
                  <span class="muted">
                    {view.flow === 'verdict' ? 'verdict' : 'registry'} approval <code>{view.id}</code>
                  </span>
                </h2>
                <ApprovalFacts view={view} now={now} scopeNames={data.scopeNames} statements={data.statements} />
                <p>
                  <a href={approvalPath(view)}>
                    Decide<span class="visually-hidden"> approval {view.id}</span>
                  </a>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
