import { useEffect, useState } from 'react';

/**
 * A file fetched with the caller's credentials (a bug's attachment, a manual step's evidence), as an object URL for
 * an <img>: made once the file arrives, revoked when the component goes or `key` changes. `failed` when it could not
 * be fetched; no URL where the browser (or a test's DOM) cannot make one.
 */
export function useBlobUrl(load: () => Promise<Blob>, key: string): { url: string | null; failed: boolean } {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    let live = true;
    load()
      .then((blob) => {
        if (!live || typeof URL.createObjectURL !== 'function') return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the file; `load` is a new function each render
  }, [key]);
  return { url, failed };
}
