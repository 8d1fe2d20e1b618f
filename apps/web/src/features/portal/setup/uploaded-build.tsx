import type { AppInfo } from '@fullstop/contracts';
import { formatBytes } from '@/lib/format-bytes.ts';
import { formatDate } from '@/lib/format-date.ts';
import { BusyButton } from '../components/busy-button.tsx';
import './uploaded-build.css';

/** The uploaded file's own name: the profile keeps it as "android/<name>". */
const fileNameOf = (filePath: string) => filePath.slice(filePath.lastIndexOf('/') + 1);

interface UploadedBuildProps {
  filePath: string;
  uploadedAt: string | null;
  size: number | null;
  /** What the server read from the build; null (or all fields null) when the build does not say. */
  app: AppInfo | null;
  onReupload(): void;
  /** Deletes the build after the user confirms; absent when the user may not (a viewer). */
  onDelete?: (() => void) | undefined;
  deleting?: boolean;
}

/**
 * The current build: the app it holds ("Acme Shop 2.4.1 (241) · com.acme.shop") as its main line, with the file's
 * name, size and upload time beneath. A build the server could not read is named by its file.
 */
export function UploadedBuild({ filePath, uploadedAt, size, app, onReupload, onDelete, deleting = false }: UploadedBuildProps) {
  const fileName = fileNameOf(filePath);
  const known = app && (app.name || app.version || app.packageId);
  return (
    <div className="portal-upload__done">
      <p className="portal-upload__app">
        {known ? (
          <>
            {app.name && <strong>{app.name}</strong>}
            {app.name && app.version && ' '}
            {app.version && <span>{app.version}</span>}
            {app.packageId && (
              <>
                {(app.name || app.version) && <span aria-hidden="true"> · </span>}
                <span className="portal-mono portal-upload__id">{app.packageId}</span>
              </>
            )}
          </>
        ) : (
          <strong className="portal-mono">{fileName}</strong>
        )}
      </p>
      <dl className="portal-upload__details">
        {known && (
          <div>
            <dt>File</dt>
            <dd className="portal-mono">{fileName}</dd>
          </div>
        )}
        {size !== null && (
          <div>
            <dt>Size</dt>
            <dd>{formatBytes(size)}</dd>
          </div>
        )}
        <div>
          <dt>Uploaded</dt>
          <dd>{formatDate(uploadedAt)}</dd>
        </div>
      </dl>
      <div className="portal-upload__actions">
        <button type="button" className="btn btn--ghost" onClick={onReupload} disabled={deleting}>
          Re-upload
        </button>
        {onDelete && (
          <BusyButton
            type="button"
            className="btn btn--ghost"
            busy={deleting}
            busyText="Deleting…"
            onClick={() => {
              if (window.confirm(`Delete ${fileName}? The file is removed from our servers, and tests that need this app cannot run until you upload a build again.`)) onDelete();
            }}
          >
            Delete this build
          </BusyButton>
        )}
      </div>
    </div>
  );
}
