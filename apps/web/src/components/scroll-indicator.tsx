import { useEffect, useState } from 'react';
import { scrollToSection } from './scroll-to.ts';

export interface IndicatorItem {
  id: string;
  label: string;
}

/** The id of the section that contains the viewport's vertical midpoint, or null. */
export function sectionAtMidpoint(ids: readonly string[]): string | null {
  const mid = window.innerHeight / 2;
  for (const id of ids) {
    const rect = document.getElementById(id)?.getBoundingClientRect();
    if (rect && rect.top <= mid && rect.bottom > mid) return id;
  }
  return null;
}

/** A fixed list of a page's sections that highlights the one under the viewport midpoint and jumps to any. */
export function ScrollIndicator({ items }: { items: readonly IndicatorItem[] }) {
  const [active, setActive] = useState<string | null>(null);

  useEffect(() => {
    const ids = items.map((i) => i.id);
    let frame = 0;
    const update = () => {
      frame = 0;
      setActive(sectionAtMidpoint(ids));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame);
    };
  }, [items]);

  return (
    <nav className="scroll-indicator" aria-label="Sections on this page">
      <ol>
        {items.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              aria-current={active === item.id ? 'true' : undefined}
              onClick={() => scrollToSection(item.id)}
            >
              <span className="scroll-indicator__label">{item.label}</span>
              <span className="scroll-indicator__dot" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
