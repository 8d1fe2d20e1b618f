interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
}

/** An axis label on up to two lines, so "95th Percentile" fits under its point on a narrow panel. */
export function WrappedTick({ x = 0, y = 0, payload }: TickProps) {
  const words = String(payload?.value ?? '').split(' ');
  const lines = words.length > 1 ? [words[0], words.slice(1).join(' ')] : words;
  return (
    <text x={Number(x)} y={Number(y) + 12} textAnchor="middle" fontSize={12} fill="#475569">
      {lines.map((line, i) => (
        <tspan key={i} x={Number(x)} dy={i === 0 ? 0 : 14}>
          {line}
        </tspan>
      ))}
    </text>
  );
}
