import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths.ts';

/** Every public page is its own lazy chunk: a visitor downloads only the page in front of them. */
export const marketingRoutes: RouteObject[] = [
  { path: paths.home, lazy: async () => ({ Component: (await import('./home/home-page.tsx')).HomePage }) },
  { path: paths.services, lazy: async () => ({ Component: (await import('./services/services-page.tsx')).ServicesPage }) },
  { path: paths.pricing, lazy: async () => ({ Component: (await import('./pricing/pricing-page.tsx')).PricingPage }) },
  { path: paths.contactUs, lazy: async () => ({ Component: (await import('./contact/contact-page.tsx')).ContactPage }) },
  { path: paths.privacyPolicy, lazy: async () => ({ Component: (await import('./legal/privacy-policy-page.tsx')).PrivacyPolicyPage }) },
  { path: paths.cookiePolicy, lazy: async () => ({ Component: (await import('./legal/cookie-policy-page.tsx')).CookiePolicyPage }) },
  { path: paths.termsOfService, lazy: async () => ({ Component: (await import('./legal/terms-of-service-page.tsx')).TermsOfServicePage }) },
  { path: paths.disclaimer, lazy: async () => ({ Component: (await import('./legal/disclaimer-page.tsx')).DisclaimerPage }) },
];
