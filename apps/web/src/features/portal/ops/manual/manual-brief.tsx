import type { ManualWorkDetailResponse } from '@fullstop/contracts';
import { useState } from 'react';
import { copyText } from '@/lib/copy-text.ts';
import { Card } from '../../components/card.tsx';

/** One value of the test data with a button that copies it, for pasting into the site under test. */
function CopyableValue({ name, value }: { name: string; value: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  async function copy() {
    try {
      await copyText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <div className="manual-data__item">
      <dt>{name}</dt>
      <dd>
        <code className="manual-data__value">{value}</code>
        <button type="button" className="btn btn--ghost portal-btn-sm" onClick={() => void copy()} aria-label={`Copy ${name}`}>
          Copy
        </button>
        <span className="manual-data__copied" role="status">
          {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy: select the value instead.' : ''}
        </span>
      </dd>
    </div>
  );
}

/** What the case proves and what it needs before step 1: its goal, preconditions, test data and reference files. */
export function ManualBrief({ work }: { work: ManualWorkDetailResponse }) {
  const data = Object.entries(work.testData);
  return (
    <Card id="manual-brief-title" title="What to check" className="manual-brief">
      <p className="manual-goal">{work.goal}</p>
      {work.preconditions.length > 0 && (
        <>
          <h3 className="manual-subtitle">Before you start</h3>
          <ul className="manual-list">
            {work.preconditions.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {data.length > 0 && (
        <>
          <h3 className="manual-subtitle">Test data</h3>
          <dl className="manual-data">
            {data.map(([name, value]) => (
              <CopyableValue key={name} name={name} value={value} />
            ))}
          </dl>
        </>
      )}
      {work.references.length > 0 && (
        <>
          <h3 className="manual-subtitle">Reference files in the suite</h3>
          <ul className="manual-list">
            {work.references.map((file) => (
              <li key={file} className="portal-mono">
                {file}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
