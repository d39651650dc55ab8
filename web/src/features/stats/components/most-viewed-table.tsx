import type { UserStats } from '@upshot/contract';
import { Lock } from 'lucide-react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatCount } from '../../../lib/format.ts';
import { opensSigned, useOpenUpload } from '../../uploads/index.ts';
import { StatsSection } from './stats-section.tsx';

type MostViewed = UserStats['mostViewed'][number];

type OpenUpload = ReturnType<typeof useOpenUpload>;

const linkClass =
  'block max-w-full truncate text-left font-medium underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none';

/**
 * A file anyone may open is a real link (middle-click works). A private one, or one with a view
 * limit or a password, first fetches a signed link: the owner's look spends no view and meets
 * no password form.
 */
function FileLink({ upload, onOpen }: { upload: MostViewed; onOpen: OpenUpload }) {
  if (!opensSigned(upload)) {
    return (
      <a
        href={upload.url}
        target="_blank"
        rel="noopener noreferrer"
        title={upload.filename}
        className={linkClass}
      >
        {upload.filename}
      </a>
    );
  }
  return (
    <span className="flex min-w-0 items-center gap-1.5">
      {!upload.isPublic && (
        <Lock aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
      )}
      <button
        type="button"
        title={upload.isPublic ? upload.filename : `${upload.filename} (private)`}
        className={linkClass}
        onClick={() => void onOpen(upload)}
      >
        {upload.filename}
      </button>
    </span>
  );
}

/** The user's most viewed uploads, most views first, as the server ranks them. */
export function MostViewedTable({ uploads }: { uploads: UserStats['mostViewed'] }) {
  const openUpload = useOpenUpload();
  return (
    <StatsSection title="Most Viewed Uploads">
      <Table className="table-fixed">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>File</TableHead>
            <TableHead className="w-20 text-right">Views</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {uploads.map((upload) => (
            <TableRow key={upload.id}>
              <TableCell>
                <FileLink upload={upload} onOpen={openUpload} />
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(upload.views)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </StatsSection>
  );
}
