/** Shows the code to copy and a button for a new one; the code is text so screen readers can read it out. */
export function CaptchaBox({ code, onRefresh }: { code: string; onRefresh: () => void }) {
  return (
    <div className="captcha">
      <span className="captcha__code" data-testid="captcha-code" aria-label={`CAPTCHA code: ${code.split('').join(' ')}`}>
        {code}
      </span>
      <button type="button" className="captcha__refresh" onClick={onRefresh} aria-label="Get a new CAPTCHA code">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M20 11a8 8 0 1 0-2.3 5.7" />
          <path d="M20 4v7h-7" />
        </svg>
      </button>
    </div>
  );
}
