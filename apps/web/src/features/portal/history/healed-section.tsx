import { healedWords } from '@fullstop/contracts';
import { useGetRunHealsQuery } from './heals-api.ts';

/**
 * The run's healed cases, on the run's page (docs/healing.md): nothing when no locator was healed. A heal fails its
 * case by default: our QA team reviews the change to the spec and updates it.
 */
export function HealedSection({ runId }: { runId: string }) {
  const heals = useGetRunHealsQuery(runId, { refetchOnMountOrArgChange: true });
  const tests = heals.data?.tests ?? [];
  if (tests.length === 0) return null;
  return (
    <section className="history-section" aria-labelledby="healed-title">
      <h2 id="healed-title" className="history-subtitle">
        Healed locators
      </h2>
      <p className="portal-muted">
        Your site changed an element a test looks for; the test found it again. Our QA team reviews the change to the test and updates it.
      </p>
      <ul className="history-tests">
        {tests.flatMap((t) =>
          t.cases.flatMap((c) =>
            c.healed.map((h, i) => (
              <li key={`${t.runTestId}-${c.name}-${c.cell ?? ''}-${i}`} className="history-test">
                <p className="history-test__name">
                  {t.testName} · {c.name}
                  {c.cell ? ` (${c.cell})` : ''}
                </p>
                <p>{healedWords(h)}</p>
                <p className="portal-muted">
                  The test looks for <code>{h.oldLocator}</code>; it was found as <code>{h.newLocator}</code>.
                </p>
              </li>
            )),
          ),
        )}
      </ul>
    </section>
  );
}
