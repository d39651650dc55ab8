import { CloudOff } from 'lucide-react';
import { LoadError } from '../../../components/load-error.tsx';

/** Full screen: the stored session could not be checked, but it is kept for the next try. */
export function SessionUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex min-h-svh items-center justify-center bg-background px-4">
      <LoadError onRetry={onRetry} icon={<CloudOff aria-hidden="true" />} className="border-0">
        <h1 className="text-xl font-semibold tracking-tight text-foreground">
          Couldn&apos;t reach the server
        </h1>
        <p className="max-w-sm">
          Your session could not be checked. Check your connection and try again.
        </p>
      </LoadError>
    </div>
  );
}
