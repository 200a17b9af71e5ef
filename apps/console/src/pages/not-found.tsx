import { PageHeading } from '../components/page';
import { BASE } from '../router';

export function NotFoundPage() {
  return (
    <section>
      <PageHeading>Page not found</PageHeading>
      <p>
        There is no console page at this address. <a href={`${BASE}/`}>Go to the inbox</a>.
      </p>
    </section>
  );
}
