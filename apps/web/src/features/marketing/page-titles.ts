import { paths } from '@/config/paths.ts';

/** Each public page's title, shared by the pages and the build's prerender so both say the same. */
export const marketingTitles: Record<string, string | null> = {
  [paths.home]: null,
  [paths.services]: 'Services',
  [paths.pricing]: 'Pricing',
  [paths.contactUs]: 'Contact Us',
  [paths.privacyPolicy]: 'Privacy Policy',
  [paths.cookiePolicy]: 'Cookie Policy',
  [paths.termsOfService]: 'Terms of Service',
  [paths.disclaimer]: 'Disclaimer',
};
