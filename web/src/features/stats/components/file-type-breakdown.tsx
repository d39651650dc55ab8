import type { FileType, TypeCount } from '@upshot/contract';
import { Archive, File, FileText, Film, Image, type LucideIcon } from 'lucide-react';
import { Progress } from '../../../components/ui/progress.tsx';
import { formatCount } from '../../../lib/format.ts';
import { FILE_TYPE_LABELS } from '../../uploads/index.ts';
import { breakdownRows } from '../breakdown.ts';
import { StatsSection } from './stats-section.tsx';

const ICONS: Record<FileType, LucideIcon> = {
  images: Image,
  videos: Film,
  documents: FileText,
  archives: Archive,
};

const isFileType = (type: string): type is FileType => type in ICONS;

// The upload filter's names for its groups, and 'Other' for what falls in none of them.
const labelOf = (type: string) =>
  isFileType(type) ? FILE_TYPE_LABELS[type] : type === 'other' ? 'Other' : type;

/** Each type's count and its share of all uploads, as a bar and a whole-number percentage. */
export function FileTypeBreakdown({ breakdown }: { breakdown: readonly TypeCount[] }) {
  return (
    <StatsSection title="File Type Breakdown">
      <ul className="flex flex-col gap-4">
        {breakdownRows(breakdown).map(({ type, count, percent }) => {
          const label = labelOf(type);
          const Icon = isFileType(type) ? ICONS[type] : File;
          return (
            <li key={type} className="flex flex-col gap-2">
              <div className="flex items-center justify-between gap-3 text-sm">
                <span className="flex min-w-0 items-center gap-2 font-medium">
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="truncate">{label}</span>
                </span>
                <span className="flex shrink-0 items-baseline gap-3 tabular-nums">
                  <span className="text-muted-foreground">{formatCount(count)}</span>
                  <span className="w-10 text-right font-medium">{percent}%</span>
                </span>
              </div>
              <Progress value={percent} aria-label={label} indicatorClassName="bg-brand" />
            </li>
          );
        })}
      </ul>
    </StatsSection>
  );
}
