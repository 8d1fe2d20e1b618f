import type { Finding } from '@fullstop/engine';
import type { Db } from '../../db/database.ts';
import { listFalsePositives } from './false-positive-repository.ts';

/**
 * Where one instance of an alert is: its URL, and its parameter after a `#` when it has one
 * (`https://shop.test/#session` is the session cookie's instance on the home page). Finding URLs carry no
 * fragment of their own (any is dropped here), so the `#` is never ambiguous. This is what the operator passes
 * as `url` to mark one instance, and what engine_false_positives.url stores, so marks need no schema change.
 */
export function instanceKey(f: Pick<Finding, 'url' | 'param'>): string {
  const url = (f.url ?? '').split('#', 1)[0] ?? '';
  return f.param ? `${url}#${f.param}` : url;
}

/** A stable id for one alert instance: its rule and instance key. The operator API and CLI name instances by it. */
export function findingId(f: Pick<Finding, 'ruleId' | 'url' | 'param'>): string {
  return `${f.ruleId}@${instanceKey(f)}`;
}

/**
 * Whether an instance was marked a false positive: the alert (its rule, no url) hides every instance; a URL hides
 * every instance on that URL; a URL with `#param` hides that one instance.
 */
export async function falsePositiveMatcher(db: Db, clientId: string): Promise<(f: Finding) => boolean> {
  const rows = await listFalsePositives(db, clientId);
  const exact = new Set(rows.filter((r) => r.url).map((r) => `${r.ruleId}@${r.url}`));
  const anyUrl = new Set(rows.filter((r) => !r.url).map((r) => r.ruleId));
  return (f) => anyUrl.has(f.ruleId) || exact.has(findingId(f)) || exact.has(`${f.ruleId}@${instanceKey({ url: f.url })}`);
}
