import type { BugAction } from '@fullstop/contracts';
import { useCallback } from 'react';
import { describeError } from '@/lib/http-client.ts';
import { bugChanged, fetchBugAttachment, uploadBugAttachment, useCommentOnBugMutation, useTransitionBugMutation, type BugSide } from '../../store/bugs-api.ts';
import { useAppDispatch } from '../../store/hooks.ts';
import { failureMessage } from './bug-labels.ts';

/** What the bug view does for one bug on one side: its actions, comments, attachments read and sent. */
export function useBugHandlers(side: BugSide, id: string) {
  const dispatch = useAppDispatch();
  const [transition, transitionState] = useTransitionBugMutation();
  const [comment] = useCommentOnBugMutation();

  const onAction = useCallback(
    async (action: BugAction, reason?: string) => {
      try {
        await transition({ side, id, action, reason }).unwrap();
      } catch (error) {
        throw new Error(failureMessage(error));
      }
    },
    [transition, side, id],
  );

  const onComment = useCallback(
    async (body: string) => {
      try {
        await comment({ side, id, body }).unwrap();
      } catch (error) {
        throw new Error(failureMessage(error));
      }
    },
    [comment, side, id],
  );

  const loadAttachment = useCallback((attachmentId: string) => fetchBugAttachment(side, id, attachmentId), [side, id]);

  const onUpload = useCallback(
    async (file: File, onProgress: (fraction: number) => void) => {
      try {
        await uploadBugAttachment(side, id, file, onProgress);
      } catch (error) {
        throw new Error(describeError(error));
      }
      dispatch(bugChanged(id));
    },
    [dispatch, side, id],
  );

  return { onAction, onComment, loadAttachment, onUpload, busy: transitionState.isLoading };
}
