import { messageResponse, retentionApiPaths, uploadResponse, type ClientProfile, type UploadPlatform } from '@fullstop/contracts';
import { useId, useState } from 'react';
import { describeError, http } from '@/lib/http-client.ts';
import { useAppDispatch } from '../store/hooks.ts';
import { profileApi } from '../store/profile-api.ts';
import { useViewerReason } from '../store/viewer.ts';
import { SETUP_TEXT } from './setup-texts.ts';
import { UploadedBuild } from './uploaded-build.tsx';

// `accepts`: what the server takes (it checks the archive, not the name): an APK with its manifest and code at
// the root (an Android App Bundle is not one), or an IPA.
const PLATFORM = {
  android: {
    title: 'Android APK',
    accept: '.apk,application/vnd.android.package-archive',
    accepts: 'An .apk file (Android package)',
    path: 'androidAppPath',
    time: 'androidAppUploaded',
    size: 'androidAppSize',
    app: 'androidApp',
  },
  ios: {
    title: 'iOS App',
    accept: '.ipa,application/octet-stream',
    accepts: 'An .ipa file (iOS app archive)',
    path: 'iosAppPath',
    time: 'iosAppUploaded',
    size: 'iosAppSize',
    app: 'iosApp',
  },
} as const;

/** One mobile build: choose a file, watch it upload, then see the app it holds, with Re-upload. */
export function AppUpload({ platform, profile }: { platform: UploadPlatform; profile: ClientProfile }) {
  const config = PLATFORM[platform];
  const dispatch = useAppDispatch();
  const inputId = useId();
  const viewerNote = useViewerReason('upload builds');
  const [progress, setProgress] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [cleared, setCleared] = useState(false);
  const filePath = cleared ? null : profile[config.path];
  const uploadedAt = cleared ? null : profile[config.time];
  const size = cleared ? null : (profile[config.size] ?? null);
  const app = cleared ? null : (profile[config.app] ?? null);

  async function send(file: File) {
    const form = new FormData();
    form.append('file', file);
    setProgress(0);
    try {
      const result = uploadResponse.parse(
        await http.upload(`/upload/${platform}/${encodeURIComponent(profile.id)}`, form, { onProgress: setProgress }),
      );
      dispatch(
        profileApi.util.updateQueryData('getProfile', profile.id, (draft) => {
          draft[config.path] = result.filePath;
          draft[config.time] = result.uploadTime;
          draft[config.size] = result.sizeBytes ?? file.size;
          draft[config.app] = result.app ?? null;
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

  async function remove() {
    setDeleting(true);
    try {
      const result = messageResponse.parse(await http.request(retentionApiPaths.build(platform, profile.id), { method: 'DELETE' }));
      dispatch(
        profileApi.util.updateQueryData('getProfile', profile.id, (draft) => {
          draft[config.path] = null;
          draft[config.time] = null;
          draft[config.size] = null;
          draft[config.app] = null;
        }),
      );
      window.alert(result.message);
    } catch (error) {
      window.alert(SETUP_TEXT.deleteErrorPrefix + describeError(error));
    } finally {
      setDeleting(false);
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
        <UploadedBuild
          filePath={filePath}
          uploadedAt={uploadedAt}
          size={size}
          app={app}
          onReupload={() => setCleared(true)}
          onDelete={viewerNote === null ? () => void remove() : undefined}
          deleting={deleting}
        />
      ) : (
        <div className="portal-field">
          <label htmlFor={inputId}>Choose the {config.title} file</label>
          <input
            id={inputId}
            type="file"
            accept={config.accept}
            disabled={viewerNote !== null}
            aria-describedby={`${inputId}-accepts`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void send(file);
            }}
          />
          <p id={`${inputId}-accepts`} className="portal-muted portal-field__hint">
            {viewerNote ?? config.accepts}
          </p>
        </div>
      )}
    </div>
  );
}
