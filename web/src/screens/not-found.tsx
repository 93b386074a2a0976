import { ScreenTitle } from '../components/screen-title.tsx';

export function NotFound({ path }: { path: string }) {
  return (
    <section>
      <ScreenTitle title="Nothing here" />
      <p>
        The console has no screen at <code>{path}</code>. <a href="#/">Go to the sheets</a>.
      </p>
    </section>
  );
}
