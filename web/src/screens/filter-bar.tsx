import { useState } from 'preact/hooks';
import {
  filterOperators,
  rowQueryString,
  type Filter,
  type FilterOperator,
  type SortKey,
} from '../lib/filter-query.ts';

interface Props {
  columns: string[];
  filters: Filter[];
  sort: SortKey[];
  onApply: (filters: Filter[]) => void;
}

const takesValue = (op: FilterOperator) =>
  filterOperators.find((operator) => operator.op === op)?.takesValue ?? true;

/**
 * Filters in the row API's grammar, built one line at a time; the bar shows the query string
 * as it is typed, and applies it to the grid on Enter or "Apply".
 */
export function FilterBar({ columns, filters, sort, onApply }: Props) {
  const [draft, setDraft] = useState<Filter[]>(filters);
  const change = (index: number, patch: Partial<Filter>) =>
    setDraft(draft.map((filter, i) => (i === index ? { ...filter, ...patch } : filter)));
  const query = rowQueryString({ filters: draft, sort });
  return (
    <form
      class="filter-bar"
      aria-label="Filters"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
    >
      {draft.map((filter, index) => (
        <fieldset class="filter" key={index}>
          <legend class="visually-hidden">Filter {index + 1}</legend>
          <label>
            <span class="visually-hidden">Column of filter {index + 1}</span>
            <select
              value={filter.column}
              onChange={(event) => change(index, { column: event.currentTarget.value })}
            >
              {columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span class="visually-hidden">Comparison of filter {index + 1}</span>
            <select
              value={filter.op}
              onChange={(event) =>
                change(index, { op: event.currentTarget.value as FilterOperator })
              }
            >
              {filterOperators.map((operator) => (
                <option key={operator.op} value={operator.op}>
                  {operator.label}
                </option>
              ))}
            </select>
          </label>
          {takesValue(filter.op) && (
            <label>
              <span class="visually-hidden">Value of filter {index + 1}</span>
              <input
                value={filter.value}
                placeholder="value"
                onInput={(event) => change(index, { value: event.currentTarget.value })}
              />
            </label>
          )}
          <button
            type="button"
            class="secondary small"
            aria-label={`Remove filter ${index + 1}`}
            onClick={() => setDraft(draft.filter((_, i) => i !== index))}
          >
            ✕
          </button>
        </fieldset>
      ))}
      <div class="filter-actions">
        <button
          type="button"
          class="secondary"
          disabled={columns.length === 0}
          onClick={() => setDraft([...draft, { column: columns[0] ?? '', op: 'is', value: '' }])}
        >
          Add filter
        </button>
        <button type="submit">Apply</button>
        {(filters.length > 0 || draft.length > 0) && (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft([]);
              onApply([]);
            }}
          >
            Clear
          </button>
        )}
      </div>
      <p class="query-string">
        {/* Not a live region: it changes with every key typed. */}
        Query string <code>{query === '' ? '(none: every row)' : `?${query}`}</code>
      </p>
    </form>
  );
}
