import { listSheets } from '../api/admin-api.ts';
import { useResource } from '../hooks/use-resource.ts';

/**
 * Warns, as a name is typed, that a sheet of that name exists already: names need not be unique
 * (sheets are found by id), but two alike are easy to mix up in the list.
 */
export function NameInUse({ name, id }: { name: string; id: string }) {
  const sheets = useResource(() => listSheets(), 'sheets');
  const wanted = name.trim();
  const taken = wanted === '' ? [] : (sheets.data ?? []).filter((sheet) => sheet.name === wanted);
  if (taken.length === 0) return null;
  return (
    <p class="notice" id={id} role="status">
      A sheet named “{wanted}” exists already ({taken.map((sheet) => sheet.id).join(', ')}); the new
      one will have the same name, told apart by its id.
    </p>
  );
}
