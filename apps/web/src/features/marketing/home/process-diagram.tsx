const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

export const PROCESS_STEPS = [
  { title: 'Onboard', note: 'within 48 hours', side: 'top' },
  { title: 'Write tests', note: '3 scenarios each', side: 'right' },
  { title: 'Run', note: 'portal, API or CI', side: 'bottom' },
  { title: 'Report', note: 'simple, on-point bugs', side: 'bottom' },
  { title: 'Improve', note: 'as your app changes', side: 'left' },
] as const;

const CX = 360;
const CY = 250;
const R = 150;
const NODE_R = 36;
const GAP_DEG = 17;

function point(deg: number, radius = R): [number, number] {
  const rad = (deg * Math.PI) / 180;
  return [CX + radius * Math.cos(rad), CY + radius * Math.sin(rad)];
}

const angleOf = (i: number) => -90 + i * (360 / PROCESS_STEPS.length);
const fmt = (n: number) => n.toFixed(1);

/** "How We Work" drawn as a loop: onboarding once, then write, run, report and improve on every change. */
export function ProcessDiagram() {
  return (
    <svg viewBox="0 0 720 480" role="img" aria-label="How We Work: onboard within 48 hours, write tests, run them, report bugs, improve the tests, and repeat" focusable="false" className="process-diagram">
      <defs>
        <marker id="process-arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0 0L10 5L0 10z" fill="#4338ca" />
        </marker>
      </defs>
      <circle cx={CX} cy={CY} r={R} fill="none" stroke="#e0e7ff" strokeWidth="18" />
      {PROCESS_STEPS.map((_, i) => {
        const [x1, y1] = point(angleOf(i) + GAP_DEG);
        const [x2, y2] = point(angleOf(i + 1) - GAP_DEG);
        return (
          <path key={i} d={`M${fmt(x1)} ${fmt(y1)}A${R} ${R} 0 0 1 ${fmt(x2)} ${fmt(y2)}`} fill="none" stroke="#4338ca" strokeWidth="3" markerEnd="url(#process-arrow)" />
        );
      })}
      <text x={CX} y={CY - 4} textAnchor="middle" fontFamily={FONT} fontSize="30" fontWeight="800" fill="#0f172a">fullstop<tspan fill="#14b8a6">.</tspan></text>
      <text x={CX} y={CY + 24} textAnchor="middle" fontFamily={FONT} fontSize="15" fill="#475569">on every deploy</text>
      {PROCESS_STEPS.map((step, i) => {
        const [x, y] = point(angleOf(i));
        const label: { x: number; y: number; anchor: 'start' | 'middle' | 'end' } =
          step.side === 'top' ? { x, y: y - NODE_R - 34, anchor: 'middle' } :
          step.side === 'right' ? { x: x + NODE_R + 14, y: y - 4, anchor: 'start' } :
          step.side === 'left' ? { x: x - NODE_R - 14, y: y - 4, anchor: 'end' } :
          { x, y: y + NODE_R + 28, anchor: 'middle' };
        return (
          <g key={step.title}>
            <circle cx={fmt(x)} cy={fmt(y)} r={NODE_R} fill={i === 0 ? '#0f766e' : '#4338ca'} />
            <text x={fmt(x)} y={fmt(y + 9)} textAnchor="middle" fontFamily={FONT} fontSize="26" fontWeight="800" fill="#fff">{i + 1}</text>
            <text x={fmt(label.x)} y={fmt(label.y)} textAnchor={label.anchor} fontFamily={FONT} fontSize="19" fontWeight="700" fill="#0f172a" className="process-diagram__title">{step.title}</text>
            <text x={fmt(label.x)} y={fmt(label.y + 21)} textAnchor={label.anchor} fontFamily={FONT} fontSize="15" fill="#475569" className="process-diagram__note">{step.note}</text>
          </g>
        );
      })}
    </svg>
  );
}
