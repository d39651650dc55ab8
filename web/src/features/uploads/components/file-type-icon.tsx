import { fileTypeOf } from '@upshot/contract/constants';
import { File, FileArchive, FileAudio, FileImage, FileText, FileVideo } from 'lucide-react';
import type { ComponentProps } from 'react';

/** A generic icon for a mime type's group, shown where there is no thumbnail. */
export function FileTypeIcon({ mimeType, ...props }: { mimeType: string } & ComponentProps<'svg'>) {
  if (mimeType.startsWith('audio/')) return <FileAudio aria-hidden="true" {...props} />;
  switch (fileTypeOf(mimeType)) {
    case 'images':
      return <FileImage aria-hidden="true" {...props} />;
    case 'videos':
      return <FileVideo aria-hidden="true" {...props} />;
    case 'documents':
      return <FileText aria-hidden="true" {...props} />;
    case 'archives':
      return <FileArchive aria-hidden="true" {...props} />;
    default:
      return <File aria-hidden="true" {...props} />;
  }
}
