import type { TeamRole } from '@fullstop/contracts';
import type { NewPassword } from '../components/text-field.tsx';

export const ROLE_LABELS: Record<TeamRole, string> = { owner: 'Owner', member: 'Member', viewer: 'Viewer' };

export const ROLE_HINTS: Record<TeamRole, string> = {
  owner: 'Manages the team, and does everything a member does.',
  member: 'Runs tests, uploads builds, manages the API key and sends requests.',
  viewer: 'Reads results, reports and bugs, and sends requests; cannot run tests, upload or change the API key.',
};

/** The first letter up and a full stop, for a schema's message shown under a field. */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The errors of a form that sets a new password: each field's first schema issue as a sentence, and `confirm`
 * (with `differ`) when the repetition is not the same password.
 */
export function newPasswordErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  passwords: NewPassword,
  differ: string,
): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of issues) errors[String(issue.path[0])] ??= sentence(issue.message);
  if (passwords.password !== passwords.confirm) errors.confirm = differ;
  return errors;
}

/** The field a server's 400 answer names (`{ field }`), read from its response text; null when none. */
export function failedField(responseText: string): string | null {
  try {
    const parsed: unknown = JSON.parse(responseText);
    const field = parsed && typeof parsed === 'object' ? (parsed as { field?: unknown }).field : undefined;
    return typeof field === 'string' ? field : null;
  } catch {
    return null;
  }
}
