import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from '../lib/routes.ts';

/** The screen the address asks for, following the back and forward buttons. */
export function useRoute(): { route: Route; hash: string } {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return { route: parseRoute(hash), hash };
}

export function navigate(href: string): void {
  location.hash = href.replace(/^#/, '');
}
