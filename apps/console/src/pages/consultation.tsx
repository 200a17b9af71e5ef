// Placeholder: the evidence part replaces this page (docs/console.md "Pages").
import type { PageProps } from '../app';
import { PageHeading } from '../components/page';

export function ConsultationPage({ id }: PageProps & { id: string }) {
  return (
    <section>
      <PageHeading>Consultation {id}</PageHeading>
      <p>This page is not available yet.</p>
    </section>
  );
}
