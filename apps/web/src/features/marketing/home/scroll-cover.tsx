import { useEffect, useRef, useState, type ReactNode } from 'react';

/** The spec's threshold: the cover hides once the page has scrolled past 1.3 times the block's height. */
export const COVER_THRESHOLD_FACTOR = 1.3;

/** An image block whose cover image hides, for good, once the visitor scrolls past the threshold. */
export function ScrollCover({ image, cover }: { image: ReactNode; cover: ReactNode }) {
  const block = useRef<HTMLDivElement>(null);
  const [covered, setCovered] = useState(true);

  useEffect(() => {
    if (!covered) return;
    const check = () => {
      const height = block.current?.offsetHeight ?? 0;
      if (height > 0 && window.scrollY > COVER_THRESHOLD_FACTOR * height) setCovered(false);
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    return () => window.removeEventListener('scroll', check);
  }, [covered]);

  return (
    <div className="scroll-cover" ref={block} data-testid="second-image-block">
      {image}
      <div className={`scroll-cover__cover${covered ? '' : ' scroll-cover__cover--hidden'}`} data-testid="second-cover" aria-hidden={!covered}>
        {cover}
      </div>
    </div>
  );
}
