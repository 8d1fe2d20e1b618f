import type { Page } from '@playwright/test';

/** The folder PORTAL_SCREENSHOTS names for screenshots a person looks at; undefined when none is wanted. */
export const SCREENSHOT_FOLDER = process.env.PORTAL_SCREENSHOTS;

/** The whole page at a phone's and a desktop's width, only when PORTAL_SCREENSHOTS names a folder. */
export async function shots(page: Page, name: string): Promise<void> {
  if (!SCREENSHOT_FOLDER) return;
  const size = page.viewportSize()!;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width < 500 ? 812 : 800 });
    await page.screenshot({ path: `${SCREENSHOT_FOLDER}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}
