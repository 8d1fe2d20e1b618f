import { uploadResponse, type ClientProfile, type UploadPlatform } from '@fullstop/contracts';
import { useId, useState } from 'react';
import { describeError, http } from '@/lib/http-client.ts';
import { useAppDispatch } from '../store/hooks.ts';
import { portalApi } from '../store/portal-api.ts';
import { formatUploadTime } from './format-upload-time.ts';
import { SETUP_TEXT } from './setup-texts.ts';

const PLATFORM = {
  android: { title: 'Android APK', accept: '.apk,application/vnd.android.package-archive', path: 'androidAppPath', time: 'androidAppUploaded' },
  ios: { title: 'iOS App', accept: '.ipa,application/octet-stream', path: 'iosAppPath', time: 'iosAppUploaded' },
} as const;

/** One mobile build: choose a file, watch it upload, then see where it went and when, with Re-upload. */
export function AppUpload({ platform, profile }: { platform: UploadPlatform; profile: ClientProfile }) {
  const config = PLATFORM[platform];
  const dispatch = useAppDispatch();
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [cleared, setCleared] = useState(false);
  const filePath = cleared ? null : profile[config.path];
  const uploadedAt = cleared ? null : profile[config.time];

  async function send(file: File) {
    const form = new FormData();
    form.append('file', file);
    setProgress(0);
    try {
      const result = uploadResponse.parse(
        await http.upload(`/upload/${platform}/${encodeURIComponent(profile.id)}`, form, { onProgress: setProgress }),
      );
      dispatch(
        portalApi.util.updateQueryData('getProfile', profile.id, (draft) => {
          draft[config.path] = result.filePath;
          draft[config.time] = result.uploadTime;
        }),
      );
      setCleared(false);
      window.alert(result.message);
    } catch (error) {
      window.alert(SETUP_TEXT.uploadErrorPrefix + describeError(error));
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="portal-upload">
      <h3 className="portal-upload__title">{config.title}</h3>
      {progress !== null ? (
        <div className="portal-progress">
          <progress max={1} value={progress} aria-label={`Uploading ${config.title}`} />
          <span aria-live="polite">{Math.round(progress * 100)}%</span>
        </div>
      ) : filePath ? (
        <dl className="portal-upload__done">
          <div>
            <dt>File path</dt>
            <dd className="portal-mono">{filePath}</dd>
          </div>
          <div>
            <dt>Uploaded</dt>
            <dd>{formatUploadTime(uploadedAt)}</dd>
          </div>
          <button type="button" className="btn btn--ghost" onClick={() => setCleared(true)}>
            Re-upload
          </button>
        </dl>
      ) : (
        <div className="portal-field">
          <label htmlFor={inputId}>Choose the {config.title} file</label>
          <input
            id={inputId}
            type="file"
            accept={config.accept}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void send(file);
            }}
          />
        </div>
      )}
    </div>
  );
}
