import type { ComponentProps } from 'react';

type Props = ComponentProps<'button'> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  size?: 'normal' | 'small';
  /** Shows progress and blocks repeated clicks while a request runs. */
  busy?: boolean;
  busyLabel?: string;
};

export function Button({
  variant = 'secondary',
  size = 'normal',
  busy = false,
  busyLabel,
  disabled,
  className,
  children,
  type = 'button',
  ...rest
}: Props) {
  const classes = ['button', `button--${variant}`, size === 'small' ? 'button--small' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy ? <span className="spinner spinner--inline" aria-hidden="true" /> : null}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
