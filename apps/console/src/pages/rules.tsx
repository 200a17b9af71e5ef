// Placeholder: the evidence part replaces this page (docs/console.md "Pages").
import type { PageProps } from '../app';
import { PageHeading } from '../components/page';

export function RulesPage(_props: PageProps) {
  return (
    <section>
      <PageHeading>Rules</PageHeading>
      <p>This page is not available yet.</p>
    </section>
  );
}
