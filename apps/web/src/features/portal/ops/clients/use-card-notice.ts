import { useState } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import type { NoticeText } from '../../components/notice.tsx';

/**
 * A client card's last outcome: `act` runs a call and keeps its `done` words (or why it failed) to show under
 * the card; it answers whether the call worked, so the card can clear its form.
 */
export function useCardNotice() {
  const [notice, setNotice] = useState<NoticeText | null>(null);
  async function act<T>(work: () => Promise<T>, done: string | ((result: T) => string)): Promise<boolean> {
    try {
      const result = await work();
      setNotice({ tone: 'success', text: typeof done === 'string' ? done : done(result) });
      return true;
    } catch (error) {
      setNotice({ tone: 'error', text: failureMessage(error) });
      return false;
    }
  }
  return { notice, setNotice, act };
}
