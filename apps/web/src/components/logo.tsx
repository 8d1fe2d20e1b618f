/** The wordmark: "fullstop" and the full stop itself, drawn as a brand-coloured dot. */
export function Logo({ title = 'Fullstop QA' }: { title?: string }) {
  return (
    <svg viewBox="0 0 170 36" role="img" aria-label={title} focusable="false">
      <rect x="0" y="4" width="28" height="28" rx="8" fill="#4338ca" />
      <path d="M8 18.5l4.2 4.2L20.5 13" fill="none" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round" />
      <text x="36" y="26" fontFamily="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif" fontSize="22" fontWeight="800" fill="currentColor" letterSpacing="-0.5">
        fullstop
      </text>
      <circle cx="131" cy="23.5" r="4" fill="#14b8a6" />
      <text x="140" y="26" fontFamily="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif" fontSize="13" fontWeight="700" fill="currentColor" opacity="0.7">
        QA
      </text>
    </svg>
  );
}
