export interface FaqItem {
  question: string;
  answer: string;
}

export const FAQ: readonly FaqItem[] = [
  {
    question: 'What counts as a "feature"?',
    answer:
      'A feature is one thing your users rely on, such as login, search, checkout or data export. Each feature test covers 3 testing scenarios, for example the happy path, a validation error and an edge case.',
  },
  {
    question: 'How soon can you start?',
    answer:
      'Within 48 hours of our first call. We agree on the features to cover, get access to a test environment or your public site, and the first tests run in the portal shortly after.',
  },
  {
    question: 'Is there a minimum contract?',
    answer: 'No. You pay $200 per feature per month, month to month, and you can add or remove features at the end of any month.',
  },
  {
    question: 'How do we run the tests?',
    answer:
      'Click "Run all tests" in the client portal, run a single test, or call our API with your API key from your CI pipeline. Runs are unlimited.',
  },
  {
    question: 'What do your bug reports look like?',
    answer:
      'Short and reproducible: a title, severity, steps to reproduce, expected and actual result, and screenshots or traces. Full reports are available in the portal as HTML, JSON or ZIP.',
  },
  {
    question: 'Do you test payments?',
    answer: 'Yes, end to end with your payment provider\u2019s sandbox cards. We never use real cards or move real money.',
  },
  {
    question: 'What happens when our developers change the app?',
    answer:
      'We update the affected tests. Keeping the suite in step with your product is part of the service, not an extra.',
  },
  {
    question: 'What data do you need from us?',
    answer:
      'Only data meant for public release, such as test accounts and sample content. Please never send production personal data. We delete test data after testing, as our Privacy Policy explains.',
  },
];
