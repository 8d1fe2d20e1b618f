import { useEffect } from 'react';

export const SITE_NAME = 'Fullstop QA';

export function pageTitle(title: string | null): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME}: We Test so you don't have to (period).`;
}

/** The client portal's tab titles, "Insights · Fullstop QA": the page first, so open tabs tell apart. */
export function portalPageTitle(title: string): string {
  return `${title} · ${SITE_NAME}`;
}

/** Sets the document title after navigation; prerendered pages already carry it in their HTML. */
export function usePageTitle(title: string | null, format: (title: string) => string = pageTitle): void {
  const text = title === null ? pageTitle(null) : format(title);
  useEffect(() => {
    document.title = text;
  }, [text]);
}
