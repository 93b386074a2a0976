import type { ComponentChildren, Ref } from 'preact';

interface RemoveConfirmProps {
  /** What is asked, naming what goes: "Revoke “ci”? Apps using it stop working." */
  question: ComponentChildren;
  /** The button that does it: "Yes, revoke". */
  yes: string;
  busy: boolean;
  onYes: () => void;
  onKeep: () => void;
  /** The button that does it, for a row that moves the focus onto it when it opens. */
  yesRef?: Ref<HTMLButtonElement> | undefined;
}

/** The question a removal asks first (a key revoked, a webhook removed, a row deleted). */
export function RemoveConfirm({ question, yes, busy, onYes, onKeep, yesRef }: RemoveConfirmProps) {
  return (
    <>
      <span class="confirm">{question}</span>
      <button type="button" class="danger small" ref={yesRef} disabled={busy} onClick={onYes}>
        {yes}
      </button>
      <button type="button" class="secondary small" onClick={onKeep}>
        Keep
      </button>
    </>
  );
}
