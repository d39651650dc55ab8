import type { Upload } from '@upshot/contract';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { FileTypeIcon } from './file-type-icon.tsx';

/** The card's picture: the server's thumbnail when it made one, else an icon by type. */
export function UploadThumbnail({ upload }: { upload: Upload }) {
  // Remember which link failed, so a fresh (re-signed) link gets its own chance.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const { thumbnailUrl } = upload;
  const isVideo = upload.mimeType.startsWith('video/');

  if (thumbnailUrl === null || failedUrl === thumbnailUrl) {
    return (
      <div className="flex size-full items-center justify-center bg-gradient-to-br from-muted/80 to-muted/30">
        <FileTypeIcon mimeType={upload.mimeType} className="size-12 text-muted-foreground/80" />
      </div>
    );
  }
  return (
    <>
      <img
        src={thumbnailUrl}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setFailedUrl(thumbnailUrl)}
        className="size-full object-cover transition-transform duration-300 group-hover/thumb:scale-[1.03]"
      />
      {isVideo && (
        <span className="absolute inset-0 flex items-center justify-center">
          <span className="flex size-10 items-center justify-center rounded-full bg-black/55 text-white backdrop-blur-sm">
            <Play aria-hidden="true" className="size-4 translate-x-px fill-current" />
          </span>
        </span>
      )}
    </>
  );
}
