import type { PageProps } from '../app';
import { PageHeading } from '../components/page';

export function InboxPage(_props: PageProps) {
  return (
    <section>
      <PageHeading>Inbox</PageHeading>
    </section>
  );
}
