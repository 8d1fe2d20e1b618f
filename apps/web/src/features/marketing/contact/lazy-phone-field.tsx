import { useEffect, useState, type ComponentType } from 'react';
import type { PhoneFieldProps } from './phone-field.tsx';

/**
 * The phone library (~50 KB gzip with its number metadata) loads after the page is interactive, so it never
 * delays the contact page's first paint or hydration. Until then a look-alike, read-only field holds its place.
 */
export function LazyPhoneField(props: PhoneFieldProps) {
  const [Field, setField] = useState<ComponentType<PhoneFieldProps> | null>(null);
  useEffect(() => {
    let live = true;
    void import('./phone-field.tsx').then((m) => {
      if (live) setField(() => m.PhoneField);
    });
    return () => {
      live = false;
    };
  }, []);
  if (Field) return <Field {...props} />;
  return (
    <div className="PhoneInput phone-field phone-field--loading" aria-busy="true">
      <div className="PhoneInputCountry phone-field__country-placeholder" aria-hidden="true">
        <span className="phone-flag">US</span>
      </div>
      <input id={props.id} className="PhoneInputInput" type="tel" readOnly value="" aria-describedby={props.describedBy} />
    </div>
  );
}
