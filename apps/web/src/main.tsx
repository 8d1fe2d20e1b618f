import './lib/zod-no-eval.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createAppRouter, rendersPrerenderedPage } from './app/router.tsx';
import './styles/base.css';
import './styles/layout.css';
import './styles/marketing.css';

// Not a top-level await: page chunks import from this entry, so awaiting them while it is still evaluating
// would deadlock.
async function start(container: HTMLElement): Promise<void> {
  const servedFor = `${window.location.pathname}${window.location.search}`;
  const router = await createAppRouter();
  // A guard that sent the visitor elsewhere (a signed-in user at /login, a visitor at /dashboard/<unknown>)
  // leaves HTML that belongs to the address it was served for.
  const redirected = `${window.location.pathname}${window.location.search}` !== servedFor;
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  // Prerendered public pages arrive with their HTML: hydrate them in place. The portal's shell is empty, and
  // prerendered HTML the client would not render itself (the 404 page under /dashboard) is replaced.
  if (container.firstElementChild && !redirected && rendersPrerenderedPage(window.location)) {
    // The page is already on screen: hydrating it as a transition lets React yield to the browser every few
    // milliseconds instead of holding the main thread for the whole page (Lighthouse's total blocking time).
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    container.replaceChildren();
    createRoot(container).render(app);
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
void start(container);
// Web vitals are reported only when the build names an endpoint: unset (the default), the minifier drops this
// branch and the reporting code never reaches the main chunk.
if (import.meta.env.VITE_WEB_VITALS_ENDPOINT) {
  void import('./lib/web-vitals.ts').then(({ configuredVitalsHandler, reportWebVitals }) => reportWebVitals(configuredVitalsHandler()));
}
