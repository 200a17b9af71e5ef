import type { PageProps } from '../app';
import { PageHeading } from '../components/page';

export function HistoryPage(_props: PageProps) {
  return (
    <section>
      <PageHeading>History</PageHeading>
    </section>
  );
}
