/**
 * Visual regression in a report (decision 0080): each changed shot with its baseline, current shot and diff side by
 * side, the share of pixels changed and the region; the pages that never settled; the new shots awaiting approval;
 * what each shot masked (painted over in every image, so never compared), and a mask that hid nothing.
 * Images are the run's screenshot artifacts, inlined like every report's (reporters/screenshots.ts).
 */
import { cellLabel, visualShare } from '@fullstop/contracts';
import { formatCount } from '../../reporters/format.ts';
import { escapeHtml as e } from '../../reporters/html/escape.ts';
import type { KindReport } from '../../reporters/html/kind-report.ts';
import { badge, card, cards, longText, section, table } from '../../reporters/html/parts.ts';
import type { RenderOptions } from '../../reporters/html/render-options.ts';
import type { RunReport } from '../../reporters/types.ts';
import type { SummaryOf } from '../../types.ts';

type Summary = SummaryOf<'visual'>;
type Shot = Summary['shots'][number];

/** New shots shown as pictures in the full report; past this many they are listed only. */
const MAX_NEW_SHOWN = 12;

const STATUS_BADGE: Record<Shot['status'], [string, string]> = {
  changed: ['changed', 'b-failed'],
  failed: ['failed', 'b-failed'],
  new: ['new', 'b-error'],
  unchanged: ['unchanged', 'b-passed'],
};

const statusOf = (s: Shot) => badge(...STATUS_BADGE[s.status]);
const count = (s: Summary, status: Shot['status']) => s.shots.filter((x) => x.status === status).length;

/** The region in words: "220 × 48 px at 96, 296" (from the shot's top left). */
export function regionText(r: NonNullable<Shot['region']>): string {
  return `${r.width} × ${r.height} px at ${r.x}, ${r.y}`;
}

/**
 * An image of the shot: its data URI when the report inlines it. A path in the summary is the attempt's; the run's
 * artifacts may carry it under the attempt's folder (`attempt-2/visual/...`).
 */
function figure(r: RunReport, opts: RenderOptions, rel: string, caption: string): string {
  const artifact = r.artifacts.find((a) => a.path === rel || a.path.endsWith(`/${rel}`));
  const uri = opts.image?.(artifact?.path ?? rel);
  if (uri) return `<figure><div class="shot-frame"><img class="shot" src="${e(uri)}" alt="${e(caption)}"></div><figcaption>${e(caption)}</figcaption></figure>`;
  return `<figure><figcaption>${e(caption)}: in the zip report, <code>${e(rel)}</code></figcaption></figure>`;
}

/** A mask in words: "#clock (1 element)", ".ad (matched nothing)". */
export function maskText(m: NonNullable<Shot['mask']>[number]): string {
  const found = m.elements === undefined ? 'not shot' : m.elements === 0 ? 'matched nothing' : formatCount(m.elements, 'element');
  return `${m.selector} (${found})`;
}

const masksOf = (s: Shot) => (s.mask ?? []).map(maskText).join(', ');

/** Every shot's masks, and those that matched nothing (a selector that no longer fits the page hides nothing). */
function masksSection(shots: readonly Shot[], opts: RenderOptions): string {
  const masked = shots.filter((x) => x.mask?.length);
  if (!masked.length) return '';
  const empty = masked.flatMap((x) => (x.mask ?? []).filter((m) => m.elements === 0).map((m) => ({ shot: x, selector: m.selector })));
  const warn = empty.length
    ? `<p><b>${e(formatCount(empty.length, 'mask'))} hid nothing:</b> ${empty.map((m) => `<code>${e(m.selector)}</code> on ${longText(m.shot.page)} <span class="muted small">${e(cellLabel(m.shot.cell))}</span>`).join('; ')}. Its selector no longer matches the page: what it was meant to hide is compared.</p>`
    : '';
  const intro = `<p class="muted">Each masked element's box is painted magenta (#FF00FF) in every capture, baseline and diff alike: what it covers is not compared.</p>`;
  if (opts.condensed) return warn ? section('Masks', warn) : '';
  const items = masked.map((x) => `<li>${longText(x.page)} <span class="muted small">${e(cellLabel(x.cell))}</span>: ${e(masksOf(x))}</li>`);
  return section(`Masked (${masked.length} ${masked.length === 1 ? 'shot' : 'shots'})`, `${intro}${warn}<ul>${items.join('')}</ul>`);
}

function changedShare(s: Shot): string {
  if (s.changedRatio === undefined) return '–';
  const pixels = s.changedPixels === undefined ? '' : ` (${formatCount(s.changedPixels, 'pixel')})`;
  return `${visualShare(s.changedRatio)}${pixels}`;
}

function facts(s: Shot): string {
  const parts = [`<b>Changed</b> ${e(changedShare(s))}`, `<b>Tolerance</b> ${e(visualShare(s.tolerance))}`];
  if (s.region) parts.push(`<b>Region</b> ${e(regionText(s.region))}`);
  if (s.cutAtHeight) parts.push(`<b>Cut at</b> ${e(s.cutAtHeight)} px`);
  if (s.mask?.length) parts.push(`<b>Masked</b> ${e(masksOf(s))}`);
  return `<p class="kv small">${parts.join(' · ')}</p>`;
}

function shotHead(s: Shot): string {
  return `<div class="box-head">${statusOf(s)}<span class="name">${longText(s.page)}</span><span class="muted small">${e(cellLabel(s.cell))}</span></div>`;
}

