import type { ReactNode } from 'react';

/** What a page reads of an RTK Query result to choose between its loading, error, empty and loaded faces. */
export interface QueryState<T> {
  isLoading: boolean;
  isError: boolean;
  data?: T;
  error?: unknown;
}

/** Whether a query failed because the server has no such thing (404). */
export function isMissing(query: { isError: boolean; error?: unknown }): boolean {
  const { error } = query;
  return query.isError && typeof error === 'object' && error !== null && 'status' in error && error.status === 404;
}

/** "Loading …", announced politely while a query runs. */
export function AsyncLoading({ children }: { children: ReactNode }) {
  return (
    <p className="portal-muted" role="status">
      {children}
    </p>
  );
}

/** Why something could not be loaded, announced at once. */
export function AsyncFailed({ children }: { children: ReactNode }) {
  return (
    <p className="portal-alert portal-alert--error" role="alert">
      {children}
    </p>
  );
}

/** A list with nothing in it yet (or nothing that matches the filters). */
export function AsyncEmpty({ children }: { children: ReactNode }) {
  return <p className="portal-empty">{children}</p>;
}

interface AsyncStateProps<T> {
  query: QueryState<T>;
  /** Shown while the query runs. */
  loading: ReactNode;
  /** Shown when it failed or answered nothing. */
  failed: ReactNode;
  /** Shown instead of `failed`, as an empty page, when the server has no such thing (404). */
  missing?: ReactNode;
  /** Shown when `isEmpty` says the answer holds nothing. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/** The faces of a page's query, in the order every page checks them: loading, missing, failed, empty, loaded. */
export function AsyncState<T>({ query, loading, failed, missing, empty, isEmpty, children }: AsyncStateProps<T>) {
  if (query.isLoading) return <AsyncLoading>{loading}</AsyncLoading>;
  if (missing !== undefined && isMissing(query)) return <AsyncEmpty>{missing}</AsyncEmpty>;
  if (query.isError || query.data === undefined) return <AsyncFailed>{failed}</AsyncFailed>;
  if (isEmpty?.(query.data)) return <AsyncEmpty>{empty}</AsyncEmpty>;
  return <>{children(query.data)}</>;
}
