import type { TeamRole } from '@fullstop/contracts';
import { useAppSelector } from './hooks.ts';

/**
 * Why the signed-in user may not do `action` ('run tests', 'upload builds', 'generate API keys'): viewers only
 * read. Null when they may. The API refuses it anyway; the portal says so before the click.
 */
export function viewerReason(teamRole: TeamRole | null | undefined, action: string): string | null {
  return teamRole === 'viewer' ? `Viewers cannot ${action}: ask an owner of your team for the member role.` : null;
}

export function useViewerReason(action: string): string | null {
  return viewerReason(useAppSelector((state) => state.session.userData?.teamRole), action);
}
