import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import { createPortalStore } from '../../store/store.ts';
import { SuiteImportForm } from './suite-import.tsx';

afterEach(cleanup);

describe('the console’s suite import', () => {
  it('offers a file picker, not a folder picker, once "A zip archive" is chosen', async () => {
    render(
      <Provider store={createPortalStore()}>
        <SuiteImportForm clientId="c1" hasCurrent />
      </Provider>,
    );
    expect(screen.getByLabelText('Suite folder').hasAttribute('webkitdirectory')).toBe(true);
    await userEvent.click(screen.getByLabelText('A zip archive'));
    const zip = screen.getByLabelText('Zip archive');
    expect(zip.hasAttribute('webkitdirectory')).toBe(false);
    expect(zip.getAttribute('accept')).toBe('.zip,application/zip');
  });

  it('makes the first version current, with no trial choice, and offers the trial once a version runs', () => {
    const { rerender } = render(
      <Provider store={createPortalStore()}>
        <SuiteImportForm clientId="c1" hasCurrent={false} />
      </Provider>,
    );
    expect(screen.getByText('No version is current yet: this one becomes current at once, so the client sees its tests.')).toBeTruthy();
    expect(screen.queryByLabelText(/Keep it for a trial run/)).toBeNull();
    rerender(
      <Provider store={createPortalStore()}>
        <SuiteImportForm clientId="c1" hasCurrent />
      </Provider>,
    );
    expect((screen.getByLabelText(/Keep it for a trial run/) as HTMLInputElement).checked).toBe(true);
  });
});
