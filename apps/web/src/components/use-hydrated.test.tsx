import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { useHydrated } from './use-hydrated.ts';

function Probe() {
  const hydrated = useHydrated();
  return <button disabled={!hydrated}>{hydrated ? 'ready' : 'waiting'}</button>;
}

afterEach(cleanup);

describe('useHydrated', () => {
  it('is false in the prerendered HTML, so a prerendered form cannot be sent before its handlers exist', () => {
    expect(renderToString(<Probe />)).toBe('<button disabled="">waiting</button>');
  });

  it('turns true once React has hydrated that HTML', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Probe />);
    document.body.appendChild(container);
    await act(async () => {
      render(<Probe />, { container, hydrate: true });
    });
    expect(screen.getByRole('button', { name: 'ready' })).toHaveProperty('disabled', false);
  });

  it('is true from the first render of a page rendered in the browser', () => {
    render(<Probe />);
    expect(screen.getByRole('button', { name: 'ready' })).toHaveProperty('disabled', false);
  });
});
