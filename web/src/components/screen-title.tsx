import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A screen's heading. It takes focus when the screen opens, so keyboard and screen reader users
 * start at the top of what changed, and it names the browser tab.
 */
export function ScreenTitle({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  useEffect(() => {
    document.title = `${title} · Sheetport`;
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children ?? title}
    </h1>
  );
}
