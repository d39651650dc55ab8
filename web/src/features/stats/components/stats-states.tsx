import { BarChart3, CloudUpload } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/load-error.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';

/** The Dashboard's shape in grey while the numbers load. */
export function StatsLoading() {
  return (
    <div role="status" className="flex flex-col gap-6">
      <span className="sr-only">Loading...</span>
      <div className="grid grid-cols-3 gap-3 sm:gap-4">
        {[0, 1, 2].map((key) => (
          <Skeleton key={key} className="h-20 rounded-xl sm:h-28" />
        ))}
      </div>
      <Skeleton className="h-52 rounded-xl sm:h-60" />
    </div>
  );
}

function StateFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-56 flex-col items-center justify-center gap-3 rounded-xl border border-dashed bg-card/30 p-8 text-center">
      {children}
    </div>
  );
}

/** Calm in place of the numbers; the toast has already said what went wrong. */
export function StatsLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <LoadError onRetry={onRetry} icon={<BarChart3 aria-hidden="true" />} className="min-h-56">
      Statistics could not be loaded.
    </LoadError>
  );
}

/** A user with no uploads: where their numbers would be, the way to make some. */
export function StatsEmpty() {
  return (
    <StateFrame>
      <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <CloudUpload aria-hidden="true" className="size-6" />
      </div>
      <div className="flex flex-col gap-1">
        <h2 className="font-semibold">Nothing uploaded yet</h2>
        <p className="text-sm text-muted-foreground">
          Your most viewed files and file types show up here after your first upload.
        </p>
      </div>
      <Button asChild variant="outline" className="mt-1">
        <Link to="/uploads">Go to Uploads</Link>
      </Button>
    </StateFrame>
  );
}
