import { useState } from 'react';
import { http } from '@/lib/http-client.ts';
import { MenuIcon } from './menu-icon.tsx';

const LOGOUT_ICON = 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10';

/** The spec's logout (the HTTP client ends the session and loads /login); pressed once, it waits. */
export function LogoutButton({ className }: { className: string }) {
  const [leaving, setLeaving] = useState(false);
  return (
    <button
      type="button"
      className={className}
      disabled={leaving}
      onClick={() => {
        setLeaving(true);
        void http.endSession();
      }}
    >
      <MenuIcon d={LOGOUT_ICON} />
      Logout
    </button>
  );
}
