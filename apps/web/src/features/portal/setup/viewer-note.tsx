/** Why a viewer may not use the button described by `id` (see useViewerReason); nothing for anyone else. */
export function ViewerNote({ id, note }: { id: string; note: string | null }) {
  if (!note) return null;
  return (
    <p id={id} className="portal-muted portal-field__hint">
      {note}
    </p>
  );
}
