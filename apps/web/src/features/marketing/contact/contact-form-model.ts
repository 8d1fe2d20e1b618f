export interface ContactForm {
  name: string;
  phone: string;
  message: string;
  captcha: string;
}

export type ContactErrors = Partial<Record<keyof ContactForm, string>>;

export const CONTACT_MESSAGES = {
  name: 'Name is required.',
  phone: 'Phone number is required.',
  message: 'Message is required.',
  captcha: 'Please enter the CAPTCHA code.',
  captchaMismatch: 'CAPTCHA is incorrect. Please try again.',
} as const;

/** The required-field checks of the spec; the captcha comparison is separate because it answers with an alert. */
export function validateContact(form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  if (!form.name.trim()) errors.name = CONTACT_MESSAGES.name;
  if (!form.phone.trim()) errors.phone = CONTACT_MESSAGES.phone;
  if (!form.message.trim()) errors.message = CONTACT_MESSAGES.message;
  if (!form.captcha.trim()) errors.captcha = CONTACT_MESSAGES.captcha;
  return errors;
}

/** The mailto: address that opens the visitor's mail client with the message prefilled. */
export function contactMailto(to: string, form: Pick<ContactForm, 'name' | 'phone' | 'message'>): string {
  const body = `Name: ${form.name.trim()}\nContact Number: ${form.phone.trim()}\nMessage: ${form.message.trim()}`;
  return `mailto:${to}?subject=${encodeURIComponent('Contact Us')}&body=${encodeURIComponent(body)}`;
}

export const DEFAULT_CONTACT_EMAIL = 'contact@fullstop.test';

/** The mailbox the server configured (CONTACT_EMAIL, sent as a meta tag), or the default. */
export function contactEmail(doc: Document = document): string {
  const value = doc.querySelector<HTMLMetaElement>('meta[name="fullstop-contact-email"]')?.content.trim();
  return value || DEFAULT_CONTACT_EMAIL;
}
