// What a list shows instead of its rows (the Admin screen's tabs): loading, a failure to load
// with Retry, and nothing to list.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './ui/button.tsx';
import { Spinner } from './ui/spinner.tsx';

export function ListLoading() {
  return (
    <div className="flex justify-center py-12">
      <Spinner className="size-6 text-muted-foreground" />
    </div>
  );
}

/** `children` says what could not be loaded ('The users could not be loaded.'). */
export function ListLoadError({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center text-sm text-muted-foreground">
      <p>{children}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}

export function ListEmpty({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed py-12 text-center text-sm text-muted-foreground">
      <Icon aria-hidden="true" className="size-6" />
      {children}
    </div>
  );
}
