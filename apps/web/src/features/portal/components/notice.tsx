import type { CSSProperties, ReactNode } from 'react';

/** What a form keeps in state after a call, to show until the next try. */
export interface NoticeText {
  tone: 'success' | 'error';
  text: string;
}

interface NoticeProps {
  tone: 'success' | 'error' | 'info';
  children: ReactNode;
  /** The panel's own class, beside `portal-alert`. */
  className?: string;
  style?: CSSProperties;
  /** `div` when the notice holds blocks (a list, a field), `p` otherwise. */
  as?: 'p' | 'div';
}

/** A result in a coloured box: an error is announced at once (alert), anything else politely (status). */
export function Notice({ tone, children, className, style, as: Box = 'p' }: NoticeProps) {
  return (
    <Box className={`portal-alert portal-alert--${tone}${className ? ` ${className}` : ''}`} role={tone === 'error' ? 'alert' : 'status'} style={style}>
      {children}
    </Box>
  );
}
