import { formatDate } from '@/lib/format-date.ts';
import { useGetMySchedulesQuery } from '../store/schedules-api.ts';

/** "Next scheduled run" on the overview, under the last run; nothing when no schedule is active. */
export function NextScheduleNote() {
  const { data } = useGetMySchedulesQuery();
  if (!data?.nextRunAt) return null;
  return (
    <p className="portal-muted home-next-schedule" data-testid="next-scheduled-run">
      Next scheduled run: {formatDate(data.nextRunAt)}
    </p>
  );
}
