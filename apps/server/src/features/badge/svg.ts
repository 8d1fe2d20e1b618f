import type { BadgeState } from '@fullstop/contracts';

const COLORS: Record<BadgeState, string> = {
  passing: '#2e7d32',
  failing: '#c62828',
  'could not run': '#ef6c00',
  'no runs': '#757575',
};

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Rough width of a string in 11px Verdana, the badge font: enough to size the two halves. */
function textWidth(s: string): number {
  return Math.round(s.length * 6.6 + 10);
}

/** A "fullstop | passing" badge in the usual flat style, every text escaped. */
export function badgeSvg(state: BadgeState, label = 'fullstop'): string {
  const left = textWidth(label);
  const right = textWidth(state);
  const width = left + right;
  const l = escapeXml(label);
  const r = escapeXml(state);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${l}: ${r}">`,
    `<title>${l}: ${r}</title>`,
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${COLORS[state]}"/><rect width="${width}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    `<text x="${left / 2}" y="14">${l}</text>`,
    `<text x="${left + right / 2}" y="14">${r}</text>`,
    `</g></svg>`,
    '',
  ].join('\n');
}
