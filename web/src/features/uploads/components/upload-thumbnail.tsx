import type { Upload } from '@upshot/contract';
import { Play } from 'lucide-react';
import { useEffect, useState } from 'react';
import { FileTypeIcon } from './file-type-icon.tsx';

/**
 * Thumbnails are made in the background, so a new upload's may not exist yet when its card is
 * first drawn (its link answers 404 until then): a fresh upload's picture is asked for again
 * after these waits before the card settles for the icon.
 */
export const THUMBNAIL_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000] as const;
/** Only an upload this young may still be having its thumbnail made. */
const FRESH_MS = 2 * 60_000;

/** The card's picture: the server's thumbnail when it made one, else an icon by type. */
export function UploadThumbnail({ upload }: { upload: Upload }) {
  const { thumbnailUrl } = upload;
  if (thumbnailUrl === null) return <TypeIcon mimeType={upload.mimeType} />;
  // A fresh (re-signed) link gets its own chances.
  return <ThumbnailImage key={thumbnailUrl} url={thumbnailUrl} upload={upload} />;
}

function TypeIcon({ mimeType }: { mimeType: string }) {
  return (
    <div className="flex size-full items-center justify-center bg-gradient-to-br from-muted/80 to-muted/30">
      <FileTypeIcon mimeType={mimeType} className="size-12 text-muted-foreground/80" />
    </div>
  );
}

function ThumbnailImage({ url, upload }: { url: string; upload: Upload }) {
  const [failures, setFailures] = useState(0);
  const [waiting, setWaiting] = useState(false);
  const isVideo = upload.mimeType.startsWith('video/');

  useEffect(() => {
    if (!waiting) return;
    const wait = THUMBNAIL_RETRY_DELAYS_MS[failures - 1];
    if (wait === undefined || Date.now() - Date.parse(upload.createdAt) > FRESH_MS) return;
    const timer = setTimeout(() => setWaiting(false), wait);
    return () => clearTimeout(timer);
  }, [waiting, failures, upload.createdAt]);

  if (waiting) return <TypeIcon mimeType={upload.mimeType} />;
  return (
    <>
      <img
        key={failures}
        src={url}
        alt=""
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => {
          setFailures((n) => n + 1);
          setWaiting(true);
        }}
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
