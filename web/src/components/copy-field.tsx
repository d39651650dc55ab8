// A value to hand on (a temporary password, an invitation link): shown in full, selectable,
// with a button that copies it.
import { Check, Copy } from 'lucide-react';
import { useRef } from 'react';
import { useCopy } from '../lib/use-copy.ts';
import { FormField } from './form-field.tsx';
import { Button } from './ui/button.tsx';
import { Input } from './ui/input.tsx';

export function CopyField({ label, value }: { label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const { copy, copied } = useCopy();

  const copyValue = async () => {
    const done = await copy(value, { failure: `Failed to copy the ${label.toLowerCase()}` });
    // Left selected, the text is ready to copy by hand.
    if (!done) input.current?.select();
  };

  return (
    <div className="flex items-end gap-2">
      <FormField
        label={label}
        className="min-w-0 flex-1 gap-1.5"
        labelClassName="text-xs text-muted-foreground"
      >
        <Input
          ref={input}
          readOnly
          value={value}
          className="font-mono text-xs md:text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
      </FormField>
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
  );
}
