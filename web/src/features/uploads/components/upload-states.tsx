import { CloudUpload, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';

function StateFrame({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-72 flex-col items-center justify-center gap-3 rounded-xl border border-dashed bg-card/30 p-10 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        {icon}
      </div>
      {children}
    </div>
  );
}

export function UploadsLoading() {
  return (
    <div
      role="status"
      className="flex min-h-72 items-center justify-center gap-2 text-sm text-muted-foreground"
    >
      <span
        aria-hidden="true"
        className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
      />
      Loading...
    </div>
  );
}

export function UploadsEmpty({ onUpload }: { onUpload: () => void }) {
  return (
    <StateFrame icon={<CloudUpload aria-hidden="true" className="size-6" />}>
      <div className="flex flex-col gap-1">
        <h2 className="font-semibold">No uploads yet</h2>
        <p className="text-sm text-muted-foreground">Upload your first file to get started</p>
      </div>
      <Button onClick={onUpload} className="mt-2">
        <CloudUpload aria-hidden="true" />
        Upload Files
      </Button>
    </StateFrame>
  );
}

export function UploadsFilteredEmpty() {
  return (
    <StateFrame icon={<SearchX aria-hidden="true" className="size-6" />}>
      <div className="flex flex-col gap-1">
        <h2 className="font-semibold">No uploads match your filters</h2>
        <p className="text-sm text-muted-foreground">Try adjusting your filters or search term</p>
      </div>
    </StateFrame>
  );
}
