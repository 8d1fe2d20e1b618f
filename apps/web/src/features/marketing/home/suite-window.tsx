const TESTS = [
  { name: 'Login and session', time: '1.8s' },
  { name: 'Checkout with sandbox card', time: '4.2s' },
  { name: 'Search and filters', time: '2.1s' },
  { name: 'Accessibility (WCAG 2.2 AA)', time: '3.5s' },
  { name: 'Load: 500 virtual users', time: '60s' },
  { name: 'Security scan', time: '48s' },
] as const;

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

/**
 * Our drawing of a client's test suite, before a run (grey rows) or after it (all green). The home page
 * stacks the "pending" drawing over the "passed" one as the first cover.
 */
export function SuiteWindow({ state }: { state: 'pending' | 'passed' }) {
  const passed = state === 'passed';
  return (
    <svg viewBox="0 0 480 340" role="img" aria-label={passed ? 'Test suite: all 6 tests passed' : 'Test suite: 6 tests ready to run'} focusable="false">
      <rect x="1" y="1" width="478" height="338" rx="16" fill="#fff" stroke="#e2e8f0" strokeWidth="2" />
      <path d="M1 17a16 16 0 0 1 16-16h446a16 16 0 0 1 16 16v23H1z" fill="#f1f5f9" />
      <circle cx="22" cy="21" r="5" fill="#f87171" />
      <circle cx="38" cy="21" r="5" fill="#fbbf24" />
      <circle cx="54" cy="21" r="5" fill="#34d399" />
      <text x="240" y="25" textAnchor="middle" fontFamily={FONT} fontSize="12" fill="#475569">app.fullstop · Test suite</text>
      <text x="24" y="70" fontFamily={FONT} fontSize="15" fontWeight="700" fill="#0f172a">Checkout &amp; account</text>
      <text x="24" y="90" fontFamily={FONT} fontSize="12" fill="#475569">{passed ? 'Last run: just now' : 'Not run yet'}</text>
      <g transform="translate(412 72)">
        <circle r="22" fill="none" stroke="#e2e8f0" strokeWidth="7" />
        {passed && <circle r="22" fill="none" stroke="#16a34a" strokeWidth="7" strokeDasharray="138.2 138.2" transform="rotate(-90)" />}
        <text y="5" textAnchor="middle" fontFamily={FONT} fontSize="13" fontWeight="700" fill={passed ? '#15803d' : '#64748b'}>
          {passed ? '6/6' : '0/6'}
        </text>
      </g>
      {TESTS.map((test, i) => {
        const y = 118 + i * 36;
        return (
          <g key={test.name} transform={`translate(0 ${y})`}>
            <rect x="16" y="-2" width="448" height="30" rx="8" fill={i % 2 ? '#fff' : '#f8fafc'} />
            {passed ? (
              <>
                <circle cx="36" cy="13" r="9" fill="#dcfce7" />
                <path d="M31.5 13.2l3 3 5.5-6" fill="none" stroke="#15803d" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
              </>
            ) : (
              <circle cx="36" cy="13" r="8" fill="none" stroke="#94a3b8" strokeWidth="2" strokeDasharray="3 3" />
            )}
            <text x="56" y="18" fontFamily={FONT} fontSize="13" fill="#0f172a">{test.name}</text>
            {passed ? (
              <>
                <rect x="366" y="3" width="52" height="20" rx="10" fill="#dcfce7" />
                <text x="392" y="17" textAnchor="middle" fontFamily={FONT} fontSize="11" fontWeight="700" fill="#166534">Passed</text>
                <text x="452" y="18" textAnchor="end" fontFamily={FONT} fontSize="11" fill="#475569">{test.time}</text>
              </>
            ) : (
              <rect x="366" y="8" width="86" height="10" rx="5" fill="#e2e8f0" />
            )}
          </g>
        );
      })}
    </svg>
  );
}
