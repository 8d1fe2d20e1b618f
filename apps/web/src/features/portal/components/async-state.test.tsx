import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AsyncState } from './async-state.tsx';
import { DataTable } from './data-table.tsx';
import { FilterSelect } from './filter-select.tsx';

afterEach(cleanup);

const faces = { loading: 'Loading runs…', failed: 'The runs could not be loaded.', missing: 'There is no such run.', empty: 'No runs yet.' };

function renderState(query: { isLoading: boolean; isError: boolean; data?: string[]; error?: unknown }) {
  render(
    <AsyncState query={query} {...faces} isEmpty={(runs) => runs.length === 0}>
      {(runs) => <p>{runs.join(', ')}</p>}
    </AsyncState>,
  );
}

describe('the shared loading, empty and error faces', () => {
  it('shows loading, then a failure, a missing thing, nothing, or the answer', () => {
    renderState({ isLoading: true, isError: false });
    expect(screen.getByRole('status').textContent).toBe('Loading runs…');
    cleanup();
    renderState({ isLoading: false, isError: true, error: { status: 500 } });
    expect(screen.getByRole('alert').textContent).toBe('The runs could not be loaded.');
    cleanup();
    renderState({ isLoading: false, isError: true, error: { status: 404 } });
    expect(screen.getByText('There is no such run.').className).toBe('portal-empty');
    cleanup();
    renderState({ isLoading: false, isError: false, data: [] });
    expect(screen.getByText('No runs yet.').className).toBe('portal-empty');
    cleanup();
    renderState({ isLoading: false, isError: false, data: ['r1', 'r2'] });
    expect(screen.getByText('r1, r2')).toBeTruthy();
  });
});

describe('the shared table and filter', () => {
  it('labels each cell with its column, and shows the empty face instead of an empty table', () => {
    const columns = [{ header: 'Name', cell: (row: { id: string }) => row.id, className: 'portal-mono' }];
    render(<DataTable caption="Rows" columns={columns} rows={[{ id: 'a' }]} rowKey={(row) => row.id} />);
    const cell = screen.getByRole('cell');
    expect([cell.textContent, cell.dataset.label, cell.className]).toEqual(['a', 'Name', 'portal-mono']);
    expect(screen.getByRole('table', { name: 'Rows' })).toBeTruthy();
    cleanup();
    render(<DataTable columns={columns} rows={[]} rowKey={(row) => row.id} empty={<p>Nothing here.</p>} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Nothing here.')).toBeTruthy();
  });

  it('keeps a value from the address that the choices do not hold', () => {
    render(<FilterSelect id="f" label="Test" all="All tests" options={[{ value: 'login', label: 'Login' }]} value="gone" onChange={() => {}} keepUnknown />);
    const select = screen.getByLabelText('Test') as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual(['All tests', 'gone', 'Login']);
    expect(select.value).toBe('gone');
  });
});
