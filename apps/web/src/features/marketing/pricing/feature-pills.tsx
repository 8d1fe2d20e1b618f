import { useEffect, useState } from 'react';
import { FEATURE_PILLS, HIGHLIGHT_COUNT, pickHighlighted, RESHUFFLE_MS } from './pills.ts';

/** The first pick is fixed so prerendered HTML and the first client render agree; shuffling starts after. */
const INITIAL = [0, 2, 5, 9, 13];

export function FeaturePills() {
  const [highlighted, setHighlighted] = useState<readonly number[]>(INITIAL);

  useEffect(() => {
    const reshuffle = () => setHighlighted((prev) => pickHighlighted(FEATURE_PILLS.length, HIGHLIGHT_COUNT, Math.random, prev));
    reshuffle();
    const timer = setInterval(reshuffle, RESHUFFLE_MS);
    return () => clearInterval(timer);
  }, []);

  return (
    <ul className="pills" aria-label="Features we test">
      {FEATURE_PILLS.map((pill, i) => {
        const on = highlighted.includes(i);
        return (
          <li key={pill} className={`pill${on ? ' pill--on' : ''}`} data-highlighted={on}>
            {pill}
          </li>
        );
      })}
    </ul>
  );
}
