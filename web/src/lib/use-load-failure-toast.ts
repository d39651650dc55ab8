import { useEffect } from 'react';
import { toast } from 'sonner';
import { isApiError } from './api-client.ts';

type QueryState = { isError: boolean; error: unknown; errorUpdatedAt: number };

/**
 * Shows `message` as an error toast each time `query` fails to load. A 401 is not reported: the
 * session is over and the sign-in screen follows. Queries that share a message share one toast.
 */
export function useLoadFailureToast(query: QueryState, message: string): void {
  const failed = query.isError && !isApiError(query.error, 401);
  useEffect(() => {
    if (failed) toast.error(message, { id: message });
  }, [failed, message, query.errorUpdatedAt]);
}
