import { escapeHtml as e } from './escape.ts';

export type Tone = 'ok' | 'bad' | 'warn' | '';

/** A summary card: the figure (with its unit) over what it counts. */
export function card(value: string, label: string, tone: Tone = ''): string {
  return `<div class="card${tone ? ` ${tone}` : ''}"><b>${e(value)}</b><span>${e(label)}</span></div>`;
}

export function cards(list: string[]): string {
  return list.length ? `<div class="cards">${list.join('')}</div>` : '';
}

export function badge(text: string, cls: string): string {
  return `<span class="badge ${e(cls)}">${e(text)}</span>`;
}

export function statusBadge(status: string): string {
  return badge(status, `b-${status}`);
}

/** A table that scrolls inside its own box on a narrow screen. `numeric` lists the right-aligned columns. */
export function table(head: string[], rows: string[][], numeric: number[] = []): string {
  const cell = (tag: 'th' | 'td', i: number, html: string) => `<${tag}${numeric.includes(i) ? ' class="num"' : ''}>${html}</${tag}>`;
  return (
    `<div class="table-wrap"><table><thead><tr>${head.map((h, i) => cell('th', i, e(h))).join('')}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c, i) => cell('td', i, c)).join('')}</tr>`).join('')}</tbody></table></div>`
  );
}

export function section(title: string, body: string, id?: string): string {
  return `<section${id ? ` id="${e(id)}"` : ''}><h2>${e(title)}</h2>${body}</section>`;
}

export function pre(text: string, maxChars = 8000): string {
  const t = text.length > maxChars ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters in the json report)` : text;
  return `<pre>${e(t)}</pre>`;
}

/** A URL or other long unbroken string in a table cell: may break anywhere rather than widen the table. */
export function longText(s: string): string {
  return `<span class="u">${e(s)}</span>`;
}

export const RISKS = ['High', 'Medium', 'Low', 'Informational'] as const;
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;

export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
