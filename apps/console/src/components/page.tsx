// Building blocks every page uses: the page heading (focus target after navigation), the error notice (a live
// region) and the loading line. Text from the server is always a child text node, never markup.
import type { ComponentChildren } from 'preact';
import type { ApiError } from '../api';

/** The page's h1: focusable by script (tabIndex -1) so the shell can move focus to it after a navigation. */
export function PageHeading({ children }: { children: ComponentChildren }) {
  return <h1 tabIndex={-1}>{children}</h1>;
}

/** An error in a live region (role=alert: announced when it appears). */
export function ErrorNotice({ error, context }: { error: ApiError | string | null; context?: string }) {
  if (!error) return null;
  const text = typeof error === 'string' ? error : describeError(error);
  return (
    <div class="notice error" role="alert">
      {context ? <strong>{context}: </strong> : null}
      {text}
    </div>
  );
}

/** One line for an ApiError: the message, then the code and status when there are. Pure. */
export function describeError(error: ApiError): string {
  const parts = [error.message];
  if (error.code) parts.push(`(${error.code}${error.status ? `, HTTP ${error.status}` : ''})`);
  else if (error.status) parts.push(`(HTTP ${error.status})`);
  return parts.join(' ');
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}
