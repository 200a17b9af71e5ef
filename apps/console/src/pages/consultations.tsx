// /console/consultations (docs/evidence.md "In the console"): the tenant's consultations, newest first, filtered by
// action, verdict, principal and time as GET /<tenant>/v1/consultations allows, a page at a time by cursor.
import { useEffect, useState } from 'preact/hooks';
import { get, query, seg, verdictPath, type ApiError } from '../api';
import type { PageProps } from '../app';
import { ErrorNotice, Loading, PageHeading } from '../components/page';
import { EMPTY_FILTER, listParams, VERDICTS, type ConsultationFilter, type ConsultationPage } from '../consultations';
import { BASE } from '../router';

export function ConsultationsPage({ session }: PageProps) {
  const [draft, setDraft] = useState<ConsultationFilter>(EMPTY_FILTER);
  const [filter, setFilter] = useState<ConsultationFilter>(EMPTY_FILTER);
  // The cursors of the pages before the current one (the first page's is null), for "Previous page".
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<ConsultationPage | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => {
    let live = true;
    setPage(null);
    setError(null);
    void get<ConsultationPage>(verdictPath(`${seg(session.tenant_id)}/v1/consultations${query(listParams(filter, cursor))}`)).then((r) => {
      if (!live) return;
      if (r.ok) setPage(r.data);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [filter, cursor, session.tenant_id]);

  const field = (name: keyof ConsultationFilter) => ({
    value: draft[name],
    onInput: (e: Event) => setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value }),
  });

  return (
    <section>
      <PageHeading>Consultations</PageHeading>
      <form
        class="filters"
        aria-label="Filter consultations"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(draft);
          setCursors([null]);
        }}
      >
        <label>
          Action <input type="text" name="action" placeholder="payments.transfer" {...field('action')} />
        </label>
        <label>
          Verdict{' '}
          <select name="verdict" {...field('verdict')}>
            <option value="">any</option>
            {VERDICTS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label>
          Principal <input type="text" name="actor" placeholder="agn-…" {...field('actor')} />
        </label>
        <label>
          From <input type="datetime-local" name="since" {...field('since')} />
        </label>
        <label>
          Until <input type="datetime-local" name="until" {...field('until')} />
        </label>
        <div class="actions">
          <button type="submit" class="button primary">
            Apply filters
          </button>
        </div>
      </form>
      <ErrorNotice error={error} context="The consultations could not be read" />
      {!page && !error ? <Loading what="consultations" /> : null}
      {page ? (
        page.items.length ? (
          <table class="list">
            <caption class="visually-hidden">Consultations, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Requested</th>
                <th scope="col">Action</th>
                <th scope="col">Resource</th>
                <th scope="col">Verdict</th>
                <th scope="col">Principal</th>
                <th scope="col">Consultation</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((c) => (
                <tr key={c.id}>
                  <td>{c.requested_at}</td>
                  <td>{c.action}</td>
                  <td>{c.resource}</td>
                  <td>
                    <span class="badge">{c.verdict}</span>
                  </td>
                  <td>{c.caller_principal_id}</td>
                  <td>
                    <a href={`${BASE}/consultations/${seg(c.id)}`}>{c.id}</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No consultation matches these filters.</p>
        )
      ) : null}
      <div class="actions">
        <button type="button" class="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button
          type="button"
          class="button"
          disabled={!page?.next_cursor}
          onClick={() => page?.next_cursor && setCursors([...cursors, page.next_cursor])}
        >
          Next page
        </button>
      </div>
    </section>
  );
}
