interface CaptchaFieldProps {
  id: string;
  code: string;
  value: string;
  onChange: (value: string) => void;
  onRefresh: () => void;
}

/** The spec's 6-character captcha: the code drawn on screen, a field to type it, and a way to get a new one. */
export function CaptchaField({ id, code, value, onChange, onRefresh }: CaptchaFieldProps) {
  return (
    <div className="portal-field">
      <label htmlFor={id}>Enter the code shown</label>
      <div className="portal-captcha">
        <span className="portal-captcha__code" data-testid="captcha-code" aria-label={`Captcha code ${code.split('').join(' ')}`}>
          {code}
        </span>
        <button type="button" className="btn btn--ghost" onClick={onRefresh}>
          New code
        </button>
      </div>
      <input
        id={id}
        name="captcha"
        autoComplete="off"
        spellCheck={false}
        maxLength={6}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
      />
    </div>
  );
}
