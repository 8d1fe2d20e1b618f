import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False in the build's prerender and while React hydrates that HTML, true from the first render after. A
 * prerendered form is on screen before its handlers are attached: what is typed into it then never reaches
 * React's state, and a submit is the browser's own, a GET to the page with every field in the address, a
 * password included. Such a form keeps its fields read-only and its buttons disabled until this is true.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
