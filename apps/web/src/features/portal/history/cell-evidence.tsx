import { caseInCell } from '@fullstop/contracts';
import { useGetEvidenceQuery } from './history-api.ts';
import { openEvidence, type Ids } from './test-evidence.tsx';

/**
 * The screenshot and trace of one case in one cell, as links: the runner names a case in a cell
 * `<name> [<cell>]`, and its evidence carries that name. The list is the one TestEvidence reads (one request).
 */
export function CellEvidence({ ids, caseName, cell }: { ids: Ids; caseName: string; cell: string }) {
  const { data } = useGetEvidenceQuery(ids);
  const items = (data?.evidence ?? []).filter((e) => e.caseName === caseInCell(caseName, cell));
  if (items.length === 0) return null;
  return (
    <span className="cell-evidence">
      {items.map((item) => (
        <button
          key={item.evidenceId}
          type="button"
          className="portal-link-button"
          aria-label={`Open the ${item.kind} of ${caseName} on ${cell}`}
          onClick={() => openEvidence(ids, item)}
        >
          {item.kind === 'trace' ? 'Trace' : 'Screenshot'}
        </button>
      ))}
    </span>
  );
}
