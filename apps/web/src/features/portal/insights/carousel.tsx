import { Children, useEffect, useState, type ReactNode } from 'react';
import { useMediaQuery } from '../components/use-media-query.ts';

/** Spec section 9: side by side from 992px; below, a carousel with the marketing site's timings. */
export const CAROUSEL_BREAKPOINT = '(min-width: 992px)';
export const AUTOPLAY_MS = 3000;
export const SLIDE_MS = 500;

export function Carousel({ label, children }: { label: string; children: ReactNode }) {
  const panels = Children.toArray(children);
  const wide = useMediaQuery(CAROUSEL_BREAKPOINT);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const autoplay = !wide && !paused && !reducedMotion && panels.length > 1;

  useEffect(() => {
    if (!autoplay) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % panels.length), AUTOPLAY_MS);
    return () => clearInterval(timer);
  }, [autoplay, panels.length]);

  if (wide) {
    return <div className="portal-panels">{panels}</div>;
  }
  return (
    <div
      className="portal-carousel"
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="portal-carousel__viewport">
        <div
          className="portal-carousel__track"
          style={{ transform: `translateX(-${index * 100}%)`, transitionDuration: `${reducedMotion ? 0 : SLIDE_MS}ms` }}
        >
          {panels.map((panel, i) => (
            <div
              key={i}
              className="portal-carousel__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${panels.length}`}
              aria-hidden={i !== index}
              inert={i !== index}
            >
              {panel}
            </div>
          ))}
        </div>
      </div>
      <div className="portal-carousel__dots">
        {panels.map((_, i) => (
          <button
            key={i}
            type="button"
            className="portal-carousel__dot"
            aria-label={`Show panel ${i + 1}`}
            aria-current={i === index}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </div>
  );
}
