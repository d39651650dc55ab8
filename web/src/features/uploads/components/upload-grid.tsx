import type { Upload } from '@upshot/contract';
import { useNow } from '../../../lib/use-now.ts';
import { UploadCard, type UploadCardProps } from './upload-card.tsx';

type UploadGridProps = Omit<
  UploadCardProps,
  'upload' | 'selected' | 'selecting' | 'onSelectedChange' | 'now'
> & {
  uploads: Upload[];
  selected: ReadonlySet<string>;
  onToggle: (id: string, selected: boolean) => void;
};

/** The cards: one column on small screens, two medium, three large, four extra large. */
export function UploadGrid({ uploads, selected, onToggle, ...actions }: UploadGridProps) {
  const selecting = uploads.some((upload) => selected.has(upload.id));
  // One clock for every card's "Expires in ...", read again each minute.
  const now = useNow();
  return (
    <ul
      aria-label="Uploads"
      className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
    >
      {uploads.map((upload) => (
        <li key={upload.id} className="flex">
          <UploadCard
            upload={upload}
            selected={selected.has(upload.id)}
            selecting={selecting}
            now={now}
            onSelectedChange={(checked) => onToggle(upload.id, checked)}
            {...actions}
          />
        </li>
      ))}
    </ul>
  );
}
