import { usePageTitle } from '@/components/page-title.ts';
import { ScrollIndicator } from '@/components/scroll-indicator.tsx';
import { PageHero } from '../shared/page-hero.tsx';
import { Section } from '../shared/section.tsx';
import { ContactForm } from './contact-form.tsx';
import { FaqList } from './faq-list.tsx';

const SECTIONS = [
  { id: 'contact-form-section', label: 'Contact Form' },
  { id: 'faq-section', label: 'FAQs' },
] as const;

export function ContactPage() {
  usePageTitle('Contact Us');
  return (
    <div id="contact-section">
      <ScrollIndicator items={SECTIONS} />
      <PageHero eyebrow="Contact Us" title="Let's talk about your app">
        Tell us what you would like tested. We reply within one business day, and we can start within 48 hours.
      </PageHero>
      <section id="contact-form-section" className="section section--tint" aria-label="Contact form">
        <div className="container split split--top">
          <div className="contact-aside">
            <h2>What happens next</h2>
            <ol className="steps steps--compact">
              <li>
                <h3>We read your message</h3>
                <p>A QA lead, not a bot, answers within one business day.</p>
              </li>
              <li>
                <h3>A short call</h3>
                <p>We list the features that matter and agree on what to cover.</p>
              </li>
              <li>
                <h3>Your first test run</h3>
                <p>Within 48 hours you can click &quot;Run all tests&quot; in your portal.</p>
              </li>
            </ol>
          </div>
          <ContactForm />
        </div>
      </section>
      <Section center narrow id="faq-section" eyebrow="FAQs" title="Frequently asked questions">
        <FaqList />
      </Section>
    </div>
  );
}
