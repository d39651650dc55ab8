// Settings' API Token section: the personal token, masked unless shown, a copy button, and
// Regenerate behind a confirmation (the old token, and every config made with it, stop working).
import { Check, Copy, Eye, EyeOff, KeySquare, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useCopy } from '../../../lib/use-copy.ts';
import { useRegenerateApiTokenMutation } from '../api.ts';
import { useSettingsUser } from '../hooks/use-settings-user.ts';
import { maskToken } from '../rules.ts';

function TokenField({ token }: { token: string }) {
  const [revealed, setRevealed] = useState(false);
  const { copy, copied } = useCopy();

  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      {/* The section's title names the token on screen; the label names it to screen readers. */}
      <FormField label="API token" hideLabel className="min-w-0 flex-1">
        <Input
          readOnly
          value={revealed ? token : maskToken(token)}
          className="font-mono"
          spellCheck={false}
        />
      </FormField>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="icon"
          aria-label={revealed ? 'Hide API token' : 'Show API token'}
          aria-pressed={revealed}
          onClick={() => setRevealed((shown) => !shown)}
        >
          {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        </Button>
        <Button
          variant="outline"
          className="flex-1"
          onClick={() =>
            void copy(token, {
              success: 'API token copied to clipboard',
              failure: 'Failed to copy API token',
            })
          }
        >
          {copied ? (
            <Check aria-hidden="true" className="text-emerald-500" />
          ) : (
            <Copy aria-hidden="true" />
          )}
          Copy
        </Button>
      </div>
    </div>
  );
}

export function ApiTokenCard({ userId }: { userId: string }) {
  const query = useSettingsUser(userId);
  const regenerate = useRegenerateApiTokenMutation(userId);
  const [confirming, setConfirming] = useState(false);

  const confirm = () => {
    setConfirming(false);
    regenerate.mutate(undefined, {
      onSuccess: () => toast.success('API token regenerated'),
      onError: () => toast.error('Failed to regenerate API token'),
    });
  };

  let content;
  if (query.data) {
    content = (
      <>
        <TokenField token={query.data.apiToken} />
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-foreground">
            Send it in the <code className="font-mono text-foreground">X-API-Token</code> header.
          </p>
          <Button
            variant="outline"
            className="text-destructive"
            disabled={regenerate.isPending}
            onClick={() => setConfirming(true)}
          >
            <RefreshCw aria-hidden="true" className={regenerate.isPending ? 'animate-spin' : ''} />
            Regenerate
          </Button>
        </div>
      </>
    );
  } else if (query.isPending) {
    content = <Skeleton className="h-9" />;
  } else {
    content = (
      <LoadError onRetry={() => void query.refetch()}>This section could not be loaded.</LoadError>
    );
  }

  return (
    <SectionCard
      id="api-token"
      title="API Token"
      description="Your personal token for ShareX, the scripts and your own tools. Treat it like a password."
      icon={<KeySquare aria-hidden="true" className="size-4 text-muted-foreground" />}
    >
      {content}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Regenerate API token?"
        description="Your current token stops working at once, and so do the ShareX configuration and scripts you downloaded with it. Download them again after regenerating."
        confirmLabel="Regenerate"
        onConfirm={confirm}
      />
    </SectionCard>
  );
}
