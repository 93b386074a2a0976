import { downloadRows, type DownloadFormat } from '../api/rows-api.ts';
import type { Sheet } from '../api/types.ts';
import { ProblemMessage } from '../components/problem-message.tsx';
import { useAction } from '../hooks/use-action.ts';

interface Props {
  sheet: Sheet;
  /** The grid's filters and sort, without its paging: every row they choose is downloaded. */
  query: string;
}

/**
 * Downloads of the rows the grid's filters choose, as CSV or XLSX. The API needs the
 * administrator token, which a plain link cannot send, so the file is fetched and then saved.
 */
export function Downloads({ sheet, query }: Props) {
  const action = useAction();
  const download = (format: DownloadFormat) =>
    void action.run(async () => {
      const { blob, fileName } = await downloadRows(sheet.id, query, format);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = fileName ?? `${sheet.name}.${format}`;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its own copy by now.
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    });
  return (
    <div class="downloads">
      <span>Download {query === '' ? 'all rows' : 'the rows these filters choose'}:</span>
      {(['csv', 'xlsx'] as const).map((format) => (
        <button
          key={format}
          type="button"
          class="secondary small"
          disabled={action.busy}
          onClick={() => download(format)}
        >
          Download {format.toUpperCase()}
        </button>
      ))}
      <ProblemMessage problem={action.problem} />
    </div>
  );
}
