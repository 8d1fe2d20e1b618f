import type { OpsAuditQuery } from '@fullstop/contracts';

/** The filters the Audit log keeps in its address. */
export const AUDIT_FILTERS = ['type', 'clientId', 'userId', 'address', 'from', 'to', 'pageViews'] as const;
export type AuditFilter = (typeof AUDIT_FILTERS)[number];

export const AUDIT_PAGE_SIZE = 50;

/** An event's details as `key: value` lines; nested values as compact JSON, never as markup. */
export function detailLines(details: Record<string, unknown> | null): [string, string][] {
  if (!details) return [];
  return Object.entries(details).map(([key, value]) => [key, typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)]);
}

/** A day picked in the reader's time zone as the ISO instant it starts, or (end) the last millisecond of it. */
export function dayToIso(day: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The API query from the address: the day filters become instants, the rest go as typed. */
export function auditQuery(params: URLSearchParams): OpsAuditQuery {
  const get = (key: AuditFilter) => params.get(key)?.trim() || undefined;
  const from = dayToIso(get('from') ?? '');
  const to = dayToIso(get('to') ?? '', true);
  return {
    type: get('type'),
    clientId: get('clientId'),
    userId: get('userId'),
    address: get('address'),
    ...(from ? { from } : {}),
    ...(get('pageViews') === 'show' ? { pageViews: 'show' as const } : {}),
    ...(to ? { to } : {}),
    page: Math.max(1, Math.floor(Number(params.get('page')) || 1)),
    pageSize: AUDIT_PAGE_SIZE,
  };
}

/** Types an operator picks from; any other can be typed (an area such as `login` matches all its events). */
export const KNOWN_TYPES = ['ops.access', 'login', 'login.success', 'login.failure', 'api-key', 'api-key.revealed', 'client.created', 'user.created', 'secret', 'upload', 'password', 'bug', 'request'];
