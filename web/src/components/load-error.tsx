// The one way a screen says its data could not be loaded: a toast with the brief's words
// (useLoadFailureToast), and in place of the data a calm note with Try again (LoadError).
import { useEffect, type ReactNode } from 'react';
import { toast } from 'sonner';
import { isApiError } from '../lib/api-client.ts';
import { cn } from '../lib/utils.ts';
import { Button } from './ui/button.tsx';

type QueryState = { isError: boolean; error: unknown; errorUpdatedAt: number };

/**
 * Shows `message` as an error toast each time `query` fails to load. A 401 is not reported: the
 * session is over and the sign-in screen follows. Nor is a failure `expected` says the screen
 * answers itself (a tag filter naming a deleted tag). Queries that share a message share one
 * toast.
 */
export function useLoadFailureToast(
  query: QueryState,
  message: string,
  expected?: (error: unknown) => boolean,
): void {
  const failed = query.isError && !isApiError(query.error, 401) && !expected?.(query.error);
  useEffect(() => {
    if (failed) toast.error(message, { id: message });
  }, [failed, message, query.errorUpdatedAt]);
}

type LoadErrorProps = {
  /** What could not be loaded, as a sentence ('Your uploads could not be loaded.'). */
  children: ReactNode;
  onRetry: () => void;
  /** An icon over the sentence, where the data would have had a picture. */
  icon?: ReactNode;
  retryLabel?: string;
  className?: string;
};

/** In place of data that could not be loaded: what failed, and a button to try again. */
export function LoadError({
  children,
  onRetry,
  icon,
  retryLabel = 'Try again',
  className,
}: LoadErrorProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed p-6 text-center',
        className,
      )}
    >
      {icon && (
        <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground [&_svg]:size-6">
          {icon}
        </div>
      )}
      <div className="flex flex-col items-center gap-1 text-sm text-muted-foreground">
        {children}
      </div>
      <Button variant="outline" size="sm" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
