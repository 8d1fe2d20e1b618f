import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, contactEmail, contactMailto, DEFAULT_CONTACT_EMAIL, validateContact } from './contact-form-model.ts';

const valid = { name: 'Ada Lovelace', phone: '+12025550123', message: 'Please test our checkout.', captcha: 'aB3dE9' };

describe('contact form validation', () => {
  it('accepts a complete form', () => {
    expect(validateContact(valid)).toEqual({});
  });

  it('names every missing required field', () => {
    expect(validateContact({ name: '', phone: '', message: '', captcha: '' })).toEqual({
      name: CONTACT_MESSAGES.name,
      phone: CONTACT_MESSAGES.phone,
      message: CONTACT_MESSAGES.message,
      captcha: CONTACT_MESSAGES.captcha,
    });
  });

  it('treats whitespace as empty', () => {
    expect(validateContact({ ...valid, name: '   ', message: '\n\t' })).toEqual({
      name: CONTACT_MESSAGES.name,
      message: CONTACT_MESSAGES.message,
    });
  });

  it('keeps the spec wording of the captcha alert', () => {
    expect(CONTACT_MESSAGES.captchaMismatch).toBe('CAPTCHA is incorrect. Please try again.');
  });
});

describe('contact mailto', () => {
  it('addresses the mailbox with subject Contact Us and a body with name, number and message', () => {
    const url = new URL(contactMailto('sales@example.com', valid));
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('sales@example.com');
    expect(url.searchParams.get('subject')).toBe('Contact Us');
    expect(url.searchParams.get('body')).toBe('Name: Ada Lovelace\nContact Number: +12025550123\nMessage: Please test our checkout.');
  });

  it('encodes characters that would break the URL', () => {
    const href = contactMailto('a@b.test', { name: 'A & B', phone: '+1', message: 'x?y=z#1' });
    expect([...new URL(href).searchParams.keys()]).toEqual(['subject', 'body']);
    expect(new URL(href).searchParams.get('body')).toContain('A & B');
    expect(new URL(href).searchParams.get('body')).toContain('x?y=z#1');
  });

  it('reads the configured mailbox from the page, with a default', () => {
    document.head.innerHTML = '';
    expect(contactEmail()).toBe(DEFAULT_CONTACT_EMAIL);
    document.head.innerHTML = '<meta name="fullstop-contact-email" content="hello@qa.example">';
    expect(contactEmail()).toBe('hello@qa.example');
  });
});
