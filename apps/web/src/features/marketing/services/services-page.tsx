import { usePageTitle } from '@/components/page-title.ts';
import { CtaBand } from '../shared/cta-band.tsx';
import { CheckList, TitledList, type TitledText } from '../shared/item-list.tsx';
import { PageHero } from '../shared/page-hero.tsx';
import { EXTRAS, MOBILE_SERVICES, WEB_SERVICES } from './services-data.ts';

function ServiceCard({ id, title, intro, icon, items }: {
  id: string;
  title: string;
  intro: string;
  icon: 'web' | 'mobile';
  items: readonly TitledText[];
}) {
  return (
    <article className="card service-card" aria-labelledby={id}>
      <div className="service-card__head">
        <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" className="service-card__icon">
          <rect width="48" height="48" rx="12" fill={icon === 'web' ? '#e0e7ff' : '#ccfbf1'} />
          {icon === 'web' ? (
            <g fill="none" stroke="#3730a3" strokeWidth="2.4" strokeLinejoin="round">
              <rect x="10" y="13" width="28" height="22" rx="3" />
              <path d="M10 19h28" />
              <path d="M19 27l-3 2 3 2M29 27l3 2-3 2" strokeLinecap="round" />
            </g>
          ) : (
            <g fill="none" stroke="#0f766e" strokeWidth="2.4" strokeLinejoin="round">
              <rect x="16" y="9" width="16" height="30" rx="3" />
              <path d="M22 34h4" strokeLinecap="round" />
            </g>
          )}
        </svg>
        <div>
          <h2 id={id}>{title}</h2>
          <p>{intro}</p>
        </div>
      </div>
      <TitledList items={items} className="service-list" inline />
    </article>
  );
}

export function ServicesPage() {
  usePageTitle('Services');
  return (
    <>
      <PageHero eyebrow="Services" title="Everything your release needs tested">
        One team covers web and mobile, automated and manual, from the first click to the last API call.
      </PageHero>
      <section className="section section--tint" aria-label="Our services">
        <div className="container grid grid--2 services-grid">
          <ServiceCard
            id="web-testing"
            icon="web"
            title="Web application testing"
            intro="Your site and web app, tested after every deployment."
            items={WEB_SERVICES}
          />
          <ServiceCard
            id="mobile-testing"
            icon="mobile"
            title="Mobile application testing"
            intro="Your Android and iOS apps, from the builds you upload."
            items={MOBILE_SERVICES}
          />
        </div>
      </section>
      <section className="section" aria-labelledby="extras-title">
        <div className="container split">
          <div>
            <span className="eyebrow">Included</span>
            <h2 id="extras-title">More than scripts</h2>
            <p className="lead">Automation does the heavy lifting; people make sure nothing falls through the gaps.</p>
          </div>
          <CheckList items={EXTRAS} className="check-list--large" />
        </div>
      </section>
      <CtaBand title="Tell us what to test" text="We start within 48 hours, month to month, with unlimited test runs." />
    </>
  );
}
