import type { Children } from '@kitajs/html';
import { asset } from '../../platform/assets/asset.registry.js';
import { Notice } from './flash.js';

/** The script that makes "Copy" buttons work (`web/dashboard/copy.ts`); once per page that has any. */
export function CopyScript(): JSX.Element {
  return <script src={asset('copy.js').url} defer></script>;
}

/** A "Copy" button for `value`; `what` completes its accessible name ("Copy public key"). */
export function CopyButton({ value, what }: { value: string; what: string }): JSX.Element {
  return (
    <button type="button" class="secondary copy" data-copy={value} hidden>
      <span>Copy</span>
      <span class="visually-hidden" safe>
        {` ${what}`}
      </span>
    </button>
  );
}

/** A secret shown on this page only: in a box that says so, selectable and copyable. */
export function SecretNotice({
  title,
  label,
  secret,
  children,
}: {
  title: string;
  label: string;
  secret: string;
  children?: Children;
}): JSX.Element {
  return (
    <Notice title={title}>
      {children}
      <p>
        <span safe>{`${label}: `}</span>
        <code class="mono secret" data-testid="secret" safe>
          {secret}
        </code>{' '}
        <CopyButton value={secret} what={label.toLowerCase()} />
      </p>
    </Notice>
  );
}

/** `2026-11-25 20:49 UTC`, in a `<time>` carrying the exact instant. */
export function When({ at }: { at: Date | string | null }): JSX.Element {
  if (at === null) {
    return <span class="muted">Never</span>;
  }
  const iso = typeof at === 'string' ? at : at.toISOString();
  return (
    <time datetime={iso} safe>
      {`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`}
    </time>
  );
}