function changedBox(r: RunReport, s: Shot, opts: RenderOptions): string {
  const images = [
    s.baseline ? figure(r, opts, s.baseline.path, 'Baseline') : '',
    s.current ? figure(r, opts, s.current.path, 'Current') : '',
    s.diff ? figure(r, opts, s.diff, 'Diff: changes in red, the region outlined') : '',
  ].join('');
  return `<div class="box t-failed">${shotHead(s)}${facts(s)}${s.reason ? `<p>${e(s.reason)}</p>` : ''}<div class="shots">${images}</div></div>`;
}

function failedBox(r: RunReport, s: Shot, opts: RenderOptions): string {
  const images = opts.condensed
    ? ''
    : [s.current ? figure(r, opts, s.current.path, 'Last capture') : '', s.diff ? figure(r, opts, s.diff, 'What changed between the last two captures') : ''].join('');
  const masked = s.mask?.length ? `<p class="kv small"><b>Masked</b> ${e(masksOf(s))}</p>` : '';
  return `<div class="box t-failed">${shotHead(s)}<p>${e(s.reason ?? 'the shot could not be taken')}</p>${masked}${images ? `<div class="shots">${images}</div>` : ''}</div>`;
}

function newShots(r: RunReport, shots: Shot[], opts: RenderOptions): string {
  const intro = `<p class="muted">No baseline yet: each passes, and its shot is offered as its baseline for approval.</p>`;
  if (opts.condensed) return section(`New shots (${shots.length})`, `<p>${e(shots.map((s) => `${s.page} on ${cellLabel(s.cell)}`).join(', '))}</p>`);
  const caption = (s: Shot) => `${s.page} on ${cellLabel(s.cell)}${s.mask?.length ? `, masked: ${masksOf(s)}` : ''}`;
  const shown = shots.slice(0, MAX_NEW_SHOWN).map((s) => (s.current ? figure(r, opts, s.current.path, caption(s)) : ''));
  const more = shots.length > MAX_NEW_SHOWN ? `<p class="muted small">and ${shots.length - MAX_NEW_SHOWN} more in the table below</p>` : '';
  return section(`New shots (${shots.length})`, `${intro}<div class="shots">${shown.join('')}</div>${more}`);
}

export function visualCards(s: Summary): string[] {
  const changed = count(s, 'changed');
  const failed = count(s, 'failed');
  return [
    card(`${changed} of ${s.shots.length}`, 'shots changed', changed ? 'bad' : 'ok'),
    card(String(failed), 'could not be compared', failed ? 'bad' : ''),
    card(String(count(s, 'new')), 'new, to approve', count(s, 'new') ? 'warn' : ''),
    card(String(count(s, 'unchanged')), 'unchanged'),
    card(visualShare(s.tolerance), 'of pixels may change'),
  ];
}

export function visualBody(r: RunReport, s: Summary, opts: RenderOptions): string {
  const parts = [cards(visualCards(s))];
  const changed = s.shots.filter((x) => x.status === 'changed');
  if (changed.length) parts.push(section(`Changed shots (${changed.length})`, changed.map((x) => changedBox(r, x, opts)).join('')));
  const failed = s.shots.filter((x) => x.status === 'failed');
  if (failed.length) parts.push(section(`Shots that could not be compared (${failed.length})`, failed.map((x) => failedBox(r, x, opts)).join('')));
  const added = s.shots.filter((x) => x.status === 'new');
  if (added.length) parts.push(newShots(r, added, opts));
  // A passing shot has a reason only when its page was shot before it was ready (decision 0089): said here.
  const unready = s.shots.filter((x) => (x.status === 'new' || x.status === 'unchanged') && x.reason);
  if (unready.length) {
    const items = unready.map((x) => `<li>${longText(x.page)} <span class="muted small">${e(cellLabel(x.cell))}</span>: ${e(x.reason)}</li>`);
    parts.push(section(`Shot before the page was ready (${unready.length})`, `<ul>${items.join('')}</ul>`));
  }
  parts.push(masksSection(s.shots, opts));
  if (!opts.condensed) {
    const order: Shot['status'][] = ['changed', 'failed', 'new', 'unchanged'];
    const rows = [...s.shots]
      .sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status))
      .map((x) => [statusOf(x), longText(x.page), e(cellLabel(x.cell)), e(changedShare(x)), e(x.region ? regionText(x.region) : '–'), e(x.mask?.length ? masksOf(x) : '–'), e(x.captures)]);
    parts.push(section('Shots', s.shots.length ? table(['Result', 'Page', 'Cell', 'Changed', 'Region', 'Masked', 'Captures'], rows, [6]) : '<p>No shots were taken.</p>'));
  }
  return parts.join('');
}

export const report: KindReport<'visual'> = {
  kind: 'visual',
  verdict(_r, s) {
    const changed = count(s, 'changed');
    const failed = count(s, 'failed');
    const added = count(s, 'new');
    const total = s.shots.length;
    if (changed || failed) {
      const said = [changed ? `${changed} of ${total} ${total === 1 ? 'shot' : 'shots'} changed` : '', failed ? `${formatCount(failed, 'shot')} could not be compared` : ''];
      return said.filter(Boolean).join('; ');
    }
    if (total === 0) return 'No shots were taken';
    if (added === total) return `${formatCount(added, 'new shot')}, offered as baselines`;
    if (added) return `${count(s, 'unchanged')} of ${total} shots match their baselines; ${added} new`;
    return total === 1 ? 'The shot matches its baseline' : `All ${total} shots match their baselines`;
  },
  keyFigure(_r, s) {
    const added = count(s, 'new');
    return `${count(s, 'changed')} of ${formatCount(s.shots.length, 'shot')} changed${added ? `, ${added} new` : ''}`;
  },
  body: (r, s, opts) => visualBody(r, s, opts),
};
