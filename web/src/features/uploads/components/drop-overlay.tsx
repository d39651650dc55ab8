// What the Uploads screen shows while files are dragged over it: the whole window is the drop
// target, and it says where the files go. Decorative: the upload dialog's drop zone and its
// file button are the way for the keyboard and screen readers, so this is hidden from them,
// and it lets the drag through to what lies under it (the dialog's own drop zone).
import { CloudUpload } from 'lucide-react';

export function DropOverlay({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none fixed inset-0 z-[60] flex items-center justify-center bg-background/80 p-4 backdrop-blur-sm animate-in fade-in-0"
    >
      <div className="flex size-full max-h-[32rem] max-w-3xl flex-col items-center justify-center gap-4 rounded-2xl border-2 border-dashed border-brand bg-brand/10 p-6 text-center">
        <div className="flex size-14 items-center justify-center rounded-full bg-brand/15">
          <CloudUpload className="size-7 text-brand" />
        </div>
        <div className="grid max-w-sm gap-1.5">
          <p className="text-lg font-semibold">Drop files to upload</p>
          <p className="text-sm text-muted-foreground">
            They join the Upload Files list, where you choose their link options and send them.
          </p>
        </div>
      </div>
    </div>
  );
}
