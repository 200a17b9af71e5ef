import type { PageProps } from '../app';
import { PageHeading } from '../components/page';

export type ApprovalTarget = { flow: 'verdict'; id: string } | { flow: 'registry'; scopeId: string; id: string };

export function ApprovalPage({ target }: PageProps & { target: ApprovalTarget }) {
  return (
    <section>
      <PageHeading>Approval {target.id}</PageHeading>
    </section>
  );
}
