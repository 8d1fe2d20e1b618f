import { portalPageTitle } from '@/components/page-title.ts';

/** The heading and tab title of each of the login page's forms. */
export const LOGIN_TITLES = {
  login: 'User Login',
  forgot: 'Forgot Password',
  reset: 'Set a New Password',
} as const;

/** The tab title /login opens with; the build's prerender writes the same one into the page's HTML. */
export const LOGIN_PAGE_TITLE = portalPageTitle(LOGIN_TITLES.login);
