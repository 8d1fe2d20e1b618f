import { paths } from '@/config/paths.ts';

/** The public site's main pages: the header's navigation and the footer's Quick Links. */
export const MAIN_LINKS = [
  { to: paths.home, label: 'Home' },
  { to: paths.services, label: 'Services' },
  { to: paths.pricing, label: 'Pricing' },
  { to: paths.contactUs, label: 'Contact Us' },
] as const;
