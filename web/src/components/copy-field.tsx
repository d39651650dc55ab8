// A value to hand on (a temporary password, an invitation link): shown in full, selectable,
// with a button that copies it.
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from './ui/button.tsx';
import { Input } from './ui/input.tsx';
import { Label } from './ui/label.tsx';

const COPIED_FOR_MS = 2000;

export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // The page may not be allowed the clipboard: leave the text selected to copy by hand.
      input.current?.select();
      toast.error(`Failed to copy the ${label.toLowerCase()}`);
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <div className="flex gap-2">
        <Input
          ref={input}
          id={id}
          readOnly
          value={value}
          className="font-mono text-xs md:text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
          onClick={() => void copy()}
        >
          {copied ? (
            <Check aria-hidden="true" className="text-emerald-500" />
          ) : (
            <Copy aria-hidden="true" />
          )}
        </Button>
      </div>
    </div>
  );
}
