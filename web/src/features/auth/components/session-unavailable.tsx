import { CloudOff } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';

/** Full screen: the stored session could not be checked, but it is kept for the next try. */
export function SessionUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex min-h-svh flex-col items-center justify-center gap-4 bg-background px-4 text-center"
    >
      <div className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <CloudOff aria-hidden="true" className="size-6" />
      </div>
      <div className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold tracking-tight">Couldn&apos;t reach the server</h1>
        <p className="max-w-sm text-sm text-muted-foreground">
          Your session could not be checked. Check your connection and try again.
        </p>
      </div>
      <Button variant="outline" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
