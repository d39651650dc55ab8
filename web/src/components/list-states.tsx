// What a list shows instead of its rows (the Admin screen's tabs): loading, and nothing to list
// (a failure to load is load-error.tsx's LoadError).
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from './ui/spinner.tsx';

export function ListLoading() {
  return (
    <div className="flex justify-center py-12">
      <Spinner className="size-6 text-muted-foreground" />
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
