import { Link } from 'react-router';
import { paths } from '@/config/paths.ts';
import { usePageTitle } from '@/components/page-title.ts';
import { ScrollIndicator } from '@/components/scroll-indicator.tsx';
import { CtaBand } from '../shared/cta-band.tsx';
import { CheckList, TitledList, type TitledText } from '../shared/item-list.tsx';
import { Section } from '../shared/section.tsx';
import { BugReportArt, LogNoiseArt } from './bug-report-art.tsx';
import { ProcessDiagram } from './process-diagram.tsx';
import { RunAllTestsDemo } from './run-all-tests-demo.tsx';
import { ScrollCover } from './scroll-cover.tsx';

const SECTIONS = [
  { id: 'what-section', label: 'What We Do' },
  { id: 'why-section', label: 'Why Us' },
  { id: 'how-section', label: 'How We Work' },
] as const;

const WHAT_LEAD = 'Every release is checked the way your users will meet it, and you hear only what matters.';
const WHY_LEAD = 'All the coverage of an in-house team, none of the hiring, tooling or upkeep.';

const PITCH = [
  'One click: "Run all tests", from the portal or your CI',
  'Simple, on-point bug reports',
  'Test procedures that keep improving',
  'Performance, availability and more, tested for you',
];

const WHAT = [
  { title: 'Web applications', text: 'Functionality, usability, performance, accessibility to WCAG, security, load, API and regression testing, on the devices your users have.' },
  { title: 'Mobile applications', text: 'Functionality and usability, performance, mobile browsers and automated UI tests for your Android and iOS builds.' },
  { title: 'Performance and availability', text: 'Load tests with real percentiles and availability checks, so you hear about slow pages before your customers do.' },
  { title: 'Security', text: 'Passive and active scans of your public surface, with each finding explained and ranked by risk.' },
];

const WHY = [
  { title: 'Manual fallback', text: 'A feature not automated yet is still tested: by hand, by our QA engineers.' },
  { title: 'Payments, safely', text: 'Checkout flows are tested end to end with sandbox cards, never real money.' },
  { title: 'Tests that keep up', text: 'When your developers change something, we update the tests. You never maintain a suite.' },
  { title: 'Satisfaction guarantee', text: 'Missed an issue within scope after a deployment? We retest it for free.' },
  { title: 'Start within 48 hours', text: 'No hiring, no onboarding months. Your first tests run within two days.' },
  { title: 'Month to month', text: 'No annual contract. Unlimited test runs via the portal or the API.' },
];

const HOW = [
  { title: 'Onboard', text: 'Tell us about your app and its critical journeys. We start within 48 hours.' },
  { title: 'Write tests', text: 'We write each feature test with 3 testing scenarios, automated where it pays off.' },
  { title: 'Run', text: 'Run everything with one click in the portal, or from your CI through the API, as often as you like.' },
  { title: 'Report', text: 'You get short, reproducible bug reports and reports in the formats your team uses.' },
  { title: 'Improve', text: 'As your product changes, we change the tests, and the procedures get better every month.' },
];

function Cards({ items, className, cardClassName }: { items: readonly TitledText[]; className: string; cardClassName?: string }) {
  return (
    <div className={className}>
      {items.map((item) => (
        <article key={item.title} className={cardClassName ? `card card--compact ${cardClassName}` : 'card card--compact'}>
          <h3>{item.title}</h3>
          <p>{item.text}</p>
        </article>
      ))}
    </div>
  );
}

export function HomePage() {
  usePageTitle(null);
  return (
    <>
      <ScrollIndicator items={SECTIONS} />
      <section id="welcome-section" className="section hero" aria-labelledby="welcome-title">
        <div className="container split">
          <div>
            <span className="eyebrow">Managed QA for web and mobile</span>
            <h1 id="welcome-title">
              We Test so you don&apos;t have to <span className="hero__period">(period)</span>.
            </h1>
            <p className="lead">
              Fullstop is your QA team on demand: we write, run and maintain the tests of your web and mobile
              applications after every deployment, and you get the results.
            </p>
            <CheckList items={PITCH} className="hero__pitch" />
            <div className="btn-row">
              <Link className="btn btn--primary" to={paths.contactUs}>
                Talk to us
              </Link>
              <Link className="btn btn--ghost" to={paths.pricing}>
                See pricing
              </Link>
            </div>
          </div>
          <RunAllTestsDemo />
        </div>
      </section>

      <Section tint id="what-section" eyebrow="What We Do" title="Post-deployment testing, done for you" lead={WHAT_LEAD}>
        <div className="split split--top">
          <Cards items={WHAT} className="grid grid--2 what-grid" />
          <ScrollCover image={<BugReportArt />} cover={<LogNoiseArt />} />
        </div>
        <p className="more-link">
          <Link to={paths.services}>Everything we test, in detail</Link>
        </p>
      </Section>

      <Section center id="why-section" eyebrow="Why Us" title="A QA team without the overhead" lead={WHY_LEAD}>
        <Cards items={WHY} className="grid grid--3" cardClassName="feature-card" />
      </Section>

      <Section tint center id="how-section" eyebrow="How We Work" title="From first call to green builds">
        <div className="split">
          <ProcessDiagram />
          <TitledList items={HOW} className="steps" ordered />
        </div>
      </Section>

      <CtaBand title="Ready to stop testing yourself?" text="$200 per feature per month, 3 testing scenarios each. Start within 48 hours." />
    </>
  );
}
