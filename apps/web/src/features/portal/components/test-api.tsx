import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, vi } from 'vitest';
import { createPortalStore } from '../store/store.ts';

/** For component tests only: a stand-in for the server, and a render inside a fresh portal store. */

/** A JSON answer, as the server sends one. */
export function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** One call the portal made, as the stand-in server sees it. */
export interface ApiCall {
  url: string;
  method: string;
  /** The request body as text. */
  body: () => Promise<string>;
}

/**
 * Signs a user in and answers every call of each test in the file with `answer` (fetch stubbed); unmounts and
 * unstubs after each. Returns the fetch mock, to look at the calls made.
 */
export function serveApi(answer: (call: ApiCall) => Response | Promise<Response>) {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('accessToken', 'access-1');
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      return answer({ url, method, body: async () => (input instanceof Request ? input.clone().text() : String(init?.body)) });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  return fetchMock;
}

/** Renders `ui` inside a fresh portal store, as the portal's pages are. */
export function renderWithStore(ui: ReactElement) {
  return render(<Provider store={createPortalStore()}>{ui}</Provider>);
}

/** Renders `ui` as renderWithStore does and waits for the section its heading `name` titles; `user` types and clicks. */
export async function renderSection(ui: ReactElement, name: string) {
  const user = userEvent.setup();
  renderWithStore(ui);
  const panel = (await screen.findByRole('heading', { name })).closest('section')!;
  return { user, panel };
}
