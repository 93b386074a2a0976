import { useState } from 'preact/hooks';
import { asProblem, type ApiProblem } from '../api/problem.ts';
import { readSummary, rowsPath } from '../api/rows-api.ts';
import type { Sheet } from '../api/types.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { ProblemMessage } from '../components/problem-message.tsx';
import { rowQueryString, type Filter } from '../lib/filter-query.ts';
import {
  aggregateFunctions,
  barsOf,
  expressionOf,
  summaryQueryString,
  type AggregateChoice,
  type AggregateFunction,
} from '../lib/summary-query.ts';

interface Props {
  sheet: Sheet;
  /** The filter bar's filters: the summary is of the rows they choose. */
  filters: Filter[];
}

interface Summary {
  url: string;
  group: string[];
  keys: string[];
  groups: Record<string, unknown>[];
}

/**
 * "Summarise": the rows the filter bar chooses, grouped by some columns with aggregates of each
 * group, as a table and a bar chart of the first aggregate, with the request it made to copy.
 */
export function SummaryPanel({ sheet, filters }: Props) {
  const [group, setGroup] = useState<string[]>([]);
  const [aggregates, setAggregates] = useState<AggregateChoice[]>([{ fn: 'count', column: null }]);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (column: string, on: boolean) =>
    setGroup(
      on
        ? sheet.columns.filter((c) => c === column || group.includes(c))
        : group.filter((c) => c !== column),
    );
  const change = (i: number, next: AggregateChoice) =>
    setAggregates(aggregates.map((choice, j) => (j === i ? next : choice)));

  async function run(event: Event) {
    event.preventDefault();
    const query = summaryQueryString(rowQueryString({ filters, sort: [] }), group, aggregates);
    setBusy(true);
    try {
      const groups = await readSummary(sheet.id, query);
      const keys = [...group, ...new Set(aggregates.map(expressionOf))];
      setSummary({ url: `${location.origin}${rowsPath(sheet.id)}?${query}`, group, keys, groups });
      setProblem(null);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  }

  const first = aggregates[0] === undefined ? null : expressionOf(aggregates[0]);
  return (
    <section class="panel" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Summarise</h2>
      <form class="stack" onSubmit={run}>
        <fieldset>
          <legend>Group by</legend>
          {sheet.columns.map((column) => (
            <label key={column} class="inline">
              <input
                type="checkbox"
                // Named apart from the add-row form's fields, which are named by column too.
                aria-label={`Group by ${column}`}
                checked={group.includes(column)}
                onChange={(event) => toggle(column, event.currentTarget.checked)}
              />{' '}
              {column}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Aggregates</legend>
          {aggregates.map((choice, i) => (
            <div key={i} class="aggregate-choice">
              <select
                aria-label={`Function of aggregate ${i + 1}`}
                value={choice.fn}
                onChange={(event) => {
                  const fn = event.currentTarget.value as AggregateFunction;
                  const column =
                    choice.column ?? (fn === 'count' ? null : (sheet.columns[0] ?? null));
                  change(i, { fn, column });
                }}
              >
                {aggregateFunctions.map((fn) => (
                  <option key={fn} value={fn}>
                    {fn}
                  </option>
                ))}
              </select>
              <select
                aria-label={`Column of aggregate ${i + 1}`}
                value={choice.column ?? ''}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  change(i, { fn: choice.fn, column: value === '' ? null : value });
                }}
              >
                {choice.fn === 'count' && <option value="">rows</option>}
                {sheet.columns.map((column) => (
                  <option key={column} value={column}>
                    {column}
                  </option>
                ))}
              </select>
              {aggregates.length > 1 && (
                <button
                  type="button"
                  class="link"
                  onClick={() => setAggregates(aggregates.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            class="secondary"
            onClick={() => setAggregates([...aggregates, { fn: 'count', column: null }])}
          >
            Add aggregate
          </button>
        </fieldset>
        <button type="submit" disabled={busy}>
          Summarise
        </button>
      </form>
      <ProblemMessage problem={problem} />
      {summary !== null && <SummaryAnswer summary={summary} first={first} />}
    </section>
  );
}

function SummaryAnswer({ summary, first }: { summary: Summary; first: string | null }) {
  const chart = first === null || !summary.keys.includes(first) ? null : first;
  const bars = chart === null ? [] : barsOf(summary.groups, summary.group, chart);
  return (
    <div class="stack">
      <p class="request">
        <code>GET {summary.url}</code>
        <CopyButton text={summary.url} label="the summary request" />
      </p>
      <table class="summary">
        <caption>
          {summary.groups.length === 1 ? '1 group' : `${summary.groups.length} groups`}
        </caption>
        <thead>
          <tr>
            {summary.keys.map((key) => (
              <th key={key} scope="col">
                {key}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.groups.map((row, i) => (
            <tr key={i}>
              {summary.keys.map((key) => (
                <td key={key}>{row[key] === null ? '' : String(row[key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {chart !== null && (
        <figure class="bar-chart">
          <figcaption>{chart}</figcaption>
          <ul aria-label={`${chart} per group`}>
            {bars.map((bar, i) => (
              <li key={i}>
                <span class="bar-label">{bar.label}</span>
                <span class="bar" style={{ width: `${(bar.share * 100).toFixed(1)}%` }} />
                <span class="bar-value">{bar.value === null ? '—' : bar.value}</span>
              </li>
            ))}
          </ul>
        </figure>
      )}
    </div>
  );
}
