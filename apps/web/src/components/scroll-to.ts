/** The spec's fixed offset: a section lands 100 px below the top, clear of the sticky header. */
export const SCROLL_OFFSET_PX = 100;

/** Smoothly scrolls the window so the element with this id sits SCROLL_OFFSET_PX below the top. */
export function scrollToSection(id: string, behavior: ScrollBehavior = 'smooth'): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  const top = target.getBoundingClientRect().top + window.scrollY - SCROLL_OFFSET_PX;
  window.scrollTo({ top: Math.max(0, top), behavior });
  return true;
}
