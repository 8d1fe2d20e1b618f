/** Each field's first problem, as a sentence: what a form shows under its fields. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

export function fieldErrors<F extends string>(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '') as F;
    const message = issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
    errors[field] ??= message.endsWith('.') ? message : `${message}.`;
  }
  return errors;
}
