import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** How long the replaced key or secret may go on working: the server's default first. */
const overlaps = [
  { seconds: 86_400, label: 'a day' },
  { seconds: 3600, label: 'an hour' },
  { seconds: 7 * 86_400, label: 'a week' },
  { seconds: 0, label: 'no time: it stops now' },
] as const;

interface RotateConfirmProps {
  /** What is replaced, as the sentence names it: "The old key", "The old secret". */
  what: string;
  busy: boolean;
  onRotate: (overlapSeconds: number) => void;
  onCancel: () => void;
}

/** The question a rotation asks first: for how long the replaced credential still works. */
export function RotateConfirm({ what, busy, onRotate, onCancel }: RotateConfirmProps) {
  const [overlap, setOverlap] = useState<number>(overlaps[0].seconds);
  const id = useId();
  const first = useRef<HTMLSelectElement>(null);
  useLayoutEffect(() => first.current?.focus(), []);
  return (
    <>
      <span class="confirm">
        <label for={id}>{what} goes on working for</label>{' '}
        <select
          id={id}
          ref={first}
          value={overlap}
          onChange={(event) => setOverlap(Number(event.currentTarget.value))}
        >
          {overlaps.map((choice) => (
            <option key={choice.seconds} value={choice.seconds}>
              {choice.label}
            </option>
          ))}
        </select>
      </span>
      <button type="button" class="small" disabled={busy} onClick={() => onRotate(overlap)}>
        Yes, rotate
      </button>
      <button type="button" class="secondary small" onClick={onCancel}>
        Cancel
      </button>
    </>
  );
}
