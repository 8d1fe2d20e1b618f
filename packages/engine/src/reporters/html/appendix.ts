/** What an engineer may want and a reader need not see: attempts, where they ran, their logs, the artifacts. */
import type { RunReport } from '../types.ts';
import { formatDuration } from '../format.ts';
import { timeTag } from '../report-time.ts';
import { escapeHtml as e } from './escape.ts';
import { pre, statusBadge, table } from './parts.ts';

const MAX_LOG_CHARS = 20_000;

function duration(a: RunReport['attempts'][number]): string {
  if (!a.finishedAt) return '–';
  return formatDuration(new Date(a.finishedAt).getTime() - new Date(a.startedAt).getTime());
}

/** Attempts (and logs, when given) of one test; `logs[i]` belongs to `attempts[i]`. */
export function attemptsBlock(r: RunReport, logs: string[] = []): string {
  const parts: string[] = [];
  if (r.attempts.length) {
    const rows = r.attempts.map((a) => [String(a.attempt), statusBadge(a.status), timeTag(a.startedAt), e(duration(a)), a.error ? e(a.error) : '']);
    parts.push(table(['Attempt', 'Status', 'Started', 'Duration', 'Error'], rows, [0, 3]));
  }
  r.attempts.forEach((a, i) => {
    const log = logs[i];
    if (!log) return;
    const tail = log.length > MAX_LOG_CHARS ? `… (first ${log.length - MAX_LOG_CHARS} characters in the zip report)\n${log.slice(-MAX_LOG_CHARS)}` : log;
    parts.push(`<details><summary>Log of attempt ${a.attempt}</summary>${pre(tail, MAX_LOG_CHARS + 200)}</details>`);
  });
  return parts.join('');
}

export function artifactsBlock(r: RunReport): string {
  if (!r.artifacts.length) return '';
  const items = r.artifacts.map((a) => `<li>${e(a.label ?? a.kind)}: <code>artifacts/${e(a.path)}</code></li>`).join('');
  return `<h3>Files in the zip report</h3><ul class="small">${items}</ul>`;
}

export function appendix(body: string): string {
  if (!body) return '';
  return `<section><details><summary>Appendix: attempts, logs and files</summary>${body}</details></section>`;
}
