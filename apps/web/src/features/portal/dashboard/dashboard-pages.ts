import { paths } from '@/config/paths.ts';

/** The dashboard's pages, in the side menu's order (the spec's, then ours), as the menu and the home's tiles show them. */
export const DASHBOARD_PAGES = [
  {
    to: paths.insights,
    label: 'Insights',
    text: 'Load, security and test results of your latest runs at a glance.',
    icon: 'M4 19V9m6 10V5m6 14v-7m4 7H2',
  },
  {
    to: paths.setup,
    label: 'Setup',
    text: 'Your website, your API key for CI, and your Android and iOS builds.',
    icon: 'M12 15a3 3 0 100-6 3 3 0 000 6zm7.4-3a7.4 7.4 0 00-.1-1.2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 00-2-1.2L14.5 2h-4l-.4 2.6a7.6 7.6 0 00-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 000 2.4l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 002 1.2l.4 2.6h4l.4-2.6a7.6 7.6 0 002-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z',
  },
  {
    to: paths.tests,
    label: 'Tests',
    text: 'Run your whole suite, or a single test, whenever you like.',
    icon: 'M9 3h6M10 3v6l-5 9a2 2 0 002 3h10a2 2 0 002-3l-5-9V3',
  },
  {
    to: paths.reports,
    label: 'Reports',
    text: 'Download every report in the formats it was written in.',
    icon: 'M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6',
  },
  {
    to: paths.requests,
    label: 'Requests',
    text: 'Ask for a new test, a change to a test, a manual test, a free retest, or ask a question.',
    icon: 'M4 5h16v11H8l-4 4zM8 9h8M8 12h5',
  },
  // Ours, after the spec's entries: every run, and what changed between runs.
  {
    to: paths.history,
    label: 'History',
    text: 'Every run: who started it, how long it took, and what changed since the one before.',
    icon: 'M3 12a9 9 0 109-9 9.7 9.7 0 00-6.7 2.8L3 8M3 3v5h5M12 7v5l4 2',
  },
  {
    to: paths.bugs,
    label: 'Bugs',
    text: 'The bugs our QA team found, with their evidence: answer them, and ask for the free retest once fixed.',
    icon: 'M8 6a4 4 0 018 0v1H8zM6 9h12v5a6 6 0 01-12 0zM3 12h3m12 0h3M4 18l2.5-1.5M20 18l-2.5-1.5',
  },
  {
    to: paths.team,
    label: 'Team',
    text: 'Invite your colleagues as owners, members or viewers.',
    icon: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21a7 7 0 0114 0M16 3.5a4 4 0 010 7.5M22 21a7 7 0 00-4-6.3',
  },
] as const;
