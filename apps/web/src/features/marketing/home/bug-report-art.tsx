const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
const MONO = "ui-monospace, Menlo, Consolas, 'Liberation Mono', monospace";

/** Our drawing of a bug report as we write them: one issue, severity, steps, expected and actual. */
export function BugReportArt() {
  return (
    <svg viewBox="0 0 480 320" role="img" aria-label="A short bug report with severity, steps to reproduce, expected and actual result" focusable="false">
      <rect x="1" y="1" width="478" height="318" rx="16" fill="#fff" stroke="#e2e8f0" strokeWidth="2" />
      <rect x="24" y="24" width="64" height="22" rx="11" fill="#fee2e2" />
      <text x="56" y="39" textAnchor="middle" fontFamily={FONT} fontSize="11" fontWeight="700" fill="#991b1b">HIGH</text>
      <text x="100" y="40" fontFamily={MONO} fontSize="12" fill="#475569">BUG-142</text>
      <text x="24" y="76" fontFamily={FONT} fontSize="16" fontWeight="700" fill="#0f172a">Pay button does nothing on iOS Safari 17</text>
      <text x="24" y="110" fontFamily={FONT} fontSize="12" fontWeight="700" fill="#4338ca">STEPS</text>
      {['Add any item to the cart', 'Open checkout, card 4242 4242 4242 4242', 'Tap "Pay now"'].map((step, i) => (
        <g key={step} transform={`translate(24 ${126 + i * 24})`}>
          <circle cx="9" cy="0" r="9" fill="#e0e7ff" />
          <text x="9" y="4" textAnchor="middle" fontFamily={FONT} fontSize="11" fontWeight="700" fill="#3730a3">{i + 1}</text>
          <text x="26" y="4" fontFamily={FONT} fontSize="13" fill="#334155">{step}</text>
        </g>
      ))}
      <rect x="24" y="208" width="206" height="84" rx="10" fill="#f0fdf4" />
      <text x="38" y="232" fontFamily={FONT} fontSize="11" fontWeight="700" fill="#166534">EXPECTED</text>
      <text x="38" y="254" fontFamily={FONT} fontSize="13" fill="#14532d">Payment sheet opens</text>
      <rect x="250" y="208" width="206" height="84" rx="10" fill="#fef2f2" />
      <text x="264" y="232" fontFamily={FONT} fontSize="11" fontWeight="700" fill="#991b1b">ACTUAL</text>
      <text x="264" y="254" fontFamily={FONT} fontSize="13" fill="#7f1d1d">Nothing happens; console</text>
      <text x="264" y="272" fontFamily={FONT} fontSize="13" fill="#7f1d1d">shows TypeError</text>
      <rect x="372" y="98" width="84" height="92" rx="12" fill="#0f172a" />
      <rect x="380" y="108" width="68" height="64" rx="4" fill="#1e293b" />
      <rect x="388" y="150" width="52" height="14" rx="7" fill="#6366f1" />
      <circle cx="414" cy="157" r="16" fill="none" stroke="#ef4444" strokeWidth="3" />
    </svg>
  );
}

/** The noise a team wades through without us: the cover that the home page scrolls away. */
export function LogNoiseArt() {
  const widths = [310, 250, 380, 200, 340, 290, 410, 180, 360, 270, 330, 220];
  return (
    <svg viewBox="0 0 480 320" role="img" aria-label="A wall of raw log lines" focusable="false">
      <rect x="1" y="1" width="478" height="318" rx="16" fill="#1e293b" />
      {widths.map((w, i) => (
        <g key={i} transform={`translate(24 ${30 + i * 22})`}>
          <rect width="46" height="8" rx="4" fill={i % 4 === 2 ? '#f87171' : '#475569'} />
          <rect x="56" width={w - 56} height="8" rx="4" fill="#334155" />
        </g>
      ))}
      <rect x="120" y="128" width="240" height="64" rx="12" fill="#0f172a" opacity="0.92" />
      <text x="240" y="156" textAnchor="middle" fontFamily={FONT} fontSize="15" fontWeight="700" fill="#f8fafc">2,341 log lines</text>
      <text x="240" y="177" textAnchor="middle" fontFamily={FONT} fontSize="12" fill="#cbd5e1">Keep scrolling: we read them for you</text>
    </svg>
  );
}
