import PhoneInput, { type FlagProps } from 'react-phone-number-input';
import 'react-phone-number-input/style.css';

/**
 * Flags are drawn as the country's two-letter code: the library's default loads flag images from a third
 * party, which our CSP forbids and which would slow the page down.
 */
function CountryCodeFlag({ country }: FlagProps) {
  return <span className="phone-flag" aria-hidden="true">{country}</span>;
}

export interface PhoneFieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy?: string | undefined;
}

export function PhoneField({ id, value, onChange, invalid, describedBy }: PhoneFieldProps) {
  return (
    <PhoneInput
      id={id}
      name="phone"
      className={`phone-field${invalid ? ' phone-field--invalid' : ''}`}
      defaultCountry="US"
      value={value}
      onChange={(next) => onChange(next ?? '')}
      flagComponent={CountryCodeFlag}
      autoComplete="tel"
      aria-invalid={invalid}
      aria-describedby={describedBy}
      countrySelectProps={{ 'aria-label': 'Phone number country' }}
    />
  );
}
