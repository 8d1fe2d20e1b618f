import { useEffect } from 'react';

export const SITE_NAME = 'Fullstop QA';

export function pageTitle(title: string | null): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME}: We Test so you don't have to (period).`;
}

/** Sets the document title after navigation; prerendered pages already carry it in their HTML. */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
