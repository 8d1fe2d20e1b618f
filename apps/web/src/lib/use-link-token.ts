import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The token a mailed link carries (`?token=`): read once into the page, then dropped from the address, so it stays
 * out of the history and of any Referer.
 */
export function useLinkToken(): string | null {
  const [params, setParams] = useSearchParams();
  const [token] = useState(() => params.get('token'));
  const hasToken = params.has('token');
  useEffect(() => {
    if (hasToken) setParams({}, { replace: true });
  }, [hasToken, setParams]);
  return token;
}
