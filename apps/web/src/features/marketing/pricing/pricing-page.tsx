import { usePageTitle } from '@/components/page-title.ts';
import { ScrollIndicator } from '@/components/scroll-indicator.tsx';
import { CtaBand } from '../shared/cta-band.tsx';
import { CheckList } from '../shared/item-list.tsx';
import { PageHero } from '../shared/page-hero.tsx';
import { Section } from '../shared/section.tsx';
import { ComparisonTable } from './comparison-table.tsx';
import { FeaturePills } from './feature-pills.tsx';

const SECTIONS = [
  { id: 'feature-section', label: 'Our Pricing' },
  { id: 'comparison-section', label: 'Why Choose Us?' },
] as const;

/** What the price includes. */
const INCLUDED = [
  '3 testing scenarios in each feature test',
  'Start within 48 hours',
  'Month-to-month commitment',
  'Unlimited test executions via portal or API',
  'Free retest of in-scope issues after deployment',
];

const COMPARISON_LEAD = 'A QA engineer costs $48,000 to $72,000 a year before tools. Ten features with us cost $24,000 a year.';

export function PricingPage() {
  usePageTitle('Pricing');
  return (
    <>
      <ScrollIndicator items={SECTIONS} />
      <PageHero eyebrow="Pricing" title="Optimized QA Solutions at Competitive Rates">
        One simple price per feature. No set-up fee, no annual contract.
      </PageHero>
      <section id="feature-section" className="section section--tint" aria-labelledby="feature-title">
        <div className="container split">
          <div className="price-card card">
            <h2 id="feature-title">Our Pricing</h2>
            <p className="price">
              <span className="price__amount">$200</span>
              <span className="price__unit">per feature per month</span>
            </p>
            <CheckList items={INCLUDED} />
          </div>
          <div>
            <h3 className="pills-title">Pick the features that matter to you</h3>
            <p>A feature is anything your users rely on. These are the ones our clients ask for most:</p>
            <FeaturePills />
          </div>
        </div>
      </section>
      <Section center id="comparison-section" eyebrow="InHouse QA vs Us" title="Why Choose Us?" lead={COMPARISON_LEAD}>
        <ComparisonTable />
      </Section>
      <CtaBand title="Get a quote for your app" text="Tell us which features matter and we will be testing them within 48 hours." />
    </>
  );
}
