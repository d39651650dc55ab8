// A value to hand on (a temporary password, an invitation link): shown in full, selectable,
// with a button that copies it.
import { Check, Copy } from 'lucide-react';
import { useId, useRef } from 'react';
import { useCopy } from '../lib/use-copy.ts';
import { Button } from './ui/button.tsx';
import { Input } from './ui/input.tsx';
import { Label } from './ui/label.tsx';

export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { copy, copied } = useCopy();

  const copyValue = async () => {
    const done = await copy(value, { failure: `Failed to copy the ${label.toLowerCase()}` });
    // Left selected, the text is ready to copy by hand.
    if (!done) input.current?.select();
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
          onClick={() => void copyValue()}
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
