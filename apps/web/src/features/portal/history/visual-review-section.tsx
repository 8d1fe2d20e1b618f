import { AsyncLoading } from '../components/async-state.tsx';
import { useGetVisualReviewQuery } from '../store/visual-api.ts';
import { countsText, VisualReviewView } from '../components/visual-review/visual-review.tsx';

/**
 * The portal's read-only view of a run's visual shots, on the run's page: nothing when the run has no visual test.
 * Our QA team approves or rejects the changed shots; the client sees what was decided.
 */
export function VisualReviewSection({ runId }: { runId: string }) {
  const review = useGetVisualReviewQuery(runId, { refetchOnMountOrArgChange: true });
  if (review.isLoading) return <AsyncLoading>Loading the visual review…</AsyncLoading>;
  const data = review.data;
  if (!data || data.tests.length === 0) return null;
  return (
    <section className="history-section" aria-labelledby="visual-review-title">
      <h2 id="visual-review-title" className="history-subtitle">
        Visual review
      </h2>
      <p className="portal-muted">
        {countsText(data)}. Our QA team approves a changed shot (it becomes the baseline of later runs) or rejects it.
      </p>
      <VisualReviewView review={data} />
    </section>
  );
}
