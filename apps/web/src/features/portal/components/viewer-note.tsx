/**
 * Why a viewer may only read here (see useViewerReason); nothing for anyone else. With `id`, it describes the
 * one button it sits under (aria-describedby); without, it is said once for a whole panel or form.
 */
export function ViewerNote({ id, note }: { id?: string; note: string | null }) {
  if (!note) return null;
  return (
    <p id={id} className={id ? 'portal-muted portal-field__hint' : 'portal-muted'}>
      {note}
    </p>
  );
}
