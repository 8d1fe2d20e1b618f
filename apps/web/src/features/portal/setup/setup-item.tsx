import { useId, useState, type ReactNode } from 'react';
import { failureMessage } from '@/lib/failure-message.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { Notice } from '../components/notice.tsx';
import { SecretOnce } from './secret-once.tsx';
import './setup.css';

/** What an item of a Setup panel keeps: whether its form is open, a new signing secret to show once, its confirm dialog. */
export function useSetupItem() {
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const confirm = useConfirm();
  return { editing, setEditing, secret, setSecret, confirm };
}

interface SetupItemProps {
  item: ReturnType<typeof useSetupItem>;
  /** The item's CSS block: the section's class, and `${block}__head` for its title row. */
  block: string;
  title: string;
  /** The badge beside the title, green when `on`. */
  badge: { on: boolean; text: string };
  /** What the item is, under its title. */
  about: ReactNode;
  /** Names the field that shows a new signing secret. */
  secretLabel: string;
  /** Its form or its buttons, and their results. */
  children: ReactNode;
}

/** One item of a Setup panel (an alert channel, a bug tracker): a section named by its title, with its on/off badge. */
export function SetupItem({ item, block, title, badge, about, secretLabel, children }: SetupItemProps) {
  const titleId = useId();
  return (
    <section className={`portal-panel ${block}`} aria-labelledby={titleId}>
      <div className={`${block}__head`}>
        <h3 id={titleId} className="portal-panel__title">
          {title}
        </h3>
        <span className={badge.on ? 'setup-badge setup-badge--on' : 'setup-badge'}>{badge.text}</span>
      </div>
      {about}
      {item.secret ? <SecretOnce key={item.secret} secret={item.secret} label={secretLabel} /> : null}
      {children}
      {item.confirm.dialog}
    </section>
  );
}

interface SetupFormEndProps {
  /** Why the last save failed, shown above the buttons. */
  error: unknown;
  onCancel: () => void;
  busy: boolean;
  busyText: string;
  /** The submit button's text. */
  children: ReactNode;
}

/** The end of a Setup form: why the save failed, if it did, then Cancel and the submit button. */
export function SetupFormEnd({ error, onCancel, busy, busyText, children }: SetupFormEndProps) {
  return (
    <>
      {error ? <Notice tone="error">{failureMessage(error)}</Notice> : null}
      <div className="portal-actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Cancel
        </button>
        <BusyButton busy={busy} busyText={busyText}>
          {children}
        </BusyButton>
      </div>
    </>
  );
}
