/** Load runs in a report: the spec's figures, each threshold met or missed, failures by URL and the per-second chart. */
import { formatBytes, formatCount, formatDuration, formatPercent, formatRate } from '../../reporters/format.ts';
import { loadChart } from '../../reporters/html/charts.ts';
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { badge, card, cards, longText, section, table } from '../../reporters/html/parts.ts';
import type { SummaryOf } from '../../types.ts';

type Summary = SummaryOf<'load'>;

/** Each threshold name in words, with how its figures read. */
const THRESHOLDS: Record<string, { label: string; format: (v: number) => string; atLeast?: boolean }> = {
  maxP95Ms: { label: '95th percentile response time', format: formatDuration },
  maxAverageMs: { label: 'Average response time', format: formatDuration },
  maxResponseMs: { label: 'Slowest response', format: formatDuration },
  maxFailedRate: { label: 'Failed requests', format: formatPercent },
  minRequestsPerSecond: { label: 'Throughput', format: (v) => formatRate(v), atLeast: true },
};

export function loadThresholdRows(s: Summary): string[][] {
  const checks = [...(s.thresholdChecks ?? [])].sort((a, b) => Number(a.met) - Number(b.met));
  return checks.map((c) => {
    const t = THRESHOLDS[c.name] ?? { label: c.name, format: (v: number) => String(v) };
    return [
      badge(c.met ? 'met' : 'missed', c.met ? 'b-met' : 'b-missed'),
      `${e(t.label)}<br><span class="muted small">limit: ${e(`${t.atLeast ? 'at least' : 'at most'} ${t.format(c.limit)}`)}</span>`,
      e(t.format(c.actual)),
    ];
  });
}

/** Each declared stage in words: how long it lasted and how the open connections changed over it. */
export function stageRows(stages: NonNullable<Summary['stages']>): string[][] {
  let from = 0;
  return stages.map((stage, i) => {
    const change = stage.durationSeconds === 0 ? `jumped from ${from} to ${stage.target}` : from === stage.target ? `held at ${from}` : `from ${from} to ${stage.target}`;
    from = stage.target;
    return [e(String(i + 1)), e(stage.durationSeconds === 0 ? 'at once' : formatDuration(stage.durationSeconds * 1000)), e(change)];
  });
}

/** A test run by several generators: how many, where each ran and the requests it made (issue 12). */
export function generatorsBlock(generators: NonNullable<Summary['generators']>): string {
  const rows = generators.map((g) => [e(String(g.index + 1)), longText(g.workerId ?? 'unknown worker'), e(g.host ?? '—'), e(formatCount(g.requests, 'request'))]);
  return `<p>${e(`${generators.length} generators ran this test together; their figures are merged above.`)}</p>${table(['Generator', 'Worker', 'Host', 'Requests'], rows, [3])}`;
}

export function loadCards(s: Summary): string[] {
  const l = s.load;
  const rps = s.requestsPerSecond;
  return [
    card(formatCount(l.failedRequestsCount, 'request'), `failed (${formatPercent(l.failedRequestsRate)})`, l.failedRequestsCount ? 'bad' : 'ok'),
    card(formatDuration(l.ninetyFifthPercentileResponseTime), '95th percentile response'),
    card(formatDuration(l.averageResponseTime), 'average response'),
    card(formatCount(l.totalRequests, 'request'), 'sent in total'),
    ...(rps !== undefined ? [card(formatRate(rps), 'throughput')] : []),
  ];
}

function loadBody(s: Summary): string {
  const l = s.load;
  const parts = [cards(loadCards(s))];
  const thresholds = loadThresholdRows(s);
  parts.push(
    section(
      'Thresholds',
      thresholds.length ? table(['Result', 'Measure', 'Measured'], thresholds, [2]) : '<p>No thresholds were set for this test.</p>',
    ),
  );
  if (s.generators?.length) parts.push(section(`Generators: ${s.generators.length}`, generatorsBlock(s.generators)));
  if (s.stages?.length) parts.push(section('Connections over time', table(['Stage', 'Lasted', 'Connections'], stageRows(s.stages))));
  if (s.perSecond?.length) parts.push(section('Second by second', loadChart(s.perSecond)));
  const figures: [string, string][] = [
    ['Total requests', formatCount(l.totalRequests, 'request')],
    ['Successful requests', formatCount(l.successfulRequests, 'request')],
    ['Failed requests', `${formatCount(l.failedRequestsCount, 'request')} (${formatPercent(l.failedRequestsRate)})`],
    ['Average response time', formatDuration(l.averageResponseTime)],
    ['95th percentile response time', formatDuration(l.ninetyFifthPercentileResponseTime)],
    ['Fastest response', formatDuration(l.minResponseTime)],
    ['Slowest response', formatDuration(l.maxResponseTime)],
    ['Data sent', formatBytes(l.dataSentBytes)],
    ['Data received', formatBytes(l.dataReceivedBytes)],
    ['All thresholds met', l.customMetricThresholdMet ? 'yes' : 'no'],
  ];
  parts.push(section('Figures', table(['Measure', 'Value'], figures.map(([k, v]) => [e(k), e(v)]), [1])));
  if (s.failuresByUrl.length) {
    parts.push(
      section(
        'Failures by URL',
        table(
          ['URL', 'Response', 'Count'],
          s.failuresByUrl.map((f) => [longText(f.url), e(f.status === 'error' ? 'no response (connection error or timeout)' : `HTTP ${f.status}`), e(formatCount(f.count, 'time'))]),
          [2],
        ),
      ),
    );
  }
  return parts.join('');
}

export const report: KindReport<'load'> = {
  kind: 'load',
  verdict(r, s) {
    const checks = s.thresholdChecks ?? [];
    const missed = checks.filter((c) => !c.met).length;
    if (missed) return `${missed} of ${checks.length} thresholds missed`;
    if (r.status === 'failed') return 'The load test failed its thresholds';
    return checks.length === 1 ? 'The threshold was met' : checks.length ? `All ${checks.length} thresholds met` : 'Load test completed (no thresholds set)';
  },
  keyFigure: (_r, s) => `p95 ${formatDuration(s.load.ninetyFifthPercentileResponseTime)}${s.requestsPerSecond !== undefined ? `, ${formatRate(s.requestsPerSecond)}` : ''}`,
  body: (_r, s) => loadBody(s),
};
