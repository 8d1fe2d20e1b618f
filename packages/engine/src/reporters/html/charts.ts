/** Inline SVG charts: no script, no outside request, readable in print. */
import { formatDuration, formatNumber } from '../format.ts';
import type { SecondStats } from '../../runners/load/stats.ts';
import { escapeHtml as e } from './escape.ts';

/** Lighthouse's bands: 0-49 poor, 50-89 needs improvement, 90-100 good. */
export function scoreColour(score: number): string {
  if (score >= 90) return '#0a7f3f';
  if (score >= 50) return '#b05e00';
  return '#cf222e';
}

/** A ring gauge for a 0-100 score; an absent score is a grey ring with a dash. */
export function gauge(score: number | undefined, label: string): string {
  const r = 40;
  const len = 2 * Math.PI * r;
  const has = typeof score === 'number' && Number.isFinite(score);
  const value = has ? Math.max(0, Math.min(100, Math.round(score))) : 0;
  const colour = has ? scoreColour(value) : '#8c959f';
  const arc = has
    ? `<circle cx="50" cy="50" r="${r}" fill="none" stroke="${colour}" stroke-width="10" stroke-linecap="round" stroke-dasharray="${((len * value) / 100).toFixed(1)} ${len.toFixed(1)}" transform="rotate(-90 50 50)"/>`
    : '';
  return (
    `<div class="gauge"><svg viewBox="0 0 100 100" role="img" aria-label="${e(label)}: ${has ? value : 'no score'}">` +
    `<circle cx="50" cy="50" r="${r}" fill="${has ? `${colour}14` : 'none'}" stroke="#e6e8eb" stroke-width="10"/>${arc}` +
    `<text x="50" y="50" text-anchor="middle" dominant-baseline="central" font-size="28" font-weight="700" fill="${colour}" font-family="system-ui,sans-serif">${has ? value : '–'}</text>` +
    `</svg>${e(label)}</div>`
  );
}

/** 1, 2, 5, 10, 20, 50 ...: the round number at or above v, so axis ticks read well. */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const exp = 10 ** Math.floor(Math.log10(v));
  const f = v / exp;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * exp;
}

const W = 720;
const LEFT = 64;
const RIGHT = 16;
const PLOT_W = W - LEFT - RIGHT;
const FONT = 'font-family="system-ui,sans-serif" font-size="12" fill="#57606a"';

function axes(top: number, height: number, max: number, unit: (v: number) => string, seconds: number[], title: string): string {
  const parts: string[] = [`<text x="${LEFT}" y="${top - 8}" ${FONT} font-weight="600" fill="#1b1f24">${e(title)}</text>`];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    const y = top + height - (height * i) / 4;
    parts.push(`<line x1="${LEFT}" x2="${W - RIGHT}" y1="${y}" y2="${y}" stroke="${i === 0 ? '#8c959f' : '#eaeef2'}"/>`);
    parts.push(`<text x="${LEFT - 6}" y="${y + 4}" text-anchor="end" ${FONT}>${e(unit(v))}</text>`);
  }
  const n = seconds.length;
  const step = Math.max(1, Math.ceil(n / 10));
  for (let i = 0; i < n; i += step) {
    const x = LEFT + (PLOT_W * (i + 0.5)) / n;
    parts.push(`<text x="${x.toFixed(1)}" y="${top + height + 16}" text-anchor="middle" ${FONT}>${seconds[i]} s</text>`);
  }
  return parts.join('');
}

/**
 * The load test second by second: requests per second (errors stacked in red) over latency percentiles.
 * Peaks are written in the legend so the chart reads as numbers too.
 */
export function loadChart(points: SecondStats[]): string {
  const data = [...points].sort((a, b) => a.second - b.second);
  if (data.length === 0) return '';
  const n = data.length;
  const barW = Math.max(1, PLOT_W / n - (n > 60 ? 0 : 2));
  // Four gridlines a round step apart: 0, 100, 200, 300, 400 rather than 0, 125, 250 ...
  const reqMax = 4 * niceCeil(Math.max(...data.map((d) => d.requests)) / 4);
  const latMax = 4 * niceCeil(Math.max(...data.map((d) => Math.max(d.p50, d.p95, d.p99))) / 4);
  const seconds = data.map((d) => d.second);
  const top1 = 24;
  const h1 = 150;
  const top2 = top1 + h1 + 52;
  const h2 = 150;
  const height = top2 + h2 + 26;
  const x = (i: number) => LEFT + (PLOT_W * i) / n;
  const bars = data
    .map((d, i) => {
      const ok = Math.max(0, d.requests - d.errors);
      const hOk = (h1 * ok) / reqMax;
      const hErr = (h1 * Math.min(d.errors, d.requests || d.errors)) / reqMax;
      const bx = (x(i) + (PLOT_W / n - barW) / 2).toFixed(1);
      return (
        `<rect x="${bx}" y="${(top1 + h1 - hOk).toFixed(1)}" width="${barW.toFixed(1)}" height="${hOk.toFixed(1)}" fill="#4c8ed9"/>` +
        (hErr > 0 ? `<rect x="${bx}" y="${(top1 + h1 - hOk - hErr).toFixed(1)}" width="${barW.toFixed(1)}" height="${hErr.toFixed(1)}" fill="#cf222e"/>` : '')
      );
    })
    .join('');
  const line = (key: 'p50' | 'p95' | 'p99', colour: string, dash = '') => {
    const pts = data.map((d, i) => `${(x(i) + PLOT_W / n / 2).toFixed(1)},${(top2 + h2 - (h2 * d[key]) / latMax).toFixed(1)}`).join(' ');
    return `<polyline points="${pts}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
  };
  const peak = (key: keyof SecondStats) => Math.max(...data.map((d) => d[key]));
  // The bars stack successes on errors: a second's requests count both.
  const successPeak = Math.max(...data.map((d) => Math.max(0, d.requests - d.errors)));
  const svg =
    `<svg viewBox="0 0 ${W} ${height}" role="img" aria-label="Requests per second and response time percentiles, second by second">` +
    axes(top1, h1, reqMax, (v) => formatNumber(v), seconds, 'Requests per second') +
    bars +
    axes(top2, h2, latMax, (v) => formatDuration(v), seconds, 'Response time') +
    line('p50', '#1f6feb') +
    line('p95', '#bc4c00') +
    line('p99', '#8250df', '5 3') +
    `</svg>`;
  const legend = [
    ['#4c8ed9', `Successful requests (peak ${formatNumber(successPeak)}/s)`],
    ['#cf222e', `Errors (peak ${formatNumber(peak('errors'))}/s)`],
    ['#1f6feb', `p50 (peak ${formatDuration(peak('p50'))})`],
    ['#bc4c00', `p95 (peak ${formatDuration(peak('p95'))})`],
    ['#8250df', `p99 (peak ${formatDuration(peak('p99'))})`],
  ]
    .map(([c, t]) => `<span><i style="background:${c}"></i>${e(t)}</span>`)
    .join('');
  return `<div class="chart"><div class="plot">${svg}</div><div class="legend">${legend}</div></div>`;
}
