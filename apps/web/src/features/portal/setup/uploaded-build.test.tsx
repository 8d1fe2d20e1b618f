import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadedBuild } from './uploaded-build.tsx';

const build = { filePath: 'android/shop.apk', uploadedAt: '2026-11-23T10:00:00.000Z', size: 2048, app: null, onReupload: () => {} };

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('UploadedBuild: Delete this build', () => {
  it('deletes only after the user confirms, naming the file', async () => {
    const onDelete = vi.fn();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    render(<UploadedBuild {...build} onDelete={onDelete} />);
    const button = screen.getByRole('button', { name: 'Delete this build' });
    await userEvent.click(button);
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('Delete shop.apk?'));
    expect(onDelete).not.toHaveBeenCalled();
    await userEvent.click(button);
    expect(onDelete).toHaveBeenCalledOnce();
  });

  it('offers no delete to someone who may not delete (a viewer), and disables the buttons while deleting', () => {
    const { rerender } = render(<UploadedBuild {...build} />);
    expect(screen.queryByRole('button', { name: 'Delete this build' })).toBeNull();
    rerender(<UploadedBuild {...build} onDelete={() => {}} deleting />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Deleting…' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Re-upload' }).disabled).toBe(true);
  });
});
