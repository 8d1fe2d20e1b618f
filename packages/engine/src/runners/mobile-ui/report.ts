/** Mobile UI tests in a report: the devices (device, OS, app version, cold start, memory, CPU), the steps, the page source at each failure. */
import { formatBytes, formatDuration } from '../../reporters/format.ts';
import { escapeHtml as e, safeLink } from '../../reporters/html/escape.ts';
import { casesReport } from '../../reporters/html/kind-cases.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { pre, section, table } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { CasesSummary } from '../../types.ts';
import type { MobileDevice, MobileUiSummary } from './facts.ts';

const NOT_REPORTED = 'not reported by this device';

function performanceOf(d: MobileDevice): string {
  const parts = [d.memoryKb !== null ? `memory ${formatBytes(d.memoryKb * 1024)}` : null, d.cpuPercent !== null ? `CPU ${d.cpuPercent} %` : null].filter(Boolean);
  return parts.length ? parts.join(', ') : (d.performanceNote ?? NOT_REPORTED);
}

/** The provider's pages of the device's session (video, logs; they may ask for the provider's login), or why there are none. */
function providerOf(d: MobileDevice): string {
  const links = (d.providerLinks ?? []).map((l) => safeLink(l.url, l.label)).join(' · ');
  const session = d.sessionId ? `<div class="muted small">Session <code>${e(d.sessionId)}</code></div>` : '';
  return session + (links ? `<div class="small">${links}</div>` : '') + (d.providerNote ? `<div class="muted small">${e(d.providerNote)}</div>` : '');
}

/** The header of a mobile UI test: one row per device. */
export function devicesSection(s: MobileUiSummary): string {
  if (!s.devices?.length) return '';
  const rows = s.devices.map((d) => [
    e(d.label) + (d.error ? `<div class="muted small">${e(d.error)}</div>` : '') + providerOf(d),
    e([d.deviceName, d.platformName && d.platformVersion ? `${d.platformName} ${d.platformVersion}` : d.platformName].filter(Boolean).join(', ') || '–'),
    e(d.appVersion ?? 'unknown'),
    e(d.coldStartMs !== null ? formatDuration(d.coldStartMs) : '–'),
    e(performanceOf(d)),
  ]);
  return section(s.devices.length === 1 ? 'Device' : `Devices (${s.devices.length})`, table(['Device', 'Device and OS', 'App version', 'Cold start', 'Memory and CPU'], rows, [3]));
}

/** The screenshot after each step that did not fail (a failed step's is in its box above), in the order they ran. */
function stepScreenshots(r: RunReport, opts: RenderOptions): string {
  const s = r.summary as MobileUiSummary | null;
  const shots = (s?.cases ?? []).filter((c) => c.screenshot && c.status !== 'failed');
  if (!shots.length || opts.condensed) return '';
  const figures = shots
    .map((c) => {
      const uri = opts.image?.(c.screenshot!);
      return uri
        ? `<figure><div class="shot-frame"><img class="shot" src="${e(uri)}" alt="${e(`Screenshot after ${c.name}`)}"></div><figcaption>${e(c.name)}</figcaption></figure>`
        : `<figure><figcaption>${e(c.name)}: in the zip report, <code>${e(c.screenshot!)}</code></figcaption></figure>`;
    })
    .join('');
  return section(`Screenshots after each step (${shots.length})`, `<div class="shots">${figures}</div>`);
}

/** The page source at each failed step: its first part inline, the whole file in the zip report. */
function pageSources(r: RunReport, opts: RenderOptions): string {
  const s = r.summary as MobileUiSummary | null;
  const list = s?.pageSources ?? [];
  if (!list.length || opts.condensed) return '';
  const items = list
    .map((p) => `<details open><summary>${e(p.case)}</summary>${pre(p.excerpt, 20_000)}${p.truncated ? `<p class="muted small">The whole page source is in the zip report: <code>${e(p.path)}</code></p>` : ''}</details>`)
    .join('');
  return section(`Page source at the failure${list.length === 1 ? '' : `s (${list.length})`}`, items);
}

/** The devices first, then the steps (a failed one with its screenshot), the page sources of the failures, the other steps' screenshots. */
export const report: KindReport<'mobile-ui'> = {
  ...casesReport('mobile-ui', 'step', (r, opts) => pageSources(r, opts) + stepScreenshots(r, opts), (s: CasesSummary<'mobile-ui'>) => devicesSection(s as MobileUiSummary)),
  passingScreenshots: true,
};
